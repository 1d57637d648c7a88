/* spider2_schema.c -- Spider 2.0's database folders as a schema source.
 *
 * Spider 2.0 ships each database's schema without its data: a folder
 * <db>/ with DDL.csv (a header `table_name,DDL`, then one CREATE TABLE per
 * record, quoted as CSV quotes) and <table>.json (table_name, column_names,
 * column_types, description, sample_rows: a few rows as objects). The
 * statements run in a private in-memory SQLite under the DDL-only
 * authorizer, and the schema is read back from it as from any SQLite file
 * (schema_from_sqlite): the same types, keys and CHECKs. Each column then
 * gets the distinct non-empty values its sample rows hold, as text
 * (sqlsim_column.samples), for the generators to draw values that look like
 * the real ones.
 *
 * The folders are downloaded input: a record that is not CSV, a statement
 * SQLite refuses or the authorizer denies is an error naming the file and
 * its line; a table JSON that does not parse or does not name a table is
 * skipped (samples are a help, never needed). */
#include "schema.h"

#include <dirent.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define MAX_SAMPLES 32   /* per column */
#define MAX_SAMPLE_LEN 200

/* One CSV record from *p (RFC 4180: quoted fields, "" a quote inside one):
 * up to two fields into f[0..1] (arena copies), the count of fields in
 * *nf. Returns 1, 0 at the end, -1 on an unterminated quote. */
