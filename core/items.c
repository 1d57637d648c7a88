/* items.c -- benchmark questions and model predictions, in the formats they
 * are published in.
 *
 * Line files: one SQL per line, optionally "SQL<TAB>db_id" (the official Spider
 * gold format). A tab only separates a db_id when what follows the last tab
 * is a plain name, so a tab inside a query stays part of it. JSON: an array of
 * objects (Spider dev.json "query", BIRD "SQL" + "difficulty", BIS "query" +
 * "case_type"), or the BIRD submission object "0".."N-1" ->
 * "SQL\t----- bird -----\tdb_id", ordered by its numeric keys. */
#include "core.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int plain_name(const char *s, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.')) return 0;
  return 1;
}

static int by_line(const void *a, const void *b) {
  int x = ((const sqlsim_item *)a)->line, y = ((const sqlsim_item *)b)->line;
  return x < y ? -1 : x > y;
}

static void push(sqlsim_itemset *s, int *cap, sqlsim_item it) {
  if (s->n == *cap) {
    *cap = *cap ? *cap * 2 : 1024;
    sqlsim_item *p = realloc(s->items, sizeof *p * (size_t)*cap);
    if (!p) abort();
    s->items = p;
  }
  s->items[s->n++] = it;
}

static void load_lines(sqlsim_itemset *s, const char *buf, size_t len) {
  int cap = 0, lineno = 0;
  size_t i = 0;
  while (i < len) {
    size_t j = i;
    while (j < len && buf[j] != '\n') j++;
    size_t end = j;
    if (end > i && buf[end - 1] == '\r') end--;
    sqlsim_item it = {0};
    it.line = ++lineno;
    const char *tab = NULL;
    for (size_t k = end; k > i; k--)
      if (buf[k - 1] == '\t') {
        tab = buf + k - 1;
        break;
      }
    if (tab && plain_name(tab + 1, (size_t)(buf + end - (tab + 1)))) {
      it.sql = sqlsim_arena_strndup(s->arena, buf + i, (size_t)(tab - (buf + i)));
      it.db_id = sqlsim_arena_strndup(s->arena, tab + 1, (size_t)(buf + end - (tab + 1)));
    } else {
      it.sql = sqlsim_arena_strndup(s->arena, buf + i, end - i);
    }
    push(s, &cap, it);
    i = j + 1;
  }
}

static const char *jstr(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int load_json(sqlsim_itemset *s, const char *buf, size_t len, sqlsim_error *err) {
  sqlsim_arena *tmp = sqlsim_arena_new();
  size_t at = 0;
  cJSON *doc = core_json_parse(tmp, buf, len, &at);
  int rc = 0, cap = 0;
  if (!doc) {
    rc = sqlsim_error_set(err, SQLSIM_EFORMAT, (int)at, "%s: invalid JSON at byte %zu", s->path, at);
  } else if (cJSON_IsArray(doc)) {
    const cJSON *o;
    int pos = 0;
    s->format = "spider-json";
    cJSON_ArrayForEach(o, doc) {
      sqlsim_item it = {0};
      it.line = ++pos;
      const char *sql = jstr(o, "SQL");
      if (sql) s->format = "bird-json";
      if (!sql) sql = jstr(o, "query");
      if (!sql) {
        rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "%s: item %d has no \"query\" or \"SQL\" string", s->path, pos - 1);
        break;
      }
      it.sql = sqlsim_arena_strdup(s->arena, sql);
      const char *v;
      if ((v = jstr(o, "db_id"))) it.db_id = sqlsim_arena_strdup(s->arena, v);
      if ((v = jstr(o, "question"))) it.question = sqlsim_arena_strdup(s->arena, v);
      if ((v = jstr(o, "difficulty"))) it.difficulty = sqlsim_arena_strdup(s->arena, v);
      if ((v = jstr(o, "case_type"))) {
        it.case_type = sqlsim_arena_strdup(s->arena, v);
        s->format = "bis-json";
      }
      push(s, &cap, it);
    }
  } else if (cJSON_IsObject(doc)) {
    s->format = "bird-pred";
    /* Keys are question indices; a file may hold a subset of them. Items come
     * out ordered by key, each with line = key + 1. */
    const cJSON *o;
    cJSON_ArrayForEach(o, doc) {
      char *end;
      errno = 0;
      long k = strtol(o->string ? o->string : "", &end, 10);
      if (!o->string || !*o->string || *end || errno || k < 0 || k >= INT_MAX || !cJSON_IsString(o)) {
        rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "%s: key \"%.60s\" is not a question index (\"0\", \"1\", ...) with a string value",
                              s->path, o->string ? o->string : "");
        break;
      }
      const char *v = o->valuestring;
      const char *sep = strstr(v, "----- bird -----");
      sqlsim_item it = {0};
      it.line = (int)k + 1;
      if (sep) {
        const char *e = sep;
        while (e > v && (e[-1] == '\t' || e[-1] == ' ' || e[-1] == '\n')) e--;
        it.sql = sqlsim_arena_strndup(s->arena, v, (size_t)(e - v));
        const char *d = sep + strlen("----- bird -----");
        while (*d == '\t' || *d == ' ') d++;
        it.db_id = sqlsim_arena_strdup(s->arena, d);
      } else {
        it.sql = sqlsim_arena_strdup(s->arena, v);
      }
      push(s, &cap, it);
    }
    if (!rc && s->n > 1) {
      qsort(s->items, (size_t)s->n, sizeof *s->items, by_line);
      for (int k = 1; k < s->n && !rc; k++)
        if (s->items[k].line == s->items[k - 1].line)
          rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: key \"%d\" appears twice", s->path, s->items[k].line - 1);
    }
  } else {
    rc = sqlsim_error_set(err, SQLSIM_EFORMAT, 0, "%s: expected a JSON array or object", s->path);
  }
  sqlsim_arena_free(tmp);
  return rc;
}

