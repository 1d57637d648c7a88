/* server.h -- the engine table: every engine sqlsim runs SQL on, one entry
 * each (exec/engines.c lists them), and the typed target that names one.
 *
 * An engine other than SQLite is reached through a client library loaded at
 * its first use (PostgreSQL: exec/pg.c, libpq; MySQL/MariaDB: exec/mysql.c,
 * the MariaDB client; DuckDB: exec/duckdb.c, libduckdb), behind the same
 * sqlsim_db as SQLite (exec/remote.c). Its entry holds everything that
 * differs between engines: the URL schemes, the dialect its SQL is read in,
 * how the check of model SQL reads text (exec/guard.c) and what it refuses,
 * how names and literals are written, the client's calls (open, a statement
 * of model SQL streamed, cancel, sqlsim's own statements), loading a table
 * (load/), and the temporary tables synthetic databases are judged in
 * (synth/mirror.c). Nothing outside an engine's file and the table looks at
 * which engine it is.
 *
 * SQLite has an entry too (its name, dialect and names), but no client: its
 * connection is the sandbox's (exec.c, sandbox.c), which sqlsim needs as a
 * SQLite handle to make databases itself (rewrite's copies, synthetic
 * databases, images) and to read schemas with PRAGMAs.
 *
 * A backend's query runs one statement of model SQL where it cannot write
 * (a read-only transaction rolled back after it, or a read-only database),
 * under a time limit, streaming rows to a callback that may stop it. */
#ifndef SQLSIM_SERVER_H
#define SQLSIM_SERVER_H

#include "core.h"

typedef struct exec_engine exec_engine;

/* ---------------------------------------------------------------- URLs (url.c) */

/* A database's address on an engine, parsed. */
typedef struct srv_url {
  const exec_engine *engine;
  char *text;             /* the URL as given ({db_id} replaced), password_file left out */
  char *user, *password;  /* decoded; NULL when not given */
  char *host, *socket;    /* host NULL: the client's default (a unix socket) */
  int port;               /* 0: the default */
  char *dbname;           /* NULL: none; a file engine's path */
  int admin;              /* connect to the server's maintenance database instead (PostgreSQL's
                             postgres, none for MySQL): to create dbname */
} srv_url;

/* A target parsed once: the engine it names and its URL with {db_id} left
 * in place, bound to an item's db_id without being read again
 * (srv_url_bind). SQLite's target is a file path (engine = SQLite's entry,
 * url.text the path). */
typedef struct exec_target {
  const exec_engine *engine;
  srv_url url;            /* its parts; "{db_id}" kept where the URL has it */
  int per_db;             /* {db_id} in it: a database per db_id */
} exec_target;

/* The entry a target names: the engine whose scheme it starts with
 * (postgresql://, mysql://, duckdb:// ...), SQLite's for anything else (a
 * file). Never NULL. */
const exec_engine *exec_engine_for(const char *target);
/* "postgresql://, mysql:// or duckdb://": the client engines' URL schemes,
 * for messages. */
const char *exec_engine_urls(void);
/* Parses target once: 0, or SQLSIM_EFORMAT / SQLSIM_EIO (a password file
 * that cannot be read) with err saying what, the password never in it. The
 * password comes from the URL, its password_file parameter, or the
 * environment (PGPASSWORD is libpq's own; MYSQL_PWD for MySQL). */
int exec_target_parse(const char *target, exec_target *out, sqlsim_error *err);
void exec_target_clear(exec_target *t);
/* t's URL for db_id (which must be given when t->per_db, and pass
 * sqlsim_check_db_id): its parts copied with {db_id} replaced, decoded in
 * them, percent-encoded in the text. 0, or SQLSIM_EFORMAT / SQLSIM_ENOMEM. */
int srv_url_bind(const exec_target *t, const char *db_id, srv_url *out, sqlsim_error *err);
/* Reads url as given, {db_id} kept in its parts and text (the target's
 * parse): 0, or an error as exec_target_parse's (out cleared). */
int srv_url_read(const char *url, srv_url *out, sqlsim_error *err);
/* Parses url for db_id in one step (sqlsim_db_connect, sqlsim_load): 0 with
 * *out filled, or an error as exec_target_parse's. */
int srv_url_parse(const char *url, const char *db_id, srv_url *out, sqlsim_error *err);
void srv_url_clear(srv_url *u);
/* A copy of u (NULL fields stay NULL): 0, or -1 out of memory. */
int srv_url_copy(srv_url *to, const srv_url *u);
/* url with {db_id} replaced (malloc'd; parameters kept as given), or NULL
 * with err set (no db_id where the URL wants one, a db_id that is no name). */