static int csv_record(const char **p, const char *end, sqlsim_arena *a, char *f[2], int *nf, int *line) {
  const char *s = *p;
  if (s >= end) return 0;
  *nf = 0;
  strbuf sb = {0};
  for (;;) {
    sb.len = 0;
    if (s < end && *s == '"') {
      s++;
      for (;;) {
        if (s >= end) {
          sb_free(&sb);
          return -1;
        }
        if (*s == '"') {
          if (s + 1 < end && s[1] == '"') {
            sb_putn(&sb, "\"", 1);
            s += 2;
            continue;
          }
          s++;
          break;
        }
        if (*s == '\n') (*line)++;
        sb_putn(&sb, s, 1);
        s++;
      }
    }
    while (s < end && *s != ',' && *s != '\n' && *s != '\r') sb_putn(&sb, s++, 1);
    if (*nf < 2) f[*nf] = sqlsim_arena_strndup(a, sb.buf ? sb.buf : "", sb.len);
    (*nf)++;
    if (s < end && *s == ',') {
      s++;
      continue;
    }
    if (s < end && *s == '\r') s++;
    if (s < end && *s == '\n') s++;
    (*line)++;
    break;
  }
  sb_free(&sb);
  *p = s;
  return 1;
}

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int name_cmp(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The sorted names in dir (NULL-terminated, malloc'd; each malloc'd). */
static char **list_dir(const char *dir, int *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  int cap = 16;
  char **v = malloc(sizeof *v * (size_t)cap);
  struct dirent *e;
  while (v && (e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (*n + 1 >= cap) {
      char **w = realloc(v, sizeof *v * (size_t)(cap *= 2));
      if (!w) break;
      v = w;
    }
    v[(*n)++] = strdup(e->d_name);
  }
  closedir(d);
  if (!v) return NULL;
  qsort(v, (size_t)*n, sizeof *v, name_cmp);
  v[*n] = NULL;
  return v;
}

static void free_list(char **v, int n) {
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
}

/* A sample value as text: a string as it is, a number as SQL writes it
 * (an integer without a point), NULL for anything else or an empty string. */
static const char *sample_text(sqlsim_arena *a, const cJSON *v) {
  if (cJSON_IsString(v) && v->valuestring[0] && strlen(v->valuestring) <= MAX_SAMPLE_LEN)
    return sqlsim_arena_strdup(a, v->valuestring);
  if (cJSON_IsNumber(v)) {
    double x = v->valuedouble;
    if (x == (double)(long long)x && x > -9e15 && x < 9e15) return sqlsim_arena_printf(a, "%lld", (long long)x);
    return sqlsim_arena_printf(a, "%.15g", x);
  }
  return NULL;
}

/* The tables' JSON files of a folder, parsed into tmp (those that parse
 * and name their table). */
typedef struct table_docs {
  const cJSON **doc;
  const char **name;
  int n;
} table_docs;

static void read_docs(const char *dir, char **names, int nnames, sqlsim_arena *tmp, table_docs *d) {
  d->doc = sqlsim_arena_alloc(tmp, sizeof *d->doc * (size_t)(nnames + 1));
  d->name = sqlsim_arena_alloc(tmp, sizeof *d->name * (size_t)(nnames + 1));
  d->n = 0;
  for (int i = 0; i < nnames; i++) {
    size_t k = strlen(names[i]);
    if (k <= 5 || strcmp(names[i] + k - 5, ".json")) continue;
    char *text;
    size_t len, at = 0;
    if (core_file_read(sqlsim_arena_printf(tmp, "%s/%s", dir, names[i]), &text, &len, NULL)) continue;
    cJSON *doc = core_json_parse(tmp, text, len, &at);
    free(text);
    const cJSON *name = doc ? cJSON_GetObjectItemCaseSensitive(doc, "table_name") : NULL;
    if (!cJSON_IsString(name)) continue;
    d->doc[d->n] = doc;
    d->name[d->n++] = name->valuestring;
  }
}

static const cJSON *doc_of(const table_docs *d, const char *table) {
  for (int i = 0; i < d->n; i++)
    if (!strcasecmp(d->name[i], table)) return d->doc[i];
  return NULL;
}

/* A declared type safe to write back: letters, digits, spaces, one list of
 * numbers in parentheses. */
static int plain(const char *t) {
  for (const char *p = t; *p; p++)
    if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 (),_", *p)) return 0;
  return strlen(t) < 64;
}

/* CREATE TABLE from a table JSON's column_names and column_types, every
 * name quoted: for a DDL.csv statement SQLite cannot read (a column named
 * as a keyword, `group` or `index`, left unquoted). NULL when the JSON has
 * no columns. */
static char *ddl_from_doc(const cJSON *doc, const char *table, sqlsim_arena *a) {
  const cJSON *names = cJSON_GetObjectItemCaseSensitive(doc, "column_names");
  const cJSON *types = cJSON_GetObjectItemCaseSensitive(doc, "column_types");
  if (!cJSON_IsArray(names) || !cJSON_GetArraySize(names)) return NULL;
  strbuf sb = {0};
  sb_puts(&sb, "CREATE TABLE ");
  sb_ident(&sb, table);
  sb_puts(&sb, " (");
  int i = 0;
  const cJSON *n;
  cJSON_ArrayForEach(n, names) {
    if (!cJSON_IsString(n)) {
      sb_free(&sb);
      return NULL;
    }
    const cJSON *t = cJSON_IsArray(types) ? cJSON_GetArrayItem(types, i) : NULL;
    if (i++) sb_puts(&sb, ", ");
    sb_ident(&sb, n->valuestring);
    if (cJSON_IsString(t) && plain(t->valuestring)) sb_printf(&sb, " %s", t->valuestring);
  }
  sb_puts(&sb, ")");
  char *out = sqlsim_arena_strdup(a, sb.buf);
  sb_free(&sb);
  return out;
}

/* One CREATE TABLE (nothing else, one statement) run: SQLITE_OK or why not. */
static int run_create(sqlite3 *db, const char *sql) {
  const char *tail = NULL;
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
  if (rc == SQLITE_OK && !st) rc = SQLITE_AUTH;
  if (rc == SQLITE_OK) {
    if (sqlite3_stmt_readonly(st) || strncasecmp(sqlite3_sql(st), "CREATE", 6)) rc = SQLITE_AUTH;
    else rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
  }
  sqlite3_finalize(st);
  while (rc == SQLITE_OK && tail && *tail && strchr(" \t\r\n;", *tail)) tail++;
  if (rc == SQLITE_OK && tail && *tail) rc = SQLITE_AUTH;
  return rc;
}

/* The sample rows of one table JSON into its columns' samples. */
static void read_samples(sqlsim_schema *s, sqlsim_arena *a, const cJSON *doc) {
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(doc, "table_name");
  int t = cJSON_IsString(name) ? sqlsim_schema_find_table(s, name->valuestring) : -1;
  const cJSON *rows = t >= 0 ? cJSON_GetObjectItemCaseSensitive(doc, "sample_rows") : NULL;
  if (!cJSON_IsArray(rows)) return;
  const sqlsim_table *tb = &s->tables[t];
  for (int i = 0; i < tb->ncolumns; i++) {
    sqlsim_column *col = &s->columns[tb->first_column + i];
    const char **v = sqlsim_arena_alloc(a, sizeof *v * MAX_SAMPLES);
    int n = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows) {
      if (n == MAX_SAMPLES || !cJSON_IsObject(row)) continue;
      const cJSON *cell;
      cJSON_ArrayForEach(cell, row) {
        if (!cell->string || sqlsim_schema_find_column(s, t, cell->string) != tb->first_column + i) continue;
        const char *x = sample_text(a, cell);
        int seen = 0;
        for (int k = 0; x && k < n && !seen; k++) seen = !strcmp(v[k], x);
        if (x && !seen) v[n++] = x;
        break;
      }
    }
    col->samples = n ? v : NULL;
    col->nsamples = n;
  }
}

/* One database folder: its DDL.csv run and read back, its samples. */
static int load_db(sqlsim_catalog *c, const char *dir, sqlsim_error *err) {
  char *ddl_path = sqlsim_arena_printf(c->arena, "%s/DDL.csv", dir);
  char *text;
  size_t len;
  int rc = core_file_read(ddl_path, &text, &len, err);
  if (rc) return rc;
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    sqlite3_close(db);
    free(text);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "%s: cannot open a scratch database", ddl_path);
  }
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
  sqlite3_set_authorizer(db, schema_ddl_only, NULL);
  sqlsim_arena *tmp = sqlsim_arena_new();
  int nnames = 0;
  char **names = list_dir(dir, &nnames);
  table_docs docs;
  read_docs(dir, names, nnames, tmp, &docs);
  free_list(names, nnames);
  const char *p = text, *end = text + len;
  int line = 1, first = 1;
  for (;;) {
    char *f[2] = {NULL, NULL};
    int nf = 0, at = line;
    int r = csv_record(&p, end, tmp, f, &nf, &line);
    if (r == 0) break;
    if (r < 0) {
      rc = sqlsim_error_set(err, SQLSIM_EFORMAT, at, "%s:%d: a quoted field is not closed", ddl_path, at);
      break;
    }
    if (first) { /* the header: table_name,DDL */
      first = 0;
      if (nf >= 2 && !strcmp(f[0], "table_name")) continue;
    }
    if (nf == 1 && !f[0][0]) continue; /* a blank line */
    if (nf < 2) {
      rc = sqlsim_error_set(err, SQLSIM_EFORMAT, at, "%s:%d: expected table_name,DDL", ddl_path, at);
      break;
    }
    /* SQLite's own tables (sqlite_sequence, sqlite_stat1) are listed too: they are its, not the data's. */
    if (!strncasecmp(f[0], "sqlite_", 7)) continue;
    int src = run_create(db, f[1]);
    if (src != SQLITE_OK && src != SQLITE_AUTH) { /* the table's JSON says its columns */
      const cJSON *doc = doc_of(&docs, f[0]);
      char *again = doc ? ddl_from_doc(doc, f[0], tmp) : NULL;
      if (again && run_create(db, again) == SQLITE_OK) src = SQLITE_OK;
    }
    if (src != SQLITE_OK) {
      rc = sqlsim_error_set(err, SQLSIM_EFORMAT, at, "%s:%d: table %.100s: %s", ddl_path, at, f[0],
                            src == SQLITE_AUTH ? "not one CREATE TABLE statement" : sqlite3_errmsg(db));
      break;
    }
  }
  free(text);
  sqlite3_set_authorizer(db, NULL, NULL); /* reading back what was made */
  if (!rc) rc = schema_from_sqlite(db, dir, c, err);
  sqlite3_close(db);
  if (!rc)
    for (int i = 0; i < docs.n; i++) read_samples(c->schemas[c->nschemas - 1], c->arena, docs.doc[i]);
  sqlsim_arena_free(tmp);
  return rc;
}

int sqlsim_catalog_load_spider2(const char *dir, sqlsim_catalog **out, sqlsim_error *err) {
  *out = NULL;
  int n = 0;
  char **names = list_dir(dir, &n);
  if (!names) return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot read the folder", dir);
  sqlsim_catalog *c = catalog_new();
  int rc = 0, found = 0;
  for (int i = 0; i < n && !rc; i++) {
    char *sub = sqlsim_arena_printf(c->arena, "%s/%s", dir, names[i]);
    char *ddl = sqlsim_arena_printf(c->arena, "%s/DDL.csv", sub);
    struct stat st;
    if (!is_dir(sub) || stat(ddl, &st) != 0) continue;
    found++;
    rc = load_db(c, sub, err);
  }
  free_list(names, n);
  if (!rc && !found)
    rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                          "%s: no database folders (Spider 2.0's layout: <db>/DDL.csv and <table>.json)", dir);
  if (rc) {
    sqlsim_catalog_free(c);
    return rc;
  }
  *out = c;
  return 0;
}
