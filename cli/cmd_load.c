/* cmd_load.c -- `sqlsim load`: SQLite databases copied into PostgreSQL or
 * MySQL (sqlsim_load does the work), so a benchmark's databases can be
 * served: a file, or a directory of DIR/<db_id>/<db_id>.sqlite as Spider and
 * BIRD ship them, into a URL whose {db_id} names a database per db_id (or one
 * database for them all). */
#include "cli.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const cli_opt options[] = {
    {"into", 0, "URL", "the database to load into, on another engine (its URL: the engines below); {db_id}\n"
                       "in it names one database per db_id (created when missing); the password from the\n"
                       "URL, password_file=PATH or the environment (PGPASSWORD, MYSQL_PWD), never printed"},
    {"replace", 0, NULL, "drop and load again a table that exists (default: nothing is loaded when one does)"},
    {"quiet", 'q', NULL, "print only errors"},
    {NULL, 0, NULL, NULL},
};

static int cmd_load(int argc, char **argv);

const cli_command cmd_load_spec = {
    .name = "load",
    .fn = cmd_load,
    .summary = "copy SQLite databases into PostgreSQL or MySQL (types chosen from the data, keys kept)\n"
               "so their queries can be scored there",
    .synopsis = "--into URL [--replace] FILE.sqlite|DIR ...",
    .opts = options,
    .details = "A DIR holds DIR/<db_id>/<db_id>.sqlite (Spider's and BIRD's layout); a FILE's db_id is its\n"
               "name without the extension. Columns: all integers BIGINT, all numbers DOUBLE, declared dates\n"
               "holding ISO dates DATE (TIMESTAMP), bytes BYTEA/LONGBLOB, the rest text; keys added after the\n"
               "rows, each the data breaks left out and said. PostgreSQL keeps plain names in lower case.\n"
               "Each database is reported on one line, its notes after it; a database that fails is said\n"
               "and the others go on (exit 1 at the end).\n",
};

/* The db_id of a database file: its name without the extension. */
static char *db_id_of(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  return strndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

static int load_one(const char *path, const char *url, const sqlsim_load_opts *o, int quiet) {
  char *db_id = db_id_of(path);
  sqlsim_load_report rep;
  sqlsim_error err = {0};
  char *shown = sqlsim_engine_redacted(url);
  int rc = sqlsim_load(path, url, db_id, o, &rep, &err);
  if (rc) error("load %s: %s", path, err.message);
  else if (!quiet) printf("%s: %d tables, %ld rows into %s\n", db_id, rep.tables, rep.rows, shown ? shown : url);
  if (rep.notes && !quiet)
    for (char *line = strtok(rep.notes, "\n"); line; line = strtok(NULL, "\n")) printf("  %s: %s\n", db_id, line);
  sqlsim_load_report_free(&rep);
  free(shown);
  free(db_id);
  return rc ? -1 : 0;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every DIR/<id>/<id>.sqlite, in name order. */
static int load_dir(const char *dir, const char *url, const sqlsim_load_opts *o, int quiet, int *failed) {
  DIR *d = opendir(dir);
  if (!d) return error("load: %s: cannot be read", dir);
  char **names = NULL;
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) names = realloc(names, sizeof *names * (size_t)(cap = cap ? cap * 2 : 32));
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  int found = 0;
  for (int i = 0; i < n; i++) {
    char *p = NULL;
    struct stat st;
    if (asprintf(&p, "%s/%s/%s.sqlite", dir, names[i], names[i]) > 0 && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      found++;
      *failed += load_one(p, url, o, quiet) != 0;
    }
    free(p);
    free(names[i]);
  }
  free(names);
  if (!found) return error("load: %s: no DIR/<db_id>/<db_id>.sqlite in it", dir);
  return 0;
}

static int cmd_load(int argc, char **argv) {
  const char *url = NULL, *v;
  sqlsim_load_opts o = {0};
  int quiet = 0, k, nsrc = 0;
  const char **src = calloc((size_t)argc + 1, sizeof *src);
  cli_parser ps = {.cmd = &cmd_load_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    if (k == CLI_HELP) return cli_parser_free(&ps), free(src), 0;
    if (k == CLI_ERROR) return cli_parser_free(&ps), free(src), CLI_EUSAGE;
    if (k == CLI_ARG) src[nsrc++] = v;
    else if (!strcmp(options[k].name, "into")) url = v;
    else if (!strcmp(options[k].name, "replace")) o.replace = 1;
    else if (!strcmp(options[k].name, "quiet")) quiet = 1;
  }
  cli_parser_free(&ps);
  if (!url) return free(src), error("load: --into URL is required (%s...)", sqlsim_engine_urls()), CLI_EUSAGE;
  if (sqlsim_engine_of(url) == SQLSIM_ENGINE_SQLITE)
    return free(src), error("load: --into takes a %s URL, not '%.60s'", sqlsim_engine_urls(), url), CLI_EUSAGE;
  if (!nsrc) return free(src), error("load: no SQLite database or directory given"), CLI_EUSAGE;
  int failed = 0, bad = 0;
  for (int i = 0; i < nsrc; i++) {
    struct stat st;
    if (stat(src[i], &st) != 0) bad |= error("load: %s: no such file or directory", src[i]);
    else if (S_ISDIR(st.st_mode)) bad |= load_dir(src[i], url, &o, quiet, &failed);
    else failed += load_one(src[i], url, &o, quiet) != 0;
  }
  free(src);
  return bad || failed ? -1 : 0;
}
