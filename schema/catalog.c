/* catalog.c -- schemas, their name lookups, and the tables.json loader.
 *
 * A catalog owns one arena holding every schema; lookups go through uthash
 * tables keyed by case-folded names, built once per schema. The loader reads
 * the Spider/BIRD tables.json format: per database, table_names_original,
 * column_names_original ([table index, name], Spider's [-1, "*"] skipped),
 * column_types, primary_keys (ints, or lists for composite keys in BIRD) and
 * foreign_keys ([column, referenced column]). */
#include "schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

typedef struct name_entry {
  const char *key; /* folded name (table) or "table\x1fcolumn" */
  int index;
  UT_hash_handle hh;
} name_entry;

struct sqlsim_schema_index {
  name_entry *tables;
  name_entry *columns; /* key: "<table index>\x1f<column key>" */
};

struct schema_entry {
  const char *db_id;
  sqlsim_schema *schema;
  UT_hash_handle hh;
};

static const char *col_key(sqlsim_arena *a, int table, const char *name) {
  return sqlsim_arena_printf(a, "%d\x1f%s", table, name);
}

void schema_index_build(sqlsim_schema *s, sqlsim_arena *a) {
  struct sqlsim_schema_index *ix = sqlsim_arena_alloc(a, sizeof *ix);
  for (int t = 0; t < s->ntables; t++) {
    name_entry *e;
    HASH_FIND_STR(ix->tables, s->tables[t].key, e);
    if (e) continue; /* duplicate table name: first wins */
    e = sqlsim_arena_alloc(a, sizeof *e);
    e->key = s->tables[t].key;
    e->index = t;
    HASH_ADD_KEYPTR(hh, ix->tables, e->key, strlen(e->key), e);
  }
  for (int c = 0; c < s->ncolumns; c++) {
    const sqlsim_column *col = &s->columns[c];
    const char *k = col_key(a, col->table, col->key);
    name_entry *e;
    HASH_FIND_STR(ix->columns, k, e);
    if (!e) {
      e = sqlsim_arena_alloc(a, sizeof *e);
      e->key = k;
      e->index = c;
      HASH_ADD_KEYPTR(hh, ix->columns, e->key, strlen(e->key), e);
    }
  }
  s->index = ix;
}

void schema_index_clear(sqlsim_schema *s) {
  if (!s->index) return;
  HASH_CLEAR(hh, s->index->tables);
  HASH_CLEAR(hh, s->index->columns);
}

/* Folds name into buf (truncating very long names, which then miss). */
static const char *fold_into(char *buf, size_t cap, const char *name) {
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++) buf[i] = ascii_lower(name[i]);
  buf[i] = '\0';
  return buf;
}

int sqlsim_schema_find_table(const sqlsim_schema *s, const char *name) {
  if (!s || !s->index) return -1;
  char buf[512];
  name_entry *e;
  HASH_FIND_STR(s->index->tables, fold_into(buf, sizeof buf, name), e);
  return e ? e->index : -1;
}

int sqlsim_schema_find_column(const sqlsim_schema *s, int table, const char *name) {
  if (!s || !s->index || table < 0) return -1;
  char buf[600], digits[12];
  int n = 0, d = 0;
  do digits[d++] = (char)('0' + table % 10); /* "%d\x1f" without printf: this is hot */
  while ((table /= 10) > 0);
  while (d > 0) buf[n++] = digits[--d];
  buf[n++] = '\x1f';
  fold_into(buf + n, sizeof buf - (size_t)n, name);
  name_entry *e;
  HASH_FIND_STR(s->index->columns, buf, e);
  return e ? e->index : -1;
}

/* ---------------------------------------------------------------- catalog */

sqlsim_catalog *catalog_new(void) {
  sqlsim_catalog *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->arena = sqlsim_arena_new();
  return c;
}

void catalog_add(sqlsim_catalog *c, sqlsim_schema *s) {
  if (c->nschemas == c->cap) {
    c->cap = c->cap ? c->cap * 2 : 16;
    sqlsim_schema **p = realloc(c->schemas, (size_t)c->cap * sizeof *p);
    if (!p) abort();
    c->schemas = p;
  }
  c->schemas[c->nschemas++] = s;
  struct schema_entry *e;
  HASH_FIND_STR(c->by_id, s->db_id, e);
  if (e) return; /* duplicate db_id: the first stays reachable by name */
  e = sqlsim_arena_alloc(c->arena, sizeof *e);
  e->db_id = s->db_id;
  e->schema = s;
  HASH_ADD_KEYPTR(hh, c->by_id, e->db_id, strlen(e->db_id), e);
}

