/* input.c -- reading the files users hand to the CLI: lines and schemas. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_read_lines(const char *path, cli_lines *out) {
  memset(out, 0, sizeof *out);
  size_t len = 0;
  char *buf;
  sqlsim_error err = {0};
  if (core_file_read(path, &buf, &len, &err)) return error("%s", err.message);
  int cap = 1024, n = 0;
  cli_line *lines = malloc(sizeof *lines * (size_t)cap);
  size_t i = 0;
  int lineno = 0;
  while (i < len) {
    size_t j = i;
    while (j < len && buf[j] != '\n') j++;
    size_t end = j;
    if (end > i && buf[end - 1] == '\r') end--;
    buf[end] = '\0';
    if (n == cap) lines = realloc(lines, sizeof *lines * (size_t)(cap *= 2));
    lines[n].text = buf + i;
    lines[n].len = (int)(end - i);
    lines[n].lineno = ++lineno;
    n++;
    i = j + 1;
  }
  out->buf = buf;
  out->lines = lines;
  out->n = n;
  return 0;
}

void cli_lines_free(cli_lines *l) {
  free(l->buf);
  free(l->lines);
  memset(l, 0, sizeof *l);
}

int cli_schema_opt(cli_schema_opts *o, const char *name, const char *v) {
  if (!strcmp(name, "tables")) o->tables = v;
  else if (!strcmp(name, "db")) o->db = v;
  else if (!strcmp(name, "sqlite")) o->sqlite = v;
  else return 0;
  return 1;
}

int cli_schema_load(cli_schema_opts *o) {
  sqlsim_error err = {0};
  if (o->tables && o->sqlite) return error("give --tables or --sqlite, not both");
  if (o->tables) {
    if (sqlsim_catalog_load_tables_json(o->tables, &o->catalog, &err))
      return error("%s", err.message);
    if (o->db && !sqlsim_catalog_find(o->catalog, o->db))
      return error("%s: no database with db_id '%s'", o->tables, o->db);
  } else if (o->sqlite) {
    if (sqlsim_catalog_load_sqlite(o->sqlite, &o->catalog, &err)) return error("%s", err.message);
  } else if (o->db) {
    return error("--db needs --tables");
  }
  return 0;
}

const sqlsim_schema *cli_schema_for(cli_schema_opts *o, const char *db_id) {
  if (!o->catalog) return NULL;
  if (o->sqlite) return sqlsim_catalog_at(o->catalog, 0);
  if (db_id && *db_id) return sqlsim_catalog_find(o->catalog, db_id);
  if (o->db) return sqlsim_catalog_find(o->catalog, o->db);
  return sqlsim_catalog_count(o->catalog) == 1 ? sqlsim_catalog_at(o->catalog, 0) : NULL;
}

/* ---------------------------------------------------------------- option values */

int cli_double(const char *opt, const char *v, double lo, double hi, double *out) {
  char *end;
  errno = 0;
  double d = strtod(v, &end);
  if (!*v || *end || errno || !(d >= lo && d <= hi)) /* also false for NaN */
    return error("%s needs a number from %g to %g, not '%s'", opt, lo, hi, v), CLI_EUSAGE;
  *out = d;
  return 0;
}

int cli_int(const char *opt, const char *v, long lo, long hi, int *out) {
  char *end;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (!*v || *end || errno || n < lo || n > hi)
    return error("%s needs a whole number from %ld to %ld, not '%s'", opt, lo, hi, v), CLI_EUSAGE;
  *out = (int)n;
  return 0;
}

int cli_dir(const char *opt, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return error("%s %s: %s", opt, path, strerror(errno)), CLI_EUSAGE;
  if (!S_ISDIR(st.st_mode)) return error("%s %s: not a directory", opt, path), CLI_EUSAGE;
  return 0;
}

int cli_now(const char *opt, const char *v) {
  sqlsim_error err = {0};
  if (sqlsim_check_now(v, &err)) return error("%s: %s", opt, err.message), CLI_EUSAGE;
  return 0;
}

/* ---------------------------------------------------------------- evaluator options */

