/* fuzz_audit.c -- the benchmark audit (audit/) over any SQL. An input's
 * first line is a gold query, each further line (at most 6) one system's
 * prediction; the benchmark is two items on the fuzz schema, the gold twice
 * with the systems' predictions in turn reversed on the second, audited on
 * generated databases and on a small SQLite database of that schema (made
 * once; checked byte for byte after every input: nothing may write it).
 * Invariants: every item is there once, ranked by a score in [0, 1], its
 * record is JSON with the index and the kinds its evidence names, flagged
 * follows the threshold, groups and agreement fit the systems, and each
 * system's EX (all items, and without the flagged) is a share. */
#include "fuzz_common.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_SYSTEMS 6
#define FAIL() (fprintf(stderr, "fuzz_audit: invariant broken at line %d\n", __LINE__), abort())

static char db_path[64], tables_path[64];
static unsigned char *db_bytes;
static long db_size;

static unsigned char *read_all(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  if (!f) FAIL();
  fseek(f, 0, SEEK_END);
  *n = ftell(f);
  rewind(f);
  unsigned char *b = malloc((size_t)*n + 1);
  if (fread(b, 1, (size_t)*n, f) != (size_t)*n) FAIL();
  fclose(f);
  return b;
}

static void remove_db(void) {
  unlink(db_path);
  unlink(tables_path);
}

static void make_db(void) {
  if (db_bytes) return;
  snprintf(db_path, sizeof db_path, "/tmp/sqlsim_fuzz_audit_%d.sqlite", (int)getpid());
  snprintf(tables_path, sizeof tables_path, "/tmp/sqlsim_fuzz_audit_%d.json", (int)getpid());
  unlink(db_path);
  FILE *t = fopen(tables_path, "w");
  if (!t || fputs(fuzz_tables_json, t) < 0 || fclose(t)) FAIL();
  sqlsim_error err = {0};
  void *handle = NULL;
  if (sqlsim_schema_create_sqlite(sqlsim_catalog_at(fuzz_catalog(), 0), db_path, &handle, &err)) {
    fprintf(stderr, "fuzz_audit: %s\n", err.message);
    FAIL();
  }
  sqlite3 *db = handle;
  sqlite3_exec(db,
               "INSERT INTO stadium VALUES (1,'Raith','Stark''s Park',10104,4812,1294,2106),"
               "(2,'Ayr','Somerset Park',11998,2363,1057,1477),(3,'East','Bayview',2000,1980,338,864);"
               "INSERT INTO singer VALUES (1,'Joe','Netherlands','You',1992,52,'F'),(2,'Ann','France','Dance',2008,32,'T'),"
               "(3,'Rose','France','Sun',2008,41,'F'),(4,'Ed','United States','Hey',2013,29,'T');"
               "INSERT INTO concert VALUES (1,'Auditions','Free','1','2014'),(2,'Super','Happy','2','2014'),"
               "(3,'Home','Party','2','2015');"
               "INSERT INTO singer_in_concert VALUES (1,'2'),(1,'3'),(2,'3'),(3,'1');",
               NULL, NULL, NULL);
  sqlite3_close(db);
  db_bytes = read_all(db_path, &db_size);
  atexit(remove_db);
}

