/* mysql.c -- the MySQL and MariaDB backend (the MariaDB client library).
 *
 * A connection opens without multi-statements and without LOCAL INFILE and
 * sets its session once: every transaction read-only, the statement time
 * limit (MariaDB's max_statement_time, MySQL's max_execution_time). A
 * statement of model SQL is one round trip (a SELECT cannot write in MySQL,
 * and the guard lets nothing else through), its rows streamed
 * (mysql_use_result) and capped as they arrive. The client's read timeout
 * (the limit plus a grace) is the backstop for a server that stops
 * answering: the connection is then lost, not the run. The watchdog's cancel
 * is KILL QUERY from a second connection, as the server offers nothing else.
 * Values arrive as text and are typed by their field as PyMySQL types them:
 * integers, DECIMAL as Decimal, FLOAT and DOUBLE as float, DATE, DATETIME
 * and TIMESTAMP as dates when valid (as text when not: '0000-00-00'), TIME as
 * a duration, binary strings as bytes. */
#include "server.h"

#include <dlfcn.h>
#include <errno.h>
#include <mysql.h>
#include <pthread.h>
#include <mysqld_error.h>
#include <errmsg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The MariaDB client library, opened at the first MySQL URL (dlopen), as
 * libpq is (pg.c). */
#define MY_FUNCS(X) \
  X(mysql_close) \
  X(mysql_errno) \
  X(mysql_error) \
  X(mysql_fetch_fields) \
  X(mysql_fetch_lengths) \
  X(mysql_fetch_row) \
  X(mysql_free_result) \
  X(mysql_get_server_info) \
  X(mysql_init) \
  X(mysql_more_results) \
  X(mysql_next_result) \
  X(mysql_num_fields) \
  X(mysql_optionsv) \
  X(mysql_query) \
  X(mysql_real_connect) \
  X(mysql_real_escape_string) \
  X(mysql_real_query) \
  X(mysql_set_server_option) \
  X(mysql_store_result) \
  X(mysql_thread_id) \
  X(mysql_use_result) \
  X(mysql_server_init)

static struct {
#define MY_SLOT(f) __typeof__(f) *f;
  MY_FUNCS(MY_SLOT)
} mc;
static pthread_once_t my_once = PTHREAD_ONCE_INIT;
static char my_error[300];

