/* spider_agreement.c -- compatible mode against the official evaluator, item by item.
 *
 * For each prediction file, scores it against the gold with sqlsim's
 * compatible Spider matcher and compares every item with the official
 * evaluator's per-item outputs (reference TSV: hardness, exact, the ten
 * partial flags, and whether the official parser rejected the prediction).
 * Prints agreement per file and each disagreement; exits 1 on any.
 *
 * usage: spider_agreement --gold FILE --tables FILE --db-dir DIR --ref-dir DIR PRED... */
#include "sqlsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_row {
  char hardness[16];
  int exact, partial[10], parse_error;
  int exec; /* -1 when the reference has none (no database) */
} ref_row;

/* Reads <ref-dir>/<model>.tsv; returns rows (indexed by item) or NULL. */
static ref_row *read_ref(const char *path, int *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  char line[65536];
  int cap = 2048, cnt = 0;
  ref_row *rows = calloc((size_t)cap, sizeof *rows);
  int col_exact = -1, col_hard = -1, col_perr = -1, col_exec = -1, col_part[10];
  for (int k = 0; k < 10; k++) col_part[k] = -1;
  int header = 1;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    char *fields[64];
    int nf = 0;
    for (char *p = line;; ) {
      fields[nf++] = p;
      char *t = strchr(p, '\t');
      if (!t || nf == 64) break;
      *t = 0;
      p = t + 1;
    }
    if (header) {
      for (int i = 0; i < nf; i++) {
        if (!strcmp(fields[i], "exact")) col_exact = i;
        if (!strcmp(fields[i], "hardness")) col_hard = i;
        if (!strcmp(fields[i], "parse_error_official")) col_perr = i;
        if (!strcmp(fields[i], "exec")) col_exec = i;
        for (int k = 0; k < 10; k++)
          if (!strcmp(fields[i], sqlsim_spider_partial_names[k])) col_part[k] = i;
      }
      header = 0;
      continue;
    }
    int idx = atoi(fields[0]);
    if (idx >= cap || col_exact < 0) continue;
    ref_row *r = &rows[idx];
    snprintf(r->hardness, sizeof r->hardness, "%s", fields[col_hard]);
    r->exact = atoi(fields[col_exact]);
    for (int k = 0; k < 10; k++) r->partial[k] = col_part[k] >= 0 ? atoi(fields[col_part[k]]) : -1;
    r->parse_error = col_perr >= 0 && col_perr < nf ? atoi(fields[col_perr]) : 0;
    r->exec = col_exec >= 0 && col_exec < nf && fields[col_exec][0] ? atoi(fields[col_exec]) : -1;
    if (idx + 1 > cnt) cnt = idx + 1;
  }
  fclose(f);
  *n = cnt;
  return rows;
}

/* One open database per db_id. */
typedef struct dbc {
  char id[128];
  sqlsim_db *db;
} dbc;
static dbc dbs[256];
static int ndbs;
static sqlsim_db *db_for(const char *dir, const char *id) {
  for (int i = 0; i < ndbs; i++)
    if (!strcmp(dbs[i].id, id)) return dbs[i].db;
  if (ndbs == 256 || !dir) return NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s/%s/%s.sqlite", dir, id, id);
  snprintf(dbs[ndbs].id, sizeof dbs[ndbs].id, "%s", id);
  sqlsim_exec_opts o = {0};
  o.timeout_s = 60;
  if (sqlsim_db_open(path, &o, &dbs[ndbs].db, NULL)) dbs[ndbs].db = NULL;
  return dbs[ndbs++].db;
}