static void check(const sqlsim_audit *a, int nsys) {
  if (a->nitems != 2 || a->nsystems != nsys) FAIL();
  int seen[2] = {0, 0}, flagged = 0;
  for (int r = 0; r < a->nitems; r++) {
    const sqlsim_audit_item *it = &a->items[r];
    if (it->index < 0 || it->index > 1 || seen[it->index]++) FAIL();
    if (!(it->score >= 0 && it->score <= 1)) FAIL();
    if (r && a->items[r - 1].score < it->score) FAIL();
    if (it->flagged != (it->score >= 0.5)) FAIL();
    flagged += it->flagged;
    if (it->agree < 0 || it->agree > nsys || it->group < 0 || it->group > nsys || it->agree + it->group > nsys) FAIL();
    if ((it->group >= 2) != ((it->kinds & SQLSIM_AUDIT_CONSENSUS) != 0)) FAIL();
    if (!it->kinds != (it->score == 0)) FAIL();
    cJSON *j = cJSON_Parse(it->json);
    if (!j || cJSON_GetObjectItem(j, "index")->valueint != it->index) FAIL();
    unsigned named = 0;
    for (const cJSON *e = cJSON_GetObjectItem(j, "evidence")->child; e; e = e->next) {
      const char *kind = cJSON_GetObjectItem(e, "kind")->valuestring;
      for (int k = 0; k < SQLSIM_AUDIT_NKINDS; k++)
        if (!strcmp(kind, sqlsim_audit_kind_names[k])) named |= 1u << k;
    }
    if (named != it->kinds) FAIL();
    cJSON_Delete(j);
  }
  if (flagged != a->flagged) FAIL();
  for (int p = 0; p < nsys; p++)
    if (!(a->ex[p] >= 0 && a->ex[p] <= 1) || !(a->weight[p] >= 0 && a->weight[p] <= 1) ||
        !(isnan(a->ex_kept[p]) || (a->ex_kept[p] >= 0 && a->ex_kept[p] <= 1)))
      FAIL();
  char *s = sqlsim_audit_summary_json(a);
  cJSON *j = cJSON_Parse(s);
  if (!j) FAIL();
  cJSON_Delete(j);
  free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  make_db();
  char *buf = malloc(size + 1);
  memcpy(buf, data, size);
  buf[size] = '\0';
  for (size_t i = 0; i < size; i++)
    if (buf[i] == '\t' || buf[i] == '\r') buf[i] = ' '; /* a line is one query */
  char *lines[MAX_SYSTEMS + 1];
  int n = 0;
  for (char *p = buf; p && n <= MAX_SYSTEMS;) {
    lines[n++] = p;
    char *e = strchr(p, '\n');
    if (e) *e = '\0';
    p = e ? e + 1 : NULL;
  }
  int nsys = n - 1 > 0 ? n - 1 : 1;
  if (n == 1) lines[1] = lines[0], n = 2;
  const sqlsim_schema *s = sqlsim_catalog_at(fuzz_catalog(), 0);
  char *text = NULL;
  size_t tn = 0;
  FILE *f = open_memstream(&text, &tn);
  fprintf(f, "%s\t%s\n%s\t%s\n", lines[0], s->db_id, lines[0], s->db_id);
  fclose(f);
  sqlsim_itemset *gold = NULL;
  sqlsim_error err = {0};
  if (sqlsim_items_parse(text, tn, "fuzz", &gold, &err) == 0 && gold->n == 2) {
    const char *sys[MAX_SYSTEMS][2];
    const char *const *preds[MAX_SYSTEMS];
    const char *names[MAX_SYSTEMS] = {"a", "b", "c", "d", "e", "f"};
    for (int p = 0; p < nsys; p++) {
      sys[p][0] = lines[1 + p];
      sys[p][1] = lines[1 + (nsys - 1 - p)];
      preds[p] = sys[p];
    }
    for (int on_db = 0; on_db < 2; on_db++) {
      sqlsim_audit_opts o = {.tables = on_db ? NULL : tables_path, .sqlite = on_db ? db_path : NULL, .timeout_s = 1};
      sqlsim_audit *a = NULL;
      if (sqlsim_audit_run(gold, preds, names, nsys, &o, &a, &err)) FAIL();
      check(a, nsys);
      sqlsim_audit_free(a);
    }
  }
  sqlsim_items_free(gold);
  free(text);
  free(buf);
  long n2;
  unsigned char *now = read_all(db_path, &n2);
  if (n2 != db_size || memcmp(now, db_bytes, (size_t)n2)) FAIL();
  free(now);
  return 0;
}
