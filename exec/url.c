/* url.c -- a server database's URL: its kind, {db_id} replaced, its parts
 * decoded, its password found (URL, password_file, environment) and never
 * printed.
 *
 *   postgresql://[user[:password]@][host][:port]/[dbname][?param=value&...]
 *   mysql://[user[:password]@][host][:port]/[dbname][?socket=PATH&...]
 *
 * {db_id} anywhere in the URL is replaced by the item's db_id (percent-encoded
 * where a URL needs it), so one URL names one database per db_id; a URL
 * without it is one database holding every db_id's tables. PostgreSQL's
 * parameters are libpq's (host=/run/postgresql for a socket directory, and
 * the rest); MySQL's are socket and password_file; password_file is read by
 * sqlsim for both. */
#include "server.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int srv_url_kind(const char *url) {
  if (!url) return 0;
  if (!strncasecmp(url, "postgresql://", 13) || !strncasecmp(url, "postgres://", 11)) return SRV_POSTGRES;
  if (!strncasecmp(url, "mysql://", 8) || !strncasecmp(url, "mariadb://", 10)) return SRV_MYSQL;
  return 0;
}

/* url with {db_id} replaced by the percent-encoded db_id (malloc'd). */
static char *expand(const char *url, const char *db_id);

char *srv_url_expand(const char *url, const char *db_id, sqlsim_error *err) {
  if (strstr(url, "{db_id}")) {
    if (!db_id) {
      sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "the engine URL names a database per db_id ({db_id}) and the item has none");
      return NULL;
    }
    if (sqlsim_check_db_id(db_id, err)) return NULL;
  }
  char *x = expand(url, db_id ? db_id : "");
  if (!x) sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  return x;
}

static char *expand(const char *url, const char *db_id) {
  strbuf sb = {0};
  for (const char *p = url; *p;) {
    if (!strncmp(p, "{db_id}", 7)) {
      for (const unsigned char *q = (const unsigned char *)db_id; *q; q++) {
        if (isalnum(*q) || strchr("_.-~", *q)) sb_putc(&sb, (char)*q);
        else sb_printf(&sb, "%%%02X", *q);
      }
      p += 7;
    } else {
      sb_putc(&sb, *p++);
    }
  }
  return sb_take(&sb);
}

static int hexval(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* p[0..n) percent-decoded (malloc'd), or NULL when an escape is malformed or
 * decodes to a NUL byte. */
static char *decode(const char *p, size_t n) {
  char *o = malloc(n + 1);
  if (!o) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '%') {
      int a = i + 2 < n ? hexval(p[i + 1]) : -1;
      int b = a >= 0 ? hexval(p[i + 2]) : -1;
      if (a < 0 || b < 0 || (a == 0 && b == 0)) {
        free(o);
        return NULL;
      }
      o[k++] = (char)(a * 16 + b);
      i += 2;
    } else {
      o[k++] = p[i];
    }
  }
  o[k] = '\0';
  return o;
}

/* The first line of a password file (malloc'd), or NULL with err set. */
static char *read_password_file(const char *path, sqlsim_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    sqlsim_error_set(err, SQLSIM_EIO, -1, "password_file %.200s: cannot be read", path);
    return NULL;
  }
  char line[1024];
  if (!fgets(line, sizeof line, f)) line[0] = '\0';
  fclose(f);
  line[strcspn(line, "\r\n")] = '\0';
  return strdup(line);
}

void srv_url_clear(srv_url *u) {
  free(u->text);
  if (u->password) memset(u->password, 0, strlen(u->password));
  free(u->password);
  free(u->user);
  free(u->host);
  free(u->socket);
  free(u->dbname);
  memset(u, 0, sizeof *u);
}

static int bad(srv_url *u, sqlsim_error *err, const char *what) {
  srv_url_clear(u);
  return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "engine URL: %s", what);
}

/* Reads the query parameters of q (after '?'): socket and password_file are
 * taken out; for PostgreSQL the rest stay in text for libpq, for MySQL any
 * other is an error. */
static int read_params(srv_url *u, const char *q, strbuf *kept, char **pwfile, sqlsim_error *err) {
  int nkept = 0;
  while (*q) {
    size_t n = strcspn(q, "&");
    const char *eq = memchr(q, '=', n);
    if (!eq) return bad(u, err, "a parameter without '=' (write name=value)");
    char *name = decode(q, (size_t)(eq - q)), *val = decode(eq + 1, n - (size_t)(eq + 1 - q));
    if (!name || !val) {
      free(name);
      free(val);
      return bad(u, err, "a malformed %-escape in a parameter");
    }
    if (!strcmp(name, "password_file")) {
      free(*pwfile);
      *pwfile = val;
    } else if (u->kind == SRV_MYSQL && !strcmp(name, "socket")) {
      free(u->socket);
      u->socket = val;
    } else if (u->kind == SRV_MYSQL) {
      char m[160];
      snprintf(m, sizeof m, "unknown parameter '%.60s' (a MySQL URL takes socket and password_file)", name);
      free(name);
      free(val);
      return bad(u, err, m);
    } else {
      if (!strcmp(name, "host")) {
        free(u->host);
        u->host = strdup(val);
      }
      sb_puts(kept, nkept++ ? "&" : "?");
      sb_putn(kept, q, n);
      free(val);
    }
    free(name);
    q += n;
    if (*q == '&') q++;
  }
  return 0;
}

