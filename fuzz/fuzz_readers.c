/* fuzz_readers.c -- the readers of files users download: tables.json (every
 * schema then written as DDL and created in memory), and gold and prediction
 * files (lines, Spider/BIRD/BIS JSON, BIRD submission objects); and the
 * metric and rule lists of options. The first byte picks the reader. */
#include "fuzz_common.h"

#include <sqlite3.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
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
