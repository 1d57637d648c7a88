/* sandbox.h -- how sqlsim opens a database it did not make, and what bounds
 * the SQL it runs there (exec/sandbox.c, exec/sqlfuncs.c).
 *
 * Every connection that reads a user's database or runs model-written SQL is
 * made by sbx_open() or sbx_open_image(): read-only, defensive, untrusted
 * schema, no extensions, sqlite3_limit() on every dimension SQL can grow in,
 * temporary data kept in memory, a memory budget of its own (an account), and
 * the SQL functions whose cost is more than linear in their input (LIKE,
 * GLOB, instr, replace, trim, printf's %c) replaced by versions that are linear or stop at
 * the connection's deadline. The authorizer and the time limit belong to the
 * executor (exec.c), which builds on these connections. */
#ifndef SQLSIM_SANDBOX_H
#define SQLSIM_SANDBOX_H

#include "core.h"

#include <sqlite3.h>
#include <time.h>

/* Limits of one connection. Zero fields take the defaults below. */
typedef struct sbx_limits {
  size_t mem_bytes;     /* memory the connection may hold (its account) */
  int value_bytes;      /* SQLITE_LIMIT_LENGTH: the largest string or blob */
  int sql_bytes;        /* SQLITE_LIMIT_SQL_LENGTH */
} sbx_limits;

#define SBX_DEFAULT_MEM ((size_t)512 << 20)
#define SBX_DEFAULT_VALUE (16 << 20)
#define SBX_DEFAULT_SQL 1000000
#define SBX_LIKE_PATTERN 10000

/* What stops a connection's long work: the executor sets the deadline before
 * each statement; the replaced SQL functions read it while they run. */
typedef struct sbx_guard {
  double deadline;        /* sbx_clock() seconds; 0 = none */
  volatile int stopped;   /* set when the deadline passed inside a function */
} sbx_guard;

/* The clock of every deadline: CLOCK_MONOTONIC, in seconds. */
static inline double sbx_clock(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* 1 when g has a deadline and it has passed. */
static inline int sbx_past_deadline(const sbx_guard *g) {
  return g && g->deadline > 0 && sbx_clock() > g->deadline;
}

/* A connection's memory budget. Memory SQLite allocates while the account is
 * entered on the calling thread is charged to it and refused past its cap. */
typedef struct sbx_account sbx_account;

/* Sets up SQLite for sqlsim once per process: the accounting allocator when
 * SQLite is not yet initialized (else, when the process has no heap limit,
 * a process-wide one), and the VFS. Safe to call any number of times. */
void sbx_init(void);

sbx_account *sbx_account_new(size_t cap);
/* Drops the owner's reference; the account goes when its last byte is freed. */
void sbx_account_release(sbx_account *a);
/* Makes a the calling thread's account; returns the previous one to restore
 * with sbx_leave(). */
sbx_account *sbx_enter(sbx_account *a);
void sbx_leave(sbx_account *prev);

/* Checks that path names a regular file sqlsim may read as a database:
 * 0, or SQLSIM_EIO with err saying what it is instead. */
int sbx_check_file(const char *path, sqlsim_error *err);

/* The name of the VFS for a fixed "now" ("YYYY-MM-DD[ HH:MM:SS]", UTC), or of
 * the default one for NULL; NULL with err set when the text is not a valid
 * date and time. */
const char *sbx_vfs(const char *fixed_now, sqlsim_error *err);
/* Parses a fixed "now" strictly (real calendar date, 00:00:00-23:59:59):
 * 0 and *unix_s, or SQLSIM_EFORMAT with err saying what is wrong. */
int sbx_parse_now(const char *text, long long *unix_s, sqlsim_error *err);

/* Opens the database file at path read-only under the limits, with the
 * replaced functions reading g (may be NULL). The account is entered around
 * the open. Returns 0, or a negative code with err naming the file. */
int sbx_open(const char *path, const char *fixed_now, const sbx_limits *lim, sbx_account *acct,
             sbx_guard *g, sqlite3 **out, sqlsim_error *err);
/* The same over an in-memory image of a database (sqlite3_serialize output,
 * taken over: freed with the connection, or here on failure). */
int sbx_open_image(unsigned char *image, size_t n, const char *fixed_now, const sbx_limits *lim,
                   sbx_account *acct, sbx_guard *g, sqlite3 **out, sqlsim_error *err);

/* An empty in-memory database sqlsim itself fills (synthetic databases),
 * hardened like the others; query_only is on, as everywhere. */
int sbx_open_memory(const char *fixed_now, const sbx_limits *lim, sbx_account *acct, sbx_guard *g, sqlite3 **out,
                    sqlsim_error *err);

/* Replaces LIKE, GLOB, instr, replace and trim/ltrim/rtrim on db with
 * versions whose cost is linear in their input or that stop at g's deadline
 * (exec/sqlfuncs.c). Same results as SQLite's own. */
int sqlfuncs_register(sqlite3 *db, sbx_guard *g);
/* Closes the calling thread's helper connection (printf). */
void sqlfuncs_thread_cleanup(void);

#endif