char *srv_url_expand(const char *url, const char *db_id, sqlsim_error *err);
/* url with any password replaced by *** (malloc'd; NULL only when out of
 * memory). */
char *srv_url_redact(const char *url);

/* ---------------------------------------------------------------- cells (cells.c) */

/* A value as the backend read it. */
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

/* How an engine's lexer reads text: PostgreSQL's (standard strings, E'..',
 * $tag$ quoting, nested block comments; DuckDB reads as it does) or MySQL's
 * (backticks, backslash escapes, # comments, -- only before a space, the
 * executable comment). */
enum { SRV_LEX_POSTGRES, SRV_LEX_MYSQL };

/* Whether sql may be sent to engine e as model SQL: one statement that
 * reads (a word of e->first, in parentheses or not), no function of
 * e->denied (files, other sessions, the server's settings, locks that
 * outlive it, SQL run from a string), no SELECT .. INTO a file. 0, or
 * SQLSIM_EXEC_REFUSED / SQLSIM_EXEC_MULTI / SQLSIM_EXEC_ERROR (empty) with
 * why said. The engine's read-only transaction or database is the second
 * wall. */
int srv_guard(const exec_engine *e, const char *sql, char *why, size_t wn);

/* A name as PostgreSQL keeps what queries write unquoted (a plain name
 * folded to lower case, any other kept as written), double-quoted; and as
 * written, double-quoted (DuckDB, SQLite: names are matched without regard
 * to case however written). The entries' put_name. */
void srv_put_name_folded(strbuf *sb, const char *name);
void srv_put_name_quoted(strbuf *sb, const char *name);

/* ---------------------------------------------------------------- the table */

typedef struct srv_conn srv_conn;

/* What a statement came to. */
enum { SRV_OK, SRV_ERROR, SRV_TIMEOUT, SRV_REFUSED, SRV_LOST, SRV_STOPPED,
       SRV_TOO_BIG /* past the memory the engine was given (an in-process engine's own limit) */ };

/* Receives a statement's column count (row NULL) once, then each row; a
 * non-zero return stops the statement (SRV_STOPPED). */
typedef int (*srv_row_fn)(void *ctx, const srv_cell *cells, int ncols);

/* The type a loaded column gets (load/load.c chooses it from what the
 * column holds). */
enum { LOAD_INT, LOAD_REAL, LOAD_TEXT, LOAD_BLOB, LOAD_DATE, LOAD_STAMP };

/* How a target names its database: a server's URL, or a file's path. */
enum { EXEC_URL_NONE, EXEC_URL_SERVER, EXEC_URL_FILE };

struct exec_engine {
  const char *name;            /* as messages name it: "PostgreSQL" */
  int id;                      /* SQLSIM_ENGINE_* */
  const char *const *schemes;  /* URL schemes (before "://"), NULL-ended; none: SQLite's file paths */
  int url_form;                /* EXEC_URL_* */
  const char *const *params;   /* a server URL's parameters sqlsim reads (socket); NULL: any is the
                                  client's (libpq's) */
  const char *password_env;    /* the environment variable a password is taken from (NULL: the
                                  client reads its own, as libpq PGPASSWORD) */
  int dialect;                 /* SQLSIM_DIALECT_* of the SQL it runs */
  const char *install;         /* what to install when its client library is missing */
  const char *usage;           /* its URL's form, for help */

  /* the check of model SQL (guard.c) */
  int lexis;                   /* SRV_LEX_* */
  const char *const *first;    /* the words a reading statement starts with */
  const char *const *denied;   /* functions that reach outside the query */

  /* names, literals and types */
  void (*put_name)(strbuf *sb, const char *name); /* a table's or column's name as the engine keeps
                                                     what queries write unquoted */
  void (*put_blob)(strbuf *sb, const unsigned char *p, size_t n); /* a bytes literal */
  /* a loaded column's type (LOAD_*; maxlen: its longest value in bytes, keyed: in a key) */
  const char *(*column_type)(int type, size_t maxlen, int keyed, char *buf, size_t n);
  /* a type for a declared one (tables.json's number, text, time ..., a SQLite file's) */
  const char *(*declared_type)(const char *declared);
  size_t key_text_max, key_blob_max; /* the longest text or bytes a key holds (0: any) */