int cli_engine_opt(const char *cmd, cli_engine_opts *o, const char *name, const char *v) {
  sqlsim_config *cfg = &o->cfg;
  if (!strcmp(name, "metrics")) o->metrics = v;
  else if (!strcmp(name, "tables")) cfg->tables = v;
  else if (!strcmp(name, "db-dir")) {
    if (cli_dir("--db-dir", v)) return CLI_EUSAGE;
    cfg->db_dir = v;
  } else if (!strcmp(name, "sqlite")) cfg->sqlite = v;
  else if (!strcmp(name, "engine")) {
    if (sqlsim_engine_of(v) == SQLSIM_ENGINE_SQLITE)
      return error("%s: --engine takes a %s URL, not '%.60s' (SQLite: --db-dir or --sqlite)", cmd,
                   sqlsim_engine_urls(), v),
             CLI_EUSAGE;
    cfg->engine = v;
  } else if (!strcmp(name, "dialect")) {
    sqlsim_error e = {0};
    if (sqlsim_dialect_parse(v, &cfg->dialect, &e)) return error("%s: --dialect: %s", cmd, e.message), CLI_EUSAGE;
  } else if (!strcmp(name, "jobs")) {
    if (cli_int("-j", v, 1, 1024, &o->jobs)) return CLI_EUSAGE;
  } else if (!strcmp(name, "iterations")) {
    if (!strcmp(v, "auto")) o->iterations_auto = 1;
    else {
      if (cli_int("--iterations", v, 1, 1000000, &cfg->iterations)) return CLI_EUSAGE;
      o->iterations_auto = 0;
    }
  } else if (!strcmp(name, "auto-width")) {
    if (cli_double("--auto-width", v, 0.001, 10, &o->auto_width)) return CLI_EUSAGE;
  } else if (!strcmp(name, "connection")) {
    if (!strcmp(v, "fresh")) cfg->reuse_connection = 0;
    else if (!strcmp(v, "reuse")) cfg->reuse_connection = 1;
    else return error("%s: --connection must be fresh or reuse, not '%s'", cmd, v), CLI_EUSAGE;
  } else if (!strcmp(name, "noise-every")) {
    if (!strcmp(v, "never")) cfg->noise_every = -1;
    else if (cli_int("--noise-every", v, 1, 1000000, &cfg->noise_every)) return CLI_EUSAGE;
  } else if (!strcmp(name, "timeout")) {
    if (cli_double("--timeout", v, 0.001, CLI_MAX_TIMEOUT, &cfg->timeout_s)) return CLI_EUSAGE;
  } else if (!strcmp(name, "now")) {
    if (cli_now("--now", v)) return CLI_EUSAGE;
    cfg->now = v;
  } else if (!strcmp(name, "mode")) {
    if (!strcmp(v, "compatible")) cfg->mode = SQLSIM_SPIDER_COMPATIBLE;
    else if (!strcmp(v, "corrected")) cfg->mode = SQLSIM_SPIDER_CORRECTED;
    else return error("%s: --mode must be compatible or corrected, not '%s'", cmd, v), CLI_EUSAGE;
  } else if (!strcmp(name, "keep-distinct")) cfg->keep_distinct = 1;
  else if (!strcmp(name, "plug-value")) cfg->plug_value = 1;
  else if (!strcmp(name, "synth-databases")) {
    if (cli_int("--synth-databases", v, 1, 64, &cfg->synth_databases)) return CLI_EUSAGE;
  } else if (!strcmp(name, "witness")) cfg->witness = 1;
  else if (!strcmp(name, "assume-not-null")) cfg->assume_not_null = 1;
  else if (!strcmp(name, "no-solver")) cfg->no_solver = 1;
  else if (!strcmp(name, "reward-bound")) {
    if (cli_int("--reward-bound", v, 1, 6, &cfg->reward_bound)) return CLI_EUSAGE;
  }
  else if (!strcmp(name, "solver-budget")) {
    if (cli_double("--solver-budget", v, 0.001, CLI_MAX_TIMEOUT, &cfg->solver_budget)) return CLI_EUSAGE;
  } else if (!strcmp(name, "extract")) cfg->extract = 1;
  else return 0;
  return 1;
}

int cli_engine_metrics(const char *cmd, cli_engine_opts *o) {
  sqlsim_error err = {0};
  if (sqlsim_metrics_parse(o->metrics, &o->cfg.metrics, &err))
    return error("%s: --metrics: %s", cmd, err.message), CLI_EUSAGE;
  if (o->auto_width > 0 && !o->iterations_auto)
    return error("%s: --auto-width goes with --iterations auto", cmd), CLI_EUSAGE;
  if (o->iterations_auto) {
    o->cfg.iterations = 100;
    o->cfg.auto_width = o->auto_width > 0 ? o->auto_width : SQLSIM_AUTO_WIDTH;
  }
  return 0;
}