const sqlsim_schema *sqlsim_catalog_find(const sqlsim_catalog *c, const char *db_id) {
  if (!c) return NULL;
  struct schema_entry *e;
  HASH_FIND_STR(c->by_id, db_id, e);
  if (e) return e->schema;
  /* Not written alike: the one schema whose name differs only in letter case
   * and '-' for '_' (Spider 2.0's tasks name "sqlite-sakila" the folder
   * SQLITE_SAKILA, "Db-IMDB" DB_IMDB); none when two do. */
  const sqlsim_schema *found = NULL;
  for (int i = 0; i < c->nschemas; i++) {
    const char *x = c->schemas[i]->db_id, *y = db_id;
    while (*x && *y) {
      int a = *x == '-' ? '_' : (*x >= 'A' && *x <= 'Z') ? *x + 32 : *x;
      int b = *y == '-' ? '_' : (*y >= 'A' && *y <= 'Z') ? *y + 32 : *y;
      if (a != b) break;
      x++, y++;
    }
    if (*x || *y) continue;
    if (found) return NULL;
    found = c->schemas[i];
  }
  return found;
}

int sqlsim_catalog_count(const sqlsim_catalog *c) { return c ? c->nschemas : 0; }

const sqlsim_schema *sqlsim_catalog_at(const sqlsim_catalog *c, int i) {
  return (c && i >= 0 && i < c->nschemas) ? c->schemas[i] : NULL;
}

void sqlsim_catalog_free(sqlsim_catalog *c) {
  if (!c) return;
  for (int i = 0; i < c->nschemas; i++) schema_index_clear(c->schemas[i]);
  HASH_CLEAR(hh, c->by_id);
  free(c->schemas);
  sqlsim_arena_free(c->arena);
  free(c);
}

/* ---------------------------------------------------------------- tables.json */

static const char *json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Maps a Spider/BIRD coarse type to a declared SQLite type with the same
 * affinity as the real databases use. */
static const char *coarse_type(sqlsim_arena *a, const char *t) {
  if (!t) return "";
  /* BIRD's tables.json says integer and real, as its databases declare them;
   * Spider's says number for both */
  if (!strcmp(t, "integer")) return "INTEGER";
  if (!strcmp(t, "real")) return "REAL";
  if (!strcmp(t, "number")) return "NUMERIC";
  if (!strcmp(t, "text")) return "TEXT";
  if (!strcmp(t, "time") || !strcmp(t, "date") || !strcmp(t, "datetime")) return "DATETIME";
  if (!strcmp(t, "boolean")) return "BOOLEAN";
  if (!strcmp(t, "others")) return "";
  return sqlsim_arena_strdup(a, t); /* the JSON document goes; the schema keeps its own copy */
}

