/* server.h -- the executor's server backends: PostgreSQL (exec/pg.c, libpq)
 * and MySQL/MariaDB (exec/mysql.c, the MariaDB client library), behind the
 * same sqlsim_db as SQLite (exec/exec.c dispatches), with the URL that names
 * a server database (exec/url.c), the check model SQL passes before it is
 * sent (exec/guard.c) and the typed cells a server's rows come as
 * (exec/cells.c hashes them as Python compares the values psycopg2 and
 * PyMySQL make of them).
 *
 * A backend's query runs one statement of model SQL in a read-only
 * transaction that is rolled back after it, under a server-side statement
 * time limit, streaming rows to a callback that may stop it. */
#ifndef SQLSIM_SERVER_H
#define SQLSIM_SERVER_H

#include "core.h"

/* ---------------------------------------------------------------- URLs (url.c) */

enum { SRV_POSTGRES = 1, SRV_MYSQL = 2 };

/* A server database's address, parsed. */
typedef struct srv_url {
  int kind;               /* SRV_* */
  char *text;             /* the URL as given ({db_id} replaced), password_file left out */
  char *user, *password;  /* decoded; NULL when not given */
  char *host, *socket;    /* host NULL: the client's default (a unix socket) */
  int port;               /* 0: the default */
  char *dbname;           /* NULL: none */
  int admin;              /* connect to the server's maintenance database instead (PostgreSQL's
                             postgres, none for MySQL): to create dbname */
} srv_url;

/* The kind of a URL's scheme (postgresql://, postgres://: SRV_POSTGRES;
 * mysql://, mariadb://: SRV_MYSQL), 0 for anything else. */
int srv_url_kind(const char *url);
/* Parses url with {db_id} replaced by db_id (which must be given when the URL
 * has {db_id}, and passes sqlsim_check_db_id): 0 with *out filled, or
 * SQLSIM_EFORMAT / SQLSIM_EIO (a password file that cannot be read) with err
 * saying what, the password never in it. The password comes from the URL,
 * its password_file parameter, or the environment (PGPASSWORD is libpq's own;
 * MYSQL_PWD for MySQL). */
int srv_url_parse(const char *url, const char *db_id, srv_url *out, sqlsim_error *err);
void srv_url_clear(srv_url *u);
/* url with {db_id} replaced (malloc'd; parameters kept as given), or NULL
 * with err set (no db_id where the URL wants one, a db_id that is no name). */
char *srv_url_expand(const char *url, const char *db_id, sqlsim_error *err);
/* url with any password replaced by *** (malloc'd; NULL only when out of
 * memory). */
char *srv_url_redact(const char *url);

/* ---------------------------------------------------------------- cells (cells.c) */

/* A server value as the backend read it (text protocol). */
enum {
  SRV_NULL,
  SRV_INT,        /* i */
  SRV_REAL,       /* x */
  SRV_DECIMAL,    /* p, n: digits with an optional sign and point (NUMERIC, DECIMAL) */
  SRV_TEXT,       /* p, n */
  SRV_BLOB,       /* p, n: the bytes */
  SRV_DATE,       /* p, n: YYYY-MM-DD, a valid date */
  SRV_TIMESTAMP,  /* p, n: YYYY-MM-DD HH:MM:SS[.ffffff], no zone */
  SRV_TIMESTAMPTZ,/* p, n: the same with +HH[:MM[:SS]] */
  SRV_TIME,       /* p, n: HH:MM:SS[.ffffff], a time of day (PostgreSQL time; timetz with its zone) */
  SRV_DURATION    /* i: microseconds (PostgreSQL interval, MySQL TIME: Python's timedelta) */
};

typedef struct srv_cell {
  int type;
  long long i;
  double x;
  const char *p;
  size_t n;
} srv_cell;

/* A cell's hash: equal for values Python finds equal once the driver has
 * made them Python values (1 == 1.0 == Decimal('1.00') == True; a Decimal
 * equals a float only when exactly equal; a date equals only a date, a
 * datetime a datetime), as sqlsim_exec's hashes of SQLite values are; NaN
 * equal to nothing. *num (a number's value, NaN otherwise) and *kind (0 NULL,
 * 1 number, 2 text and dates, 3 bytes) for SQLSIM_EXEC_VALUES. */
