/* url.c -- a database's URL on an engine: the entry its scheme names, its
 * parts decoded once with {db_id} kept, bound to each db_id by copying
 * them, its password found (URL, password_file, environment) and never
 * printed.
 *
 *   postgresql://[user[:password]@][host][:port]/[dbname][?param=value&...]
 *   mysql://[user[:password]@][host][:port]/[dbname][?socket=PATH&...]
 *   scheme://PATH                   (a file engine: PATH is everything after "://")
 *
 * {db_id} anywhere in the URL is replaced by the item's db_id (percent-encoded
 * where a URL needs it), so one URL names one database per db_id; a URL
 * without it is one database holding every db_id's tables. PostgreSQL's
 * parameters are libpq's (host=/run/postgresql for a socket directory, and
 * the rest); MySQL's are socket and password_file; password_file is read by
 * sqlsim for both. A file engine's path takes {db_id} as it is (a db_id is
 * a plain name: sqlsim_check_db_id). */
#include "server.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static int in_words(const char *const *words, const char *w) {
  for (int i = 0; words[i]; i++)
    if (!strcmp(words[i], w)) return 1;
  return 0;
}

/* Reads the query parameters of q (after '?'): password_file and the
 * engine's own (socket) are taken out; for an engine whose client reads
 * parameters (libpq) the rest stay in text, for another any other is an
 * error. */
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
    } else if (u->engine->params && in_words(u->engine->params, name)) { /* socket */
      free(u->socket);
      u->socket = val;
    } else if (u->engine->params) {
      char m[200];
      snprintf(m, sizeof m, "unknown parameter '%.60s' (a %s URL takes %s and password_file)", name, u->engine->name,
               u->engine->params[0]);
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

/* A file engine's URL (scheme://PATH): the path is everything after "://". */
static int parse_file_url(const char *url, srv_url *out, sqlsim_error *err) {
  const char *p = strstr(url, "://") + 3;
  if (!*p) return bad(out, err, "give the database file's path after '://'");
  out->dbname = strdup(p);
  out->text = strdup(url);
  if (!out->dbname || !out->text) {
    srv_url_clear(out);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  return 0;
}

int srv_url_read(const char *url, srv_url *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  out->engine = exec_engine_for(url);
  if (out->engine->url_form == EXEC_URL_NONE)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "engine URL: give %s... (a SQLite database is a file path)",
                            exec_engine_urls());
  if (out->engine->url_form == EXEC_URL_FILE) return parse_file_url(url, out, err);
  const char *p = strstr(url, "://") + 3;
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
  sb_putn(&kept, url, (size_t)(rest - url));
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
  } else if (!out->password && out->engine->password_env && getenv(out->engine->password_env)) {
    out->password = strdup(getenv(out->engine->password_env));
  }
  out->text = sb_take(&kept);
done:
  if (rc) free(kept.buf);
  free(pwfile);
  return rc;
}

/* s with {db_id} replaced by db_id (percent-encoded when encode), malloc'd;
 * NULL stays NULL (*oom set when a copy cannot be made). */
static char *bind_field(const char *s, const char *db_id, int encode, int *oom) {
  if (!s) return NULL;
  char *x;
  if (!strstr(s, "{db_id}")) {
    x = strdup(s);
  } else if (encode) {
    x = expand(s, db_id);
  } else {
    strbuf sb = {0};
    for (const char *p = s; *p;) {
      if (!strncmp(p, "{db_id}", 7)) sb_puts(&sb, db_id), p += 7;
      else sb_putc(&sb, *p++);
    }
    x = sb_take(&sb);
  }
  if (!x) *oom = 1;
  return x;
}

int srv_url_bind(const exec_target *t, const char *db_id, srv_url *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  if (t->per_db) {
    if (!db_id)
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "engine URL: it names a database per db_id ({db_id}) and the item has none");
    if (sqlsim_check_db_id(db_id, err)) return SQLSIM_EFORMAT;
  }
  if (!db_id) db_id = "";
  const srv_url *u = &t->url;
  int oom = 0, file = t->engine->url_form == EXEC_URL_FILE;
  out->engine = u->engine;
  out->port = u->port;
  out->admin = u->admin;
  out->text = bind_field(u->text, db_id, !file, &oom);
  out->user = bind_field(u->user, db_id, 0, &oom);
  out->password = bind_field(u->password, db_id, 0, &oom);
  out->host = bind_field(u->host, db_id, 0, &oom);
  out->socket = bind_field(u->socket, db_id, 0, &oom);
  out->dbname = bind_field(u->dbname, db_id, 0, &oom);
  if (oom) {
    srv_url_clear(out);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  return 0;
}

int srv_url_copy(srv_url *to, const srv_url *u) {
  exec_target t = {.engine = u->engine, .url = *u};
  return srv_url_bind(&t, NULL, to, NULL) ? -1 : 0;
}

int srv_url_parse(const char *url, const char *db_id, srv_url *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  exec_target t;
  int rc = exec_target_parse(url, &t, err);
  if (rc) return rc;
  if (t.engine->url_form == EXEC_URL_NONE) {
    exec_target_clear(&t);
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "engine URL: give %s... (a SQLite database is a file path)",
                            exec_engine_urls());
  }
  rc = srv_url_bind(&t, db_id, out, err);
  exec_target_clear(&t);
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