/* Loads one tables.json entry; returns 0 or a code with err set. */
static int load_entry(sqlsim_catalog *c, const cJSON *db, int pos, sqlsim_error *err) {
  sqlsim_arena *a = c->arena;
  const char *db_id = json_str(db, "db_id");
  if (!db_id)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "entry %d: no \"db_id\"", pos);
  const cJSON *tnames = cJSON_GetObjectItemCaseSensitive(db, "table_names_original");
  if (!cJSON_IsArray(tnames)) tnames = cJSON_GetObjectItemCaseSensitive(db, "table_names");
  const cJSON *cnames = cJSON_GetObjectItemCaseSensitive(db, "column_names_original");
  if (!cJSON_IsArray(cnames)) cnames = cJSON_GetObjectItemCaseSensitive(db, "column_names");
  const cJSON *ctypes = cJSON_GetObjectItemCaseSensitive(db, "column_types");
  if (!cJSON_IsArray(tnames) || !cJSON_IsArray(cnames))
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                            "entry %d (db_id %s): no table_names_original/column_names_original",
                            pos, db_id);
  sqlsim_schema *s = sqlsim_arena_alloc(a, sizeof *s);
  s->db_id = sqlsim_arena_strdup(a, db_id);
  s->ntables = cJSON_GetArraySize(tnames);
  s->tables = sqlsim_arena_alloc(a, sizeof *s->tables * (size_t)(s->ntables ? s->ntables : 1));
  int t = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, tnames) {
    if (!cJSON_IsString(it))
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "db_id %s: table name %d is not a string",
                              db_id, t);
    s->tables[t].name = sqlsim_arena_strdup(a, it->valuestring);
    s->tables[t].key = core_fold_dup(a, it->valuestring, strlen(it->valuestring));
    t++;
  }
  /* Count columns per table, then place them contiguously by table. */
  int njson = cJSON_GetArraySize(cnames);
  int *json_to_col = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(njson ? njson : 1));
  int *counts = calloc((size_t)s->ntables + 1, sizeof(int));
  int i = 0;
  cJSON_ArrayForEach(it, cnames) {
    const cJSON *ti = cJSON_GetArrayItem(it, 0), *nm = cJSON_GetArrayItem(it, 1);
    if (!cJSON_IsNumber(ti) || !cJSON_IsString(nm)) {
      free(counts);
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "db_id %s: column %d is not [table index, name]", db_id, i);
    }
    int tab = ti->valueint;
    if (tab >= s->ntables) {
      free(counts);
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "db_id %s: column %d names table %d of %d", db_id, i, tab,
                              s->ntables);
    }
    if (tab >= 0) counts[tab]++;
    i++;
  }
  int total = 0;
  for (t = 0; t < s->ntables; t++) {
    s->tables[t].first_column = total;
    s->tables[t].ncolumns = 0;
    total += counts[t];
  }
  free(counts);
  s->ncolumns = total;
  s->columns = sqlsim_arena_alloc(a, sizeof *s->columns * (size_t)(total ? total : 1));
  i = 0;
  cJSON_ArrayForEach(it, cnames) {
    int tab = cJSON_GetArrayItem(it, 0)->valueint;
    const char *nm = cJSON_GetArrayItem(it, 1)->valuestring;
    json_to_col[i] = -1;
    if (tab >= 0) {
      int ci = s->tables[tab].first_column + s->tables[tab].ncolumns++;
      sqlsim_column *col = &s->columns[ci];
      col->name = sqlsim_arena_strdup(a, nm);
      col->key = core_fold_dup(a, nm, strlen(nm));
      const cJSON *ty = cJSON_GetArrayItem(ctypes, i);
      const char *coarse = cJSON_IsString(ty) ? ty->valuestring : NULL;
      col->type = coarse_type(a, coarse);
      col->numeric = coarse && (!strcmp(coarse, "number") || !strcmp(coarse, "integer") || !strcmp(coarse, "real"));
      col->table = tab;
      json_to_col[i] = ci;
    }
    i++;
  }
  /* Primary keys: an int per single-column key, a list per composite key. */
  const cJSON *pks = cJSON_GetObjectItemCaseSensitive(db, "primary_keys");
  cJSON_ArrayForEach(it, pks) {
    if (cJSON_IsNumber(it)) {
      int j = it->valueint;
      if (j >= 0 && j < njson && json_to_col[j] >= 0) {
        s->columns[json_to_col[j]].pk = 1;
        s->columns[json_to_col[j]].unique = 1;
      }
    } else if (cJSON_IsArray(it)) {
      const cJSON *k;
      int n = cJSON_GetArraySize(it);
      cJSON_ArrayForEach(k, it) {
        int j = cJSON_IsNumber(k) ? k->valueint : -1;
        if (j >= 0 && j < njson && json_to_col[j] >= 0) {
          s->columns[json_to_col[j]].pk = 1;
          if (n == 1) s->columns[json_to_col[j]].unique = 1;
        }
      }
    }
  }
  const cJSON *fks = cJSON_GetObjectItemCaseSensitive(db, "foreign_keys");
  s->nfkeys = 0;
  s->fkeys = sqlsim_arena_alloc(a, sizeof *s->fkeys * (size_t)(cJSON_GetArraySize(fks) + 1));
  cJSON_ArrayForEach(it, fks) {
    const cJSON *x = cJSON_GetArrayItem(it, 0), *y = cJSON_GetArrayItem(it, 1);
    if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y)) continue;
    int cx = x->valueint, cy = y->valueint;
    if (cx < 0 || cx >= njson || cy < 0 || cy >= njson) continue;
    if (json_to_col[cx] < 0 || json_to_col[cy] < 0) continue;
    s->fkeys[s->nfkeys].column = json_to_col[cx];
    s->fkeys[s->nfkeys].ref_column = json_to_col[cy];
    s->nfkeys++;
  }
  schema_index_build(s, a);
  catalog_add(c, s);
  return 0;
}

int sqlsim_catalog_load_tables_json(const char *path, sqlsim_catalog **out, sqlsim_error *err) {
  *out = NULL;
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return sqlsim_catalog_load_spider2(path, out, err);
  size_t len;
  char *text;
  int rc = core_file_read(path, &text, &len, err);
  if (rc) return rc;
  rc = sqlsim_catalog_parse_tables_json(text, len, path, out, err);
  free(text);
  return rc;
}

int sqlsim_catalog_parse_tables_json(const char *text, size_t len, const char *path, sqlsim_catalog **out,
                                     sqlsim_error *err) {
  *out = NULL;
  if (!path) path = "tables.json";
  sqlsim_catalog *c = catalog_new();
  sqlsim_arena *tmp = sqlsim_arena_new(); /* the DOM; schemas copy what they keep */
  size_t at = 0;
  cJSON *doc = core_json_parse(tmp, text, len, &at);
  if (!doc) {
    sqlsim_arena_free(tmp);
    sqlsim_catalog_free(c);
    return sqlsim_error_set(err, SQLSIM_EFORMAT, (int)at, "%s: invalid JSON at byte %zu", path,
                            at);
  }
  if (!cJSON_IsArray(doc)) {
    sqlsim_arena_free(tmp);
    sqlsim_catalog_free(c);
    return sqlsim_error_set(err, SQLSIM_EFORMAT, 0, "%s: expected a JSON array of databases",
                            path);
  }
  const cJSON *db;
  int pos = 0;
  cJSON_ArrayForEach(db, doc) {
    int rc = load_entry(c, db, pos++, err);
    if (rc) {
      if (err) {
        char msg[sizeof err->message];
        memcpy(msg, err->message, sizeof msg);
        sqlsim_error_set(err, rc, err->offset, "%s: %.400s", path, msg);
      }
      sqlsim_arena_free(tmp);
      sqlsim_catalog_free(c);
      return rc;
    }
  }
  sqlsim_arena_free(tmp);
  *out = c;
  return 0;
}
