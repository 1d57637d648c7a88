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
                          "MySQL: its client library cannot be loaded (on Debian: apt install libmariadb3): %s",
                          my_error);
}

struct srv_conn {
  MYSQL *my;
  srv_url url;        /* for the cancelling connection */
  unsigned long id;   /* the session's thread id, for KILL QUERY */
  int mariadb;
  double timeout;
  volatile int killed;
};

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

static void copy_url(srv_url *to, const srv_url *u) {
  memset(to, 0, sizeof *to);
  to->kind = u->kind;
  to->port = u->port;
#define DUP(f) to->f = u->f ? strdup(u->f) : NULL
  DUP(text);
  DUP(user);
  DUP(password);
  DUP(host);
  DUP(socket);
  DUP(dbname);
#undef DUP
}

static srv_conn *my_connect(const srv_url *u, double timeout_s, int writable, sqlsim_error *err) {
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
  copy_url(&c->url, u);
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

const srv_backend srv_mysql = {"MySQL", my_connect, my_close, my_query, my_cancel, my_own, my_quote, NULL, NULL, NULL};