int sqlsim_items_load(const char *path, sqlsim_itemset **out, sqlsim_error *err) {
  *out = NULL;
  size_t len;
  char *buf;
  int rc = core_file_read(path, &buf, &len, err);
  if (rc) return rc;
  rc = sqlsim_items_parse(buf, len, path, out, err);
  free(buf);
  return rc;
}

int sqlsim_items_parse(const char *buf, size_t len, const char *path, sqlsim_itemset **out, sqlsim_error *err) {
  *out = NULL;
  if (!path) path = "input";
  sqlsim_itemset *s = calloc(1, sizeof *s);
  if (!s) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  s->arena = sqlsim_arena_new();
  s->path = sqlsim_arena_strdup(s->arena, path);
  s->format = "lines";
  size_t i = 0;
  if (len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3)) i = 3; /* UTF-8 byte order mark */
  size_t j = i;
  while (j < len && isspace((unsigned char)buf[j])) j++;
  int rc = 0;
  if (j < len && (buf[j] == '[' || buf[j] == '{'))
    rc = load_json(s, buf + i, len - i, err);
  else
    load_lines(s, buf + i, len - i);
  if (rc) {
    sqlsim_items_free(s);
    return rc;
  }
  *out = s;
  return 0;
}

void sqlsim_items_free(sqlsim_itemset *s) {
  if (!s) return;
  free(s->items);
  sqlsim_arena_free(s->arena);
  free(s);
}

int sqlsim_items_pair(const sqlsim_itemset *gold, const sqlsim_itemset *pred, int *slot, sqlsim_error *err) {
  int n = gold->n;
  for (int i = 0; i < n; i++) slot[i] = -1;
  if (!strcmp(pred->format, "bird-pred")) {
    for (int k = 0; k < pred->n; k++) {
      int key = pred->items[k].line - 1;
      if (key >= n)
        return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                                "%s: question index %d, but %s has %d questions (0 to %d): is this the right gold file?",
                                pred->path, key, gold->path, n, n - 1);
      slot[key] = k;
    }
    return 0;
  }
  if (pred->n != n)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                            "%s has %d predictions but %s has %d gold queries: they must pair up one to one (only a "
                            "BIRD prediction object, keyed by question index, may cover part of the set)",
                            pred->path, pred->n, gold->path, n);
  for (int i = 0; i < n; i++) slot[i] = i;
  return 0;
}

/* The span of s without leading/trailing white space and trailing ';'. */
static void core_span(const char *s, const char **b, size_t *n) {
  while (*s && isspace((unsigned char)*s)) s++;
  size_t l = strlen(s);
  while (l && (isspace((unsigned char)s[l - 1]) || s[l - 1] == ';')) l--;
  *b = s;
  *n = l;
}

int sqlsim_same_text(const char *a, const char *b) {
  const char *pa, *pb;
  size_t na, nb;
  core_span(a, &pa, &na);
  core_span(b, &pb, &nb);
  return na == nb && !memcmp(pa, pb, na);
}

/* ---------------------------------------------------------------- database directories */

int sqlsim_check_db_id(const char *id, sqlsim_error *err) {
  if (!id || !*id) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "empty db_id");
  size_t n = strlen(id);
  if (n > 255) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "db_id of %zu bytes (255 at most)", n);
  if (id[0] == '.')
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "db_id '%.60s' starts with '.': not a database name", id);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)id[i];
    if (c == '/' || c == '\\' || c < 0x20 || c == 0x7f)
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "db_id '%.60s' has a path separator or control character at byte %zu: a db_id "
                              "names a database, not a path",
                              id, i);
  }
  return 0;
}

char *sqlsim_db_path(const char *dir, const char *id, sqlsim_error *err) {
  if (sqlsim_check_db_id(id, err)) return NULL;
  size_t n = strlen(dir) + 2 * strlen(id) + 16;
  char *p = malloc(n);
  if (!p) {
    sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    return NULL;
  }
  snprintf(p, n, "%s/%s/%s.sqlite", dir, id, id);
  return p;
}
