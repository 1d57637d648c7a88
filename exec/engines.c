/* engines.c -- the engine table (server.h): every engine sqlsim runs SQL
 * on, and the parse of a target into the entry it names.
 *
 * Each engine's entry is defined in its own file (pg.c, mysql.c,
 * duckdb.c); SQLite's is here: its connection is the sandbox's (exec.c),
 * so it has no client, only its name, dialect and names. */
#include "server.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const exec_engine *const exec_engines[] = {&exec_sqlite, &exec_postgres, &exec_mysql, &exec_duckdb, NULL};

/* SQLite's type for a declared one: its own affinity rules read the text. */
static const char *sqlite_declared(const char *declared) { return declared; }

const exec_engine exec_sqlite = {
    .name = "SQLite",
    .id = SQLSIM_ENGINE_SQLITE,
    .url_form = EXEC_URL_NONE,
    .dialect = SQLSIM_DIALECT_SQLITE,
    .put_name = srv_put_name_quoted,
    .declared_type = sqlite_declared,
};

/* "postgresql://, mysql:// or duckdb://": every client engine's first
 * scheme, for messages. */
static char urls[200];
static void urls_text(void) {
  strbuf sb = {0};
  int n = 0, total = 0;
  for (int i = 0; exec_engines[i]; i++) total += exec_engines[i]->schemes != NULL;
  for (int i = 0; exec_engines[i]; i++) {
    if (!exec_engines[i]->schemes) continue;
    sb_printf(&sb, "%s%s://", n == 0 ? "" : n == total - 1 ? " or " : ", ", exec_engines[i]->schemes[0]);
    n++;
  }
  snprintf(urls, sizeof urls, "%s", sb.buf ? sb.buf : "");
  free(sb.buf);
}

/* Each client engine: its name, its URL's form, its dialect; made once. */
static char *text_help;
static void engines_help(void) {
  strbuf sb = {0};
  for (int i = 0; exec_engines[i]; i++) {
    const exec_engine *e = exec_engines[i];
    if (!e->connect) continue;
    sb_printf(&sb, "  %-11s %s\n  %-11s SQL read as %s's by default; {db_id} names a database per db_id\n", e->name,
              e->usage, "", sqlsim_dialect_name(e->dialect));
  }
  text_help = sb_take(&sb);
}

/* The length of t's scheme when it is one of e's ("scheme://"), else 0. */
static size_t scheme_of(const exec_engine *e, const char *t) {
  for (int k = 0; e->schemes && e->schemes[k]; k++) {
    size_t n = strlen(e->schemes[k]);
    if (!strncasecmp(t, e->schemes[k], n) && !strncmp(t + n, "://", 3)) return n;
  }
  return 0;
}

const exec_engine *exec_engine_for(const char *target) {
  for (int i = 0; target && exec_engines[i]; i++)
    if (scheme_of(exec_engines[i], target)) return exec_engines[i];
  return &exec_sqlite;
}

const char *sqlsim_engine_urls(void) { return exec_engine_urls(); }

const char *sqlsim_engines_help(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, engines_help);
  return text_help ? text_help : "";
}

const char *exec_engine_urls(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, urls_text);
  return urls;
}

int exec_target_parse(const char *target, exec_target *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  if (!target) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "no target given");
  out->engine = exec_engine_for(target);
  out->per_db = strstr(target, "{db_id}") != NULL;
  if (out->engine == &exec_sqlite) {
    out->url.engine = out->engine;
    out->url.text = strdup(target);
    return out->url.text ? 0 : sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  /* its parts with {db_id} kept: bound to a db_id without reading the URL again */
  return srv_url_read(target, &out->url, err);
}

void exec_target_clear(exec_target *t) {
  srv_url_clear(&t->url);
  memset(t, 0, sizeof *t);
}