static void my_load(void) {
  void *h = dlopen("libmariadb.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(my_error, sizeof my_error, "%s", dlerror());
    return;
  }
#define MY_BIND(f)                                          \
  if (!(mc.f = (__typeof__(mc.f))dlsym(h, #f))) {           \
    snprintf(my_error, sizeof my_error, "libmariadb has no %s", #f); \
    return;                                                 \
  }
  MY_FUNCS(MY_BIND)
  if (mc.mysql_server_init(0, NULL, NULL)) snprintf(my_error, sizeof my_error, "it did not initialize");
}

/* 0 when the library is loaded (and initialized, once: mysql_init is not
 * thread-safe before that), else SQLSIM_EIO with err saying what to install. */
static int my_ready(sqlsim_error *err) {
  pthread_once(&my_once, my_load);
  if (!my_error[0]) return 0;
  return sqlsim_error_set(err, SQLSIM_EIO, -1,
                          "MySQL: its client library cannot be loaded (%s): %s", exec_mysql.install,
                          my_error);
}

struct srv_conn {
  MYSQL *my;
  srv_url url;        /* for the cancelling connection */
  unsigned long id;   /* the session's thread id, for KILL QUERY */
  int mariadb;
  double timeout;
  volatile int killed;
  strbuf rows;        /* a load's INSERT not yet sent */
  const char *head;   /* its "INSERT INTO t (..) VALUES " */
  long inbatch;       /* rows in it */
};

/* A name as MySQL keeps it: in backticks, as written. */
static void my_put_name(strbuf *sb, const char *name) {
  sb_putc(sb, '`');
  for (const char *p = name; *p; p++) {
    if (*p == '`') sb_putc(sb, '`');
    sb_putc(sb, *p);
  }
  sb_putc(sb, '`');
}

static void message(MYSQL *my, char *why, size_t wn) {
  const char *m = mc.mysql_error(my);
  snprintf(why, wn, "%.400s", m && *m ? m : "the server gave no reason");
}

/* A bare client connection to u: NULL with why set on failure. */
static MYSQL *open_client(const srv_url *u, unsigned read_timeout, int connect_timeout, char *why, size_t wn,
                          unsigned *errnum) {
  MYSQL *my = mc.mysql_init(NULL);
  if (!my) {
    snprintf(why, wn, "out of memory");
    return NULL;
  }
  unsigned ct = (unsigned)connect_timeout, rt = read_timeout, zero = 0;
  mc.mysql_optionsv(my, MYSQL_OPT_CONNECT_TIMEOUT, &ct);
  mc.mysql_optionsv(my, MYSQL_OPT_READ_TIMEOUT, &rt);
  mc.mysql_optionsv(my, MYSQL_OPT_WRITE_TIMEOUT, &rt);
  mc.mysql_optionsv(my, MYSQL_OPT_LOCAL_INFILE, &zero);
  mc.mysql_optionsv(my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  if (!mc.mysql_real_connect(my, u->host, u->user, u->password, u->admin ? NULL : u->dbname, (unsigned)u->port, u->socket,
                          0)) {
    message(my, why, wn);
    if (errnum) *errnum = mc.mysql_errno(my);
    mc.mysql_close(my);
    return NULL;
  }
  return my;
}

static srv_conn *my_connect(const srv_url *u, double timeout_s, size_t max_memory, int writable, sqlsim_error *err) {
  (void)max_memory; /* the server's own */
  if (my_ready(err)) return NULL;
  char why[420];
  unsigned e = 0;
  MYSQL *my = open_client(u, writable ? 3600 : (unsigned)timeout_s + 30, 10, why, sizeof why, &e);
  if (!my) {
    sqlsim_error_set(err, e == ER_BAD_DB_ERROR ? SQLSIM_ENOTFOUND : SQLSIM_EIO, -1, "MySQL: cannot connect: %s", why);
    return NULL;
  }
  srv_conn *c = calloc(1, sizeof *c);
  if (!c) {
    mc.mysql_close(my);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  c->my = my;
  c->id = mc.mysql_thread_id(my);
  c->mariadb = strstr(mc.mysql_get_server_info(my), "MariaDB") != NULL;
  c->timeout = timeout_s;
  if (srv_url_copy(&c->url, u)) {
    mc.mysql_close(my);
    free(c);
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  char set[300];
  double limit = writable ? 0 : timeout_s;
  if (c->mariadb)
    snprintf(set, sizeof set, "SET SESSION max_statement_time = %.3f", limit);
  else
    snprintf(set, sizeof set, "SET SESSION max_execution_time = %ld", (long)(limit * 1000));
  if (mc.mysql_query(my, set) || mc.mysql_query(my, writable ? "SET SESSION TRANSACTION READ WRITE" : "SET SESSION TRANSACTION READ ONLY")) {
    message(my, why, sizeof why);
    sqlsim_error_set(err, SQLSIM_EIO, -1, "MySQL: the session cannot be set up: %s", why);
    srv_url_clear(&c->url);
    mc.mysql_close(my);
    free(c);
    return NULL;
  }
  return c;
}

static void my_close(srv_conn *c) {
  if (!c) return;
  free(c->rows.buf);
  free((char *)c->head);
  mc.mysql_close(c->my);
  srv_url_clear(&c->url);
  free(c);
}

static void my_cancel(srv_conn *c) {
  char why[420], kill[64];
  MYSQL *k = open_client(&c->url, 5, 2, why, sizeof why, NULL);
  if (!k) return;
  snprintf(kill, sizeof kill, "KILL QUERY %lu", c->id);
  c->killed = 1;
  mc.mysql_query(k, kill);
  mc.mysql_close(k);
}

/* A valid calendar date y-m-d (PyMySQL makes a date of it, else text). */
static int valid_date(int y, int m, int d) {
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return 0;
  return !(m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
}

/* Types a field's value: see the file's comment. */
static void type_cell(const MYSQL_FIELD *f, const char *v, size_t n, srv_cell *x) {
  x->p = v;
  x->n = n;
  int y, mo, d, h, mi, s;
  char buf[64];
  size_t m = n < sizeof buf - 1 ? n : sizeof buf - 1;
  memcpy(buf, v, m);
  buf[m] = '\0';
  switch (f->type) {
  case MYSQL_TYPE_TINY: case MYSQL_TYPE_SHORT: case MYSQL_TYPE_LONG: case MYSQL_TYPE_INT24:
  case MYSQL_TYPE_LONGLONG: case MYSQL_TYPE_YEAR: {
    char *end;
    errno = 0;
    long long i = strtoll(buf, &end, 10);
    if (errno || *end) x->type = SRV_DECIMAL; /* an unsigned BIGINT past int64: its digits */
    else {
      x->type = SRV_INT;
      x->i = i;
    }
    break;
  }
  case MYSQL_TYPE_DECIMAL: case MYSQL_TYPE_NEWDECIMAL: x->type = SRV_DECIMAL; break;
  case MYSQL_TYPE_FLOAT: case MYSQL_TYPE_DOUBLE: x->type = SRV_REAL; x->x = strtod(buf, NULL); break;
  case MYSQL_TYPE_DATE: case MYSQL_TYPE_NEWDATE:
    x->type = sscanf(buf, "%4d-%2d-%2d", &y, &mo, &d) == 3 && valid_date(y, mo, d) ? SRV_DATE : SRV_TEXT;
    break;
  case MYSQL_TYPE_DATETIME: case MYSQL_TYPE_TIMESTAMP:
    if (sscanf(buf, "%4d-%2d-%2d %2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s) == 6 && valid_date(y, mo, d) && h < 24 &&
        mi < 60 && s < 60)
      x->type = SRV_TIMESTAMP;
    else x->type = SRV_TEXT;
    break;
  case MYSQL_TYPE_TIME: { /* [-]HHH:MM:SS[.ffffff]: a timedelta */
    const char *q = buf;
    int neg = *q == '-';
    if (neg) q++;
    double sec = 0;
    if (sscanf(q, "%d:%d:%lf", &h, &mi, &sec) == 3 && mi < 60 && sec < 60) {
      x->type = SRV_DURATION;
      x->i = (neg ? -1 : 1) * ((long long)h * 3600000000LL + mi * 60000000LL + (long long)(sec * 1e6 + 0.5));
    } else {
      x->type = SRV_TEXT;
    }
    break;
  }
  case MYSQL_TYPE_BIT: case MYSQL_TYPE_GEOMETRY: x->type = SRV_BLOB; break;
  case MYSQL_TYPE_NULL: x->type = SRV_NULL; break;
  default: x->type = f->charsetnr == 63 ? SRV_BLOB : SRV_TEXT;
  }
}

/* What a failed statement says. */
static int failure(srv_conn *c, char *why, size_t wn) {
  unsigned e = mc.mysql_errno(c->my);
  message(c->my, why, wn);
  if (e == CR_SERVER_GONE_ERROR || e == CR_SERVER_LOST || e == CR_SERVER_LOST_EXTENDED) return SRV_LOST;
  if (e == 1969 /* MariaDB ER_STATEMENT_TIMEOUT */ || e == 3024 /* MySQL ER_QUERY_TIMEOUT */ ||
      e == ER_QUERY_INTERRUPTED)
    return SRV_TIMEOUT;
  if (e == 1792 /* ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION */ || e == ER_TABLEACCESS_DENIED_ERROR ||
      e == ER_DBACCESS_DENIED_ERROR || e == ER_SPECIFIC_ACCESS_DENIED_ERROR || e == ER_COLUMNACCESS_DENIED_ERROR) {
    char m[420];
    snprintf(m, sizeof m, "refused: %s", why);
    snprintf(why, wn, "%s", m);
    return SRV_REFUSED;
  }
  return SRV_ERROR;
}

static int my_query(srv_conn *c, const char *sql, srv_row_fn row, void *ctx, char *why, size_t wn) {
  c->killed = 0;
  if (mc.mysql_real_query(c->my, sql, strlen(sql))) return failure(c, why, wn);
  MYSQL_RES *res = mc.mysql_use_result(c->my);
  if (!res) {
    if (mc.mysql_errno(c->my)) return failure(c, why, wn);
    return row(ctx, NULL, 0) ? SRV_STOPPED : SRV_OK; /* no result set */
  }
  int nc = (int)mc.mysql_num_fields(res);
  MYSQL_FIELD *fields = mc.mysql_fetch_fields(res);
  srv_cell *cells = calloc((size_t)(nc ? nc : 1), sizeof *cells);
  int status = SRV_OK;
  if (!cells || row(ctx, NULL, nc)) status = SRV_STOPPED;
  MYSQL_ROW r;
  while (status == SRV_OK && (r = mc.mysql_fetch_row(res))) {
    unsigned long *len = mc.mysql_fetch_lengths(res);
    for (int k = 0; k < nc; k++) {
      memset(&cells[k], 0, sizeof cells[k]);
      if (r[k]) type_cell(&fields[k], r[k], len[k], &cells[k]);
    }
    if (row(ctx, cells, nc)) status = SRV_STOPPED;
  }
  if (status == SRV_OK && mc.mysql_errno(c->my)) status = failure(c, why, wn);
  if (status == SRV_STOPPED) my_cancel(c); /* else freeing the result reads every row left */
  mc.mysql_free_result(res);
  free(cells);
  if (status == SRV_STOPPED && mc.mysql_errno(c->my) &&
      (mc.mysql_errno(c->my) == CR_SERVER_LOST || mc.mysql_errno(c->my) == CR_SERVER_GONE_ERROR))
    status = SRV_LOST;
  return status;
}

static int my_own(srv_conn *c, const char *sql, char *why, size_t wn) {
  int rc = 0;
  if (mc.mysql_set_server_option(c->my, MYSQL_OPTION_MULTI_STATEMENTS_ON)) {
    message(c->my, why, wn);
    return -1;
  }
  if (mc.mysql_real_query(c->my, sql, strlen(sql))) {
    message(c->my, why, wn);
    rc = -1;
  }
  /* every statement's result, so the session is ready for the next */
  for (int more = 0; !rc; more = 1) {
    if (more) {
      int n = mc.mysql_next_result(c->my);
      if (n > 0 && !rc) {
        message(c->my, why, wn);
        rc = -1;
      }
      if (n != 0) break;
    }
    MYSQL_RES *res = mc.mysql_store_result(c->my);
    if (res) mc.mysql_free_result(res);
    if (!mc.mysql_more_results(c->my)) break;
  }
  if (mc.mysql_set_server_option(c->my, MYSQL_OPTION_MULTI_STATEMENTS_OFF) && !rc) {
    message(c->my, why, wn);
    rc = -1;
  }
  return rc;
}

static void my_quote(srv_conn *c, strbuf *sb, const char *text, size_t n) {
  char *q = malloc(2 * n + 1);
  if (!q) return;
  unsigned long m = mc.mysql_real_escape_string(c->my, q, text, (unsigned long)n);
  sb_putc(sb, '\'');
  sb_putn(sb, q, m);
  sb_putc(sb, '\'');
  free(q);
}

/* ---------------------------------------------------------------- the session's sql_mode */

typedef struct first_text {
  char *out;
  size_t n;
  int got;
} first_text;

static int take_first(void *ctx, const srv_cell *cells, int nc) {
  first_text *f = ctx;
  if (cells && nc > 0 && !f->got) {
    snprintf(f->out, f->n, "%.*s", (int)(cells[0].n < f->n ? cells[0].n : f->n - 1), cells[0].p ? cells[0].p : "");
    f->got = 1;
  }
  return 0;
}

/* The server's reading of || and "x": its session's sql_mode. */
static unsigned my_parse_options(const srv_url *url) {
  srv_url u;
  if (srv_url_copy(&u, url)) return 0;
  sqlsim_error e = {0};
  u.admin = u.dbname && strstr(url->text, "{db_id}") != NULL; /* no database of a db_id: the server's own session */
  srv_conn *c = my_connect(&u, 10, 0, 0, &e);
  unsigned opts = 0;
  if (c) {
    char mode[512], why[200];
    first_text f = {mode, sizeof mode, 0};
    if (my_query(c, "SELECT @@SESSION.sql_mode", take_first, &f, why, sizeof why) == SRV_OK && f.got) {
      if (strstr(mode, "PIPES_AS_CONCAT") || strstr(mode, "ANSI")) opts |= SQLSIM_PARSE_PIPES_AS_CONCAT;
      if (strstr(mode, "ANSI_QUOTES") || strstr(mode, "ANSI")) opts |= SQLSIM_PARSE_ANSI_QUOTES;
    }
    my_close(c);
  }
  srv_url_clear(&u);
  return opts;
}

/* ---------------------------------------------------------------- loading */

#define INSERT_BATCH (1 << 20) /* bytes of one INSERT */

static int my_rows_begin(srv_conn *c, const char *table, const char *columns, int ncols, char *why, size_t wn) {
  (void)ncols, (void)why, (void)wn;
  strbuf h = {0};
  sb_printf(&h, "INSERT INTO %s (%s) VALUES ", table, columns);
  free((char *)c->head);
  c->head = sb_take(&h);
  c->rows.len = 0;
  c->inbatch = 0;
  return c->head ? 0 : -1;
}

static int my_rows_put(srv_conn *c, const srv_cell *cells, int ncols, char *why, size_t wn) {
  if (!c->inbatch) sb_puts(&c->rows, c->head);
  else sb_putc(&c->rows, ',');
  sb_putc(&c->rows, '(');
  for (int k = 0; k < ncols; k++) {
    const srv_cell *x = &cells[k];
    if (k) sb_putc(&c->rows, ',');
    if (x->type == SRV_NULL) {
      sb_puts(&c->rows, "NULL");
    } else if (x->type == SRV_BLOB) {
      sb_puts(&c->rows, "X'");
      for (size_t i = 0; i < x->n; i++) sb_printf(&c->rows, "%02x", (unsigned char)x->p[i]);
      sb_putc(&c->rows, '\'');
    } else if (x->type == SRV_INT) {
      sb_printf(&c->rows, "%lld", x->i);
    } else if (x->type == SRV_REAL) {
      sb_printf(&c->rows, "%.17g", x->x);
    } else {
      my_quote(c, &c->rows, x->p, x->n);
    }
  }
  sb_putc(&c->rows, ')');
  c->inbatch++;
  if (c->rows.len < INSERT_BATCH) return 0;
  int rc = my_own(c, c->rows.buf, why, wn);
  c->rows.len = 0;
  c->inbatch = 0;
  return rc;
}

static int my_rows_end(srv_conn *c, int ok, char *why, size_t wn) {
  int rc = ok && c->inbatch ? my_own(c, c->rows.buf, why, wn) : 0;
  c->rows.len = 0;
  c->inbatch = 0;
  return ok ? rc : -1;
}

static int count_row(void *ctx, const srv_cell *cells, int nc) {
  (void)nc;
  if (cells) ++*(int *)ctx;
  return 0;
}

static int my_table_exists(srv_conn *c, const char *kept, char *why, size_t wn) {
  strbuf sb = {0};
  sb_puts(&sb, "SELECT 1 FROM information_schema.tables WHERE table_schema = DATABASE() AND lower(table_name) = lower(");
  my_quote(c, &sb, kept, strlen(kept));
  sb_putc(&sb, ')');
  int rows = 0, st = my_query(c, sb.buf, count_row, &rows, why, wn);
  free(sb.buf);
  return st == SRV_OK ? rows > 0 : -1;
}

static int my_create_db(const srv_url *u, char *why, size_t wn) {
  srv_url admin;
  if (srv_url_copy(&admin, u)) return snprintf(why, wn, "out of memory"), -1;
  admin.admin = 1; /* no database: the server's own session */
  sqlsim_error e = {0};
  srv_conn *c = my_connect(&admin, 3600, 0, 1, &e);
  srv_url_clear(&admin);
  if (!c) return snprintf(why, wn, "%s", e.message), -1;
  strbuf sb = {0};
  sb_puts(&sb, "CREATE DATABASE ");
  my_put_name(&sb, u->dbname);
  sb_puts(&sb, " CHARACTER SET utf8mb4");
  int rc = my_own(c, sb.buf, why, wn);
  free(sb.buf);
  my_close(c);
  return rc;
}

/* Types: an index key holds 3072 bytes (768 utf8mb4 characters); a keyed
 * column gets a bounded type. */
static const char *my_column_type(int type, size_t maxlen, int keyed, char *buf, size_t n) {
  switch (type) {
  case LOAD_INT: return "BIGINT";
  case LOAD_REAL: return "DOUBLE";
  case LOAD_DATE: return "DATE";
  case LOAD_STAMP: return "DATETIME(6)";
  case LOAD_BLOB:
    if (keyed && maxlen <= 3072) {
      snprintf(buf, n, "VARBINARY(%zu)", maxlen ? maxlen : 1);
      return buf;
    }
    return "LONGBLOB";
  default:
    if (keyed && maxlen <= 768) {
      snprintf(buf, n, "VARCHAR(%zu)", maxlen ? maxlen : 1);
      return buf;
    }
    return "LONGTEXT";
  }
}

static const char *my_declared_type(const char *declared) {
  if (strcasestr(declared, "int") || strcasestr(declared, "bool")) return "BIGINT";
  if (strcasestr(declared, "datetime") || strcasestr(declared, "timestamp")) return "DATETIME";
  if (strcasestr(declared, "date")) return "DATE";
  if (strcasestr(declared, "time")) return "VARCHAR(255)";
  if (strcasestr(declared, "real") || strcasestr(declared, "float") || strcasestr(declared, "double") ||
      strcasestr(declared, "num") || strcasestr(declared, "dec"))
    return "DOUBLE";
  if (strcasestr(declared, "blob")) return "LONGBLOB";
  return "VARCHAR(255)";
}

static void my_put_blob(strbuf *sb, const unsigned char *p, size_t n) {
  sb_puts(sb, "X'");
  for (size_t i = 0; i < n; i++) sb_printf(sb, "%02x", p[i]);
  sb_putc(sb, '\'');
}

static void my_columns_sql(srv_conn *c, strbuf *sb, const char *name) {
  sb_puts(sb, "SELECT CONCAT('`', REPLACE(COLUMN_NAME, '`', '``'), '` ', COLUMN_TYPE) FROM "
              "information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ");
  my_quote(c, sb, name, strlen(name));
  sb_puts(sb, " ORDER BY ORDINAL_POSITION");
}

/* ---------------------------------------------------------------- the entry */

/* Functions that read files, take locks that outlive the statement, wait
 * on other sessions or run programs. */
static const char *const my_denied[] = {
    "load_file", "get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock",
    "master_pos_wait", "master_gtid_wait", "source_pos_wait", "sys_exec", "sys_eval", "lo_import",
    "sleep_until", "wait_for_executed_gtid_set", NULL};
static const char *const my_first[] = {"select", "with", "values", "table", NULL};
static const char *const my_schemes[] = {"mysql", "mariadb", NULL};
static const char *const my_params[] = {"socket", NULL};

const exec_engine exec_mysql = {
    .name = "MySQL",
    .id = SQLSIM_ENGINE_MYSQL,
    .schemes = my_schemes,
    .url_form = EXEC_URL_SERVER,
    .params = my_params,
    .password_env = "MYSQL_PWD",
    .dialect = SQLSIM_DIALECT_MYSQL,
    .install = "on Debian: apt install libmariadb3",
    .usage = "mysql://[user[:password]@][host][:port]/DB[?socket=PATH] (MySQL or MariaDB)",
    .lexis = SRV_LEX_MYSQL,
    .first = my_first,
    .denied = my_denied,
    .put_name = my_put_name,
    .put_blob = my_put_blob,
    .column_type = my_column_type,
    .declared_type = my_declared_type,
    .key_text_max = 768,
    .key_blob_max = 3072,
    .connect = my_connect,
    .close = my_close,
    .query = my_query,
    .cancel = my_cancel,
    .own = my_own,
    .quote = my_quote,
    .parse_options = my_parse_options,
    .create_db = my_create_db,
    .table_exists = my_table_exists,
    .table_options = " CHARACTER SET utf8mb4",
    .drop_options = "",
    .begin = "START TRANSACTION",
    .analyze = "ANALYZE TABLE ",
    .keys_after = 1,
    .foreign_keys_after = 1,
    .rows_begin = my_rows_begin,
    .rows_put = my_rows_put,
    .rows_end = my_rows_end,
    .temp_like = "CREATE TEMPORARY TABLE %s LIKE %s",
    .temp_create = "CREATE TEMPORARY TABLE",
    .write_begin = "START TRANSACTION READ WRITE;\n",
    .columns_sql = my_columns_sql,
};