  /* the client: NULL for SQLite */
  /* A connection (the session read-only with the statement limit unless
   * writable: sqlsim's loader), or NULL with err saying why
   * (SQLSIM_ENOTFOUND when the database does not exist). max_memory: the
   * engine's own memory cap, where it has one (DuckDB) */
  srv_conn *(*connect)(const srv_url *u, double timeout_s, size_t max_memory, int writable, sqlsim_error *err);
  void (*close)(srv_conn *c);
  /* Runs one statement of model SQL (after srv_guard) where it cannot write:
   * SRV_* with why set when not OK. */
  int (*query)(srv_conn *c, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn);
  /* Asks the engine to stop c's running statement; callable from another
   * thread while query runs. */
  void (*cancel)(srv_conn *c);
  /* sqlsim's own statements (several, writing: temporary tables, loads),
   * outside any read-only transaction: 0, or -1 with why. */
  int (*own)(srv_conn *c, const char *sql, char *why, size_t wn);
  /* A quoted literal of text[0..n) for this connection into sb. */
  void (*quote)(srv_conn *c, strbuf *sb, const char *text, size_t n);
  /* The parse options a connection's settings add to the dialect's (MySQL's
   * sql_mode: || and "x"); 0 when it cannot be asked. NULL: none. */
  unsigned (*parse_options)(const srv_url *u);

  /* loading a table (sqlsim load) */
  /* Creates the database u names, which does not exist: 0, or -1 with why.
   * NULL: opening it writable makes it (a file). */
  int (*create_db)(const srv_url *u, char *why, size_t wn);
  /* Whether a table of this (kept) name exists: 1, 0, or -1 with why. */
  int (*table_exists)(srv_conn *c, const char *kept_name, char *why, size_t wn);
  const char *table_options;   /* after CREATE TABLE t (..) */
  const char *drop_options;    /* after DROP TABLE IF EXISTS t */
  const char *begin;           /* a transaction of sqlsim's own writes */
  const char *analyze;         /* the statement that updates a table's statistics, before its name */
  int keys_after;              /* primary and unique keys added after the rows (ALTER TABLE) */
  int foreign_keys_after;      /* foreign keys too */
  /* Rows into a table: begin (table and column names as put_name writes
   * them), each row's cells (SRV_NULL, SRV_INT, SRV_REAL, SRV_TEXT, SRV_BLOB;
   * a date or time as text), end (ok 0: abandon). 0, or -1 with why. */
  int (*rows_begin)(srv_conn *c, const char *table, const char *columns, int ncols, char *why, size_t wn);
  int (*rows_put)(srv_conn *c, const srv_cell *cells, int ncols, char *why, size_t wn);
  int (*rows_end)(srv_conn *c, int ok, char *why, size_t wn);

  /* the temporary tables synthetic databases are judged in (synth/mirror.c):
   * each hides the real table of its name for this session alone */
  const char *temp_like;       /* with the real table's types: printf format, the name twice */
  const char *temp_create;     /* with declared types: "CREATE TEMP TABLE" */
  const char *write_begin;     /* a transaction of sqlsim's own writes in a read-only session */
  /* A query whose rows are table name's columns as "name type", in order,
   * for a witness the engine loads */
  void (*columns_sql)(srv_conn *c, strbuf *sb, const char *name);
  /* After the loads-th reload of the tables' rows (dead rows vacuumed now
   * and then); NULL: nothing. -1 when the session can no longer be trusted
   * to be read-only (it is then given up). */
  int (*reloaded)(srv_conn *c, const char *const *names, int n, unsigned long loads);
};

/* The database of db_id at t as an executor connection (a SQLite file, or
 * another engine's database through its client): 0, or a negative code
 * with err saying why (a URL shown without its password). */
int exec_connect(const exec_target *t, const char *db_id, const sqlsim_exec_opts *opts, sqlsim_db **out,
                 sqlsim_error *err);
/* The entry of d's engine (SQLite's for the sandbox's connections). */
const exec_engine *exec_engine_of(const sqlsim_db *d);
/* Tells d's engine its temporary tables names[0..n) were reloaded for the
 * loads-th time (exec_engine.reloaded): 0, or -1 when the connection was
 * given up (the next statement opens it again). */
int exec_server_reloaded(sqlsim_db *d, const char *const *names, int n, unsigned long loads);

/* d's engine's query whose rows are table name's columns as "name type"
 * (exec_engine.columns_sql), into sb. */
void exec_server_columns_sql(sqlsim_db *d, strbuf *sb, const char *name);

/* The table: SQLite's entry first, then the client engines, NULL-ended. */
extern const exec_engine *const exec_engines[];
extern const exec_engine exec_sqlite, exec_postgres, exec_mysql, exec_duckdb;

#endif
