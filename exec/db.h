/* db.h -- the executor's connection, shared by the files of exec/ only:
 * exec.c (SQLite, the watchdog, the result arrays) and remote.c (another
 * engine through its entry of server.h). */
#ifndef SQLSIM_EXEC_DB_H
#define SQLSIM_EXEC_DB_H

#include "exec.h"
#include "server.h"

#define DEFAULT_TIMEOUT 30.0
#define DEFAULT_MAX_ROWS 10000000L
#define DEFAULT_RESULT_BYTES ((size_t)256 << 20)

struct sqlsim_db {
  sqlite3 *db;           /* SQLite's connection; NULL for a server's */
  sbx_guard guard;       /* the deadline the progress handler and functions read */
  sbx_account *acct;     /* the connection's memory budget */
  size_t mem_cap;
  double timeout;
  long max_rows;
  volatile int timed_out;
  char denied[200];
  /* the watchdog's list of armed connections */
  struct sqlsim_db *wd_prev, *wd_next;
  int wd_armed;
  /* another engine's database: its entry, connection (NULL while lost) and URL */
  const exec_engine *srv;
  srv_conn *sc;
  srv_url url;
  int reconnects;
  unsigned long writes;  /* times opened for sqlsim's own writes (exec_writable): its content's version */
  void *user;            /* its owner's (exec_set_user) */
};

/* A connection's common part under opts (NULL when out of memory), and its
 * end. */
sqlsim_db *exec_db_new(const sqlsim_exec_opts *opts);
void exec_db_free(sqlsim_db *d);
/* Puts d on the watchdog's list (its deadline is d->guard.deadline), and
 * takes it off. */
void exec_wd_arm(sqlsim_db *d);
void exec_wd_disarm(sqlsim_db *d);
/* Grows r's arrays to hold cap cells; 0 past the result budget or memory. */
int exec_grow_cells(sqlsim_result *r, long cap, unsigned flags);

/* remote.c: another engine's database behind the same calls: the database
 * of db_id at t. */
int exec_server_open(const exec_target *t, const char *db_id, const sqlsim_exec_opts *opts, sqlsim_db **out,
                     sqlsim_error *err);
void exec_server_close(sqlsim_db *d);
void exec_server_run(sqlsim_db *d, const char *sql, unsigned flags, sqlsim_result *r);
void exec_server_each(sqlsim_db *d, const char *sql, srv_row_fn row, void (*reset)(void *), void *ctx,
                      sqlsim_result *r);
char *exec_server_rows_json(sqlsim_db *d, const char *sql, const long *want, int nwant, int first_n, long *count,
                            char **err);

#endif
