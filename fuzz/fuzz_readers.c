/* fuzz_readers.c -- the readers of files users download: tables.json (every
 * schema then written as DDL and created in memory), and gold and prediction
 * files (lines, Spider/BIRD/BIS JSON, BIRD submission objects); the metric
 * and rule lists of options; and the CHECK constraints read out of a SQLite
 * file's CREATE TABLE text (a hostile file's sqlite_schema holds any text):
 * each must stay one CHECK clause once written as CHECK (text). The first
 * byte picks the reader. */
#include "fuzz_common.h"
#include "schema/schema.h"

#include <sqlite3.h>

/* A CHECK's text read back: no ';' outside quotes, parentheses that balance,
 * and written into a CREATE TABLE it makes one statement that creates one
 * table, or SQLite refuses it. */
static void check_text_ok(const char *t) {
  int depth = 0;
  for (const char *p = t; *p; p++) {
    if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
      char close = *p == '[' ? ']' : *p;
      for (p++; *p && !(*p == close && (close == ']' || p[1] != close)); p++)
        if (*p == close) p++;
      if (!*p) abort(); /* a quote that does not end */
      continue;
    }
    if (*p == ';' || (*p == ')' && --depth < 0)) abort();
    if (*p == '(') depth++;
  }
  if (depth) abort();
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) abort();
  char *sql = sqlite3_mprintf("CREATE TABLE t (x, CHECK (%s))", t);
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) == SQLITE_OK) {
    if (tail && tail[strspn(tail, " \t\r\n")]) abort(); /* a second statement */
    sqlite3_step(st);
    sqlite3_finalize(st);
    sqlite3_stmt *n = NULL;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1, &n, NULL) == SQLITE_OK &&
        sqlite3_step(n) == SQLITE_ROW && sqlite3_column_int(n, 0) > 1)
      abort();
    sqlite3_finalize(n);
  }
  sqlite3_free(sql);
  sqlite3_close(db);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  if ((data[0] & 7) == 4) { /* a CREATE TABLE text's CHECKs */
    char *sql = malloc(len + 1);
    memcpy(sql, text, len);
    sql[len] = '\0';
    sqlsim_arena *a = sqlsim_arena_new();
    const char **checks;
    int n = schema_checks_of(sql, a, &checks);
    if (n < 0 || n > SCHEMA_MAX_CHECKS) abort();
    for (int i = 0; i < n; i++) check_text_ok(checks[i]);
    sqlsim_arena_free(a);
    free(sql);
    return 0;
  }
  if ((data[0] & 3) == 2) { /* option lists: NUL-terminated copies */
    char *list = malloc(len + 1);
    memcpy(list, text, len);
    list[len] = '\0';
    unsigned bits;
    if (sqlsim_rules_parse(list, &bits, NULL) == 0 && (bits & ~(unsigned)SQLSIM_RULES_ALL)) abort();
    if (sqlsim_metrics_parse(list, &bits, NULL) == 0 && (bits >> SQLSIM_NMETRICS)) abort();
    free(list);
    return 0;
  }
  if (data[0] & 1) {
    sqlsim_catalog *c = NULL;
    if (sqlsim_catalog_parse_tables_json(text, len, "fuzz", &c, NULL) == 0) {
      for (int i = 0; i < sqlsim_catalog_count(c); i++) {
        const sqlsim_schema *s = sqlsim_catalog_at(c, i);
        if (sqlsim_catalog_find(c, s->db_id) == NULL) abort();
        for (int t = 0; t < s->ntables; t++) sqlsim_schema_find_table(s, s->tables[t].name);
        char *ddl = sqlsim_schema_ddl(s);
        free(ddl);
        void *db = NULL;
        if (sqlsim_schema_create_sqlite(s, ":memory:", &db, NULL) == 0) sqlite3_close(db);
      }
      sqlsim_catalog_free(c);
    }
  } else {
    sqlsim_itemset *s = NULL;
    if (sqlsim_items_parse(text, len, "fuzz", &s, NULL) == 0) {
      for (int i = 0; i < s->n; i++) {
        if (!s->items[i].sql) abort();
        if (s->items[i].db_id) sqlsim_check_db_id(s->items[i].db_id, NULL);
        sqlsim_same_text(s->items[i].sql, s->items[0].sql);
      }
      sqlsim_items_free(s);
    }
  }
  return 0;
}