int srv_url_parse(const char *url, const char *db_id, srv_url *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  out->kind = srv_url_kind(url);
  if (!out->kind)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                            "engine URL: give postgresql://... or mysql://... (a SQLite database is a file path)");
  if (strstr(url, "{db_id}")) {
    if (!db_id) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "engine URL: it names a database per db_id ({db_id}) and the item has none");
    if (sqlsim_check_db_id(db_id, err)) return SQLSIM_EFORMAT;
  }
  char *x = expand(url, db_id ? db_id : "");
  if (!x) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  const char *p = strstr(x, "://") + 3;
  size_t auth_n = strcspn(p, "/?#");
  const char *at = NULL;
  for (size_t i = 0; i < auth_n; i++)
    if (p[i] == '@') at = p + i;
  int rc = 0;
  char *pwfile = NULL;
  strbuf kept = {0};
  if (at) { /* user[:password]@ */
    const char *colon = memchr(p, ':', (size_t)(at - p));
    out->user = decode(p, (size_t)((colon ? colon : at) - p));
    if (colon) out->password = decode(colon + 1, (size_t)(at - colon - 1));
    if (!out->user || (colon && !out->password)) {
      rc = bad(out, err, "a malformed %-escape in the user or password");
      goto done;
    }
  }
  const char *h = at ? at + 1 : p, *hend = p + auth_n;
  if (h < hend) { /* host[:port]; [v6] */
    const char *colon = NULL;
    if (*h == '[') {
      const char *rb = memchr(h, ']', (size_t)(hend - h));
      if (!rb) {
        rc = bad(out, err, "an IPv6 host without its ']'");
        goto done;
      }
      out->host = decode(h + 1, (size_t)(rb - h - 1));
      colon = rb + 1 < hend && rb[1] == ':' ? rb + 1 : NULL;
    } else {
      colon = memchr(h, ':', (size_t)(hend - h));
      out->host = decode(h, (size_t)((colon ? colon : hend) - h));
    }
    if (!out->host) {
      rc = bad(out, err, "a malformed %-escape in the host");
      goto done;
    }
    if (colon) {
      char *end;
      long port = strtol(colon + 1, &end, 10);
      if (end != hend || port <= 0 || port > 65535) {
        rc = bad(out, err, "the port is not a number from 1 to 65535");
        goto done;
      }
      out->port = (int)port;
    }
    if (!*out->host) {
      free(out->host);
      out->host = NULL;
    }
  }
  const char *rest = hend;
  if (*rest == '/') {
    size_t n = strcspn(rest + 1, "?#");
    if (n) {
      out->dbname = decode(rest + 1, n);
      if (!out->dbname) {
        rc = bad(out, err, "a malformed %-escape in the database name");
        goto done;
      }
    }
    rest += 1 + n;
  }
  if (*rest == '#') {
    rc = bad(out, err, "a '#' fragment means nothing here");
    goto done;
  }
  sb_putn(&kept, x, (size_t)(rest - x));
  if (*rest == '?' && (rc = read_params(out, rest + 1, &kept, &pwfile, err))) goto done;
  if (pwfile) {
    char *pw = read_password_file(pwfile, err);
    if (!pw) {
      srv_url_clear(out);
      rc = SQLSIM_EIO;
      goto done;
    }
    free(out->password);
    out->password = pw;
  } else if (!out->password && out->kind == SRV_MYSQL && getenv("MYSQL_PWD")) {
    out->password = strdup(getenv("MYSQL_PWD"));
  }
  out->text = sb_take(&kept);
done:
  if (rc) free(kept.buf);
  free(pwfile);
  free(x);
  return rc;
}

char *srv_url_redact(const char *url) {
  strbuf sb = {0};
  const char *p = strstr(url, "://");
  if (!p) return strdup(url);
  p += 3;
  size_t auth_n = strcspn(p, "/?#");
  const char *at = NULL;
  for (size_t i = 0; i < auth_n; i++)
    if (p[i] == '@') at = p + i;
  const char *colon = at ? memchr(p, ':', (size_t)(at - p)) : NULL;
  if (colon) {
    sb_putn(&sb, url, (size_t)(colon + 1 - url));
    sb_puts(&sb, "***");
    p = at;
  } else {
    sb_putn(&sb, url, (size_t)(p - url));
  }
  /* password=... in the parameters too */
  const char *q = strchr(p, '?');
  if (!q) {
    sb_puts(&sb, p);
    return sb_take(&sb);
  }
  sb_putn(&sb, p, (size_t)(q + 1 - p));
  q++;
  while (*q) {
    size_t n = strcspn(q, "&");
    if (n >= 9 && !strncasecmp(q, "password=", 9)) sb_puts(&sb, "password=***");
    else sb_putn(&sb, q, n);
    q += n;
    if (*q == '&') sb_putc(&sb, *q++);
  }
  return sb_take(&sb);
}