uint64_t srv_cell_hash(const srv_cell *c, double *num, unsigned char *kind);
/* The same families for SQLite's values (exec.c): NULL, an integer, a real
 * (integral: the integer's hash), text and bytes; seed-separated bytes. */
uint64_t cell_hash_null(void);
uint64_t cell_hash_int(long long v);
uint64_t cell_hash_real(double x);
uint64_t cell_hash_text(const void *p, size_t n);
uint64_t cell_hash_blob(const void *p, size_t n);
uint64_t cell_hash_bytes(uint64_t seed, const void *p, size_t n);

/* ---------------------------------------------------------------- the check (guard.c) */

/* Whether sql may be sent to a server of this kind as model SQL: one
 * statement that reads (SELECT, WITH, VALUES, TABLE, in parentheses or not),
 * no function that reaches outside the query (files, other sessions, the
 * server's settings, locks that outlive it, SQL run from a string), no
 * SELECT .. INTO a file. 0, or SQLSIM_EXEC_REFUSED / SQLSIM_EXEC_MULTI /
 * SQLSIM_EXEC_ERROR (empty) with why said. The server's read-only
 * transaction is the second wall. */
int srv_guard(int kind, const char *sql, char *why, size_t wn);

/* A table's or column's name quoted as the server keeps what queries write
 * unquoted (guard.c): a plain name folded to lower case by PostgreSQL, any
 * name as written by MySQL (backticks). For sqlsim's own DDL and loads
 * (load/, synth/mirror.c). */
void srv_put_name(strbuf *sb, int kind, const char *name);

/* ---------------------------------------------------------------- backends (pg.c, mysql.c) */

typedef struct srv_conn srv_conn;

/* What a statement came to. */
enum { SRV_OK, SRV_ERROR, SRV_TIMEOUT, SRV_REFUSED, SRV_LOST, SRV_STOPPED };

/* Receives a statement's column count (row NULL) once, then each row; a
 * non-zero return stops the statement (SRV_STOPPED). */
typedef int (*srv_row_fn)(void *ctx, const srv_cell *cells, int ncols);

typedef struct srv_backend {
  const char *name;
  /* A connection (session settings made: the statement time limit, read
   * only unless writable: sqlsim's loader), or NULL with err saying why
   * (SQLSIM_ENOTFOUND when the database does not exist). */
  srv_conn *(*connect)(const srv_url *u, double timeout_s, int writable, sqlsim_error *err);
  void (*close)(srv_conn *c);
  /* Runs one statement of model SQL (after srv_guard) in a read-only
   * transaction rolled back after it: SRV_* with why set when not OK. */
  int (*query)(srv_conn *c, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn);
  /* Asks the server to stop c's running statement; callable from another
   * thread while query runs. */
  void (*cancel)(srv_conn *c);
  /* sqlsim's own statements (several, writing: temporary tables), outside
   * any read-only transaction: 0, or -1 with why. */
  int (*own)(srv_conn *c, const char *sql, char *why, size_t wn);
  /* Writes a quoted literal of text[0..n) for this server into sb (the
   * loader's INSERTs). */
  void (*quote)(srv_conn *c, strbuf *sb, const char *text, size_t n);
  /* Bulk rows (PostgreSQL's COPY FROM STDIN, text format): begin with the
   * COPY statement, send data, end (ok 0: abort). NULL for MySQL. 0 or -1
   * with why. */
  int (*copy_begin)(srv_conn *c, const char *copy_sql, char *why, size_t wn);
  int (*copy_data)(srv_conn *c, const char *data, size_t n, char *why, size_t wn);
  int (*copy_end)(srv_conn *c, int ok, char *why, size_t wn);
} srv_backend;

extern const srv_backend srv_postgres, srv_mysql;

/* The sql_mode of the MySQL server at url (its session's), into out: 0, or
 * -1 when it cannot be asked (remote.c). */
int srv_mysql_mode(const char *url, char *out, size_t n);

#endif