int main(int argc, char **argv) {
  const char *gold_path = NULL, *tables = NULL, *db_dir = NULL, *ref_dir = NULL;
  char **preds = calloc((size_t)argc, sizeof *preds);
  int npreds = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) db_dir = argv[++i];
    else if (!strcmp(argv[i], "--ref-dir") && i + 1 < argc) ref_dir = argv[++i];
    else preds[npreds++] = argv[i];
  }
  if (!gold_path || !tables || !ref_dir || !npreds) {
    fprintf(stderr, "usage: spider_agreement --gold FILE --tables FILE [--db-dir DIR] --ref-dir DIR PRED...\n");
    return 2;
  }
  sqlsim_error err = {0};
  sqlsim_catalog *cat;
  sqlsim_itemset *gold;
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err) || sqlsim_items_load(gold_path, &gold, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 2;
  }
  sqlsim_spider *ev;
  sqlsim_spider_new(cat, db_dir, SQLSIM_SPIDER_COMPATIBLE, &ev, &err);
  sqlsim_spider_gold **golds = calloc((size_t)gold->n, sizeof *golds);
  for (int i = 0; i < gold->n; i++)
    if (sqlsim_spider_gold_prepare(ev, gold->items[i].sql, gold->items[i].db_id, &golds[i], &err))
      printf("GOLD %d: %s\n", i, err.message);
  int bad_total = 0;
  for (int p = 0; p < npreds; p++) {
    sqlsim_itemset *set;
    if (sqlsim_items_load(preds[p], &set, &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 2;
    }
    const char *b = strrchr(preds[p], '/');
    b = b ? b + 1 : preds[p];
    char model[256], path[1024];
    snprintf(model, sizeof model, "%.*s", (int)(strrchr(b, '.') ? strrchr(b, '.') - b : (long)strlen(b)), b);
    snprintf(path, sizeof path, "%s/%s.tsv", ref_dir, model);
    int nref;
    ref_row *ref = read_ref(path, &nref);
    if (!ref) {
      printf("%s: no reference file %s\n", model, path);
      bad_total++;
      continue;
    }
    int agree[13] = {0}, items = 0, all_agree = 0, ex_n = 0, ex_agree = 0;
    for (int i = 0; i < set->n && i < gold->n && i < nref; i++) {
      if (!golds[i]) continue;
      items++;
      sqlsim_spider_score s;
      sqlsim_spider_score_pred(ev, golds[i], set->items[i].sql, &s);
      const ref_row *r = &ref[i];
      int ok = 1;
      int h = !strcmp(sqlsim_hardness_names[s.hardness], r->hardness);
      agree[0] += h;
      ok &= h;
      agree[1] += s.exact == r->exact;
      ok &= s.exact == r->exact;
      for (int k = 0; k < 10; k++) {
        agree[2 + k] += s.f1[k] == r->partial[k];
        ok &= s.f1[k] == r->partial[k];
      }
      agree[12] += s.pred_rejected == r->parse_error;
      ok &= s.pred_rejected == r->parse_error;
      if (r->exec >= 0) {
        sqlsim_db *db = db_for(db_dir, gold->items[i].db_id);
        char why[300];
        int ex = db ? sqlsim_ex_spider_item(db, gold->items[i].sql, set->items[i].sql, why, sizeof why) : -2;
        ex_n++;
        ex_agree += ex == r->exec;
        if (ex != r->exec) {
          ok = 0;
          printf("DIFF-EXEC %s #%d: sqlsim %d official %d (%s)\n", model, i, ex, r->exec, ex == -1 ? why : "");
        }
      }
      all_agree += ok;
      if (!ok) {
        printf("DIFF %s #%d: hardness %s/%s exact %d/%d rejected %d/%d partial", model, i,
               sqlsim_hardness_names[s.hardness], r->hardness, s.exact, r->exact, s.pred_rejected,
               r->parse_error);
        for (int k = 0; k < 10; k++)
          if (s.f1[k] != r->partial[k]) printf(" %s=%d/%d", sqlsim_spider_partial_names[k], s.f1[k], r->partial[k]);
        printf(" (sqlsim/official)%s%s\n   pred: %s\n   gold: %s\n", s.error.code ? " -- " : "",
               s.error.code ? s.error.message : "", set->items[i].sql, gold->items[i].sql);
      }
    }
    printf("%s: %d/%d items agree on everything; exec %d/%d, hardness %d, exact %d, rejected %d, partial",
           model, all_agree, items, ex_agree, ex_n, agree[0], agree[1], agree[12]);
    for (int k = 0; k < 10; k++) printf(" %d", agree[2 + k]);
    printf("\n");
    bad_total += items - all_agree;
    free(ref);
    sqlsim_items_free(set);
  }
  for (int i = 0; i < ndbs; i++) sqlsim_db_close(dbs[i].db);
  for (int i = 0; i < gold->n; i++) sqlsim_spider_gold_free(golds[i]);
  free(golds);
  free(preds);
  sqlsim_spider_free(ev);
  sqlsim_items_free(gold);
  sqlsim_catalog_free(cat);
  sqlsim_thread_cleanup();
  return bad_total ? 1 : 0;
}
