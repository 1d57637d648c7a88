/* cmd_eval.c -- `sqlsim eval`: score prediction files against gold.
 *
 *   sqlsim eval --metrics match --gold FILE --pred FILE [--pred FILE ...]
 *               --tables FILE [--db-dir DIR] [--mode compatible|corrected]
 *               [--per-item FILE] [--format text|json]
 *
 * Gold and predictions are read in any published format (core/items.c). A
 * count mismatch is an error before any scoring. Each gold query is parsed
 * once; every prediction file is scored against it. The text report has the
 * official evaluator's layout per model, then one column per model. */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *model_name(const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  static char buf[8][256];
  static int slot;
  char *out = buf[slot++ % 8];
  snprintf(out, 256, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
  return out;
}

static void print_row(FILE *f, const char *name, const double *v, int n, int as_int) {
  fprintf(f, "%-20s", name);
  for (int i = 0; i < n; i++) {
    if (as_int) fprintf(f, " %-20d", (int)v[i]);
    else if (isnan(v[i])) fprintf(f, " %-20s", "n/a");
    else fprintf(f, " %-20.3f", v[i]);
  }
  fputc('\n', f);
}

/* The official print_scores() layout for the match metric. */
static void print_official(FILE *f, const sqlsim_spider_totals *t, int mode) {
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  fprintf(f, "%-20s", "");
  for (int l = 0; l < 5; l++) fprintf(f, " %-20s", levels[l]);
  fputc('\n', f);
  double counts[5], exact[5], acc[5][SQLSIM_SPIDER_NPARTIAL], rec[5][SQLSIM_SPIDER_NPARTIAL],
      f1[5][SQLSIM_SPIDER_NPARTIAL];
  for (int l = 0; l < 5; l++) {
    counts[l] = t->count[l];
    sqlsim_spider_totals_final(t, mode, l, &exact[l], acc[l], rec[l], f1[l]);
  }
  print_row(f, "count", counts, 5, 1);
  fputs("\n====================== EXACT MATCHING ACCURACY =====================\n", f);
  print_row(f, "exact match", exact, 5, 0);
  const char *titles[3] = {"\n---------------------PARTIAL MATCHING ACCURACY----------------------\n",
                           "---------------------- PARTIAL MATCHING RECALL ----------------------\n",
                           "---------------------- PARTIAL MATCHING F1 --------------------------\n"};
  for (int w = 0; w < 3; w++) {
    fputs(titles[w], f);
    for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
      double row[5];
      for (int l = 0; l < 5; l++) row[l] = w == 0 ? acc[l][k] : w == 1 ? rec[l][k] : f1[l][k];
      print_row(f, sqlsim_spider_partial_labels[k], row, 5, 0);
    }
  }
}

static void json_num(strbuf *sb, double v) {
  if (isnan(v)) sb_puts(sb, "null");
  else sb_printf(sb, "%.6g", v);
}

static void json_totals(strbuf *sb, const sqlsim_spider_totals *t, int mode) {
  static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
  sb_puts(sb, "{");
  for (int l = 0; l < 5; l++) {
    double exact, acc[SQLSIM_SPIDER_NPARTIAL], rec[SQLSIM_SPIDER_NPARTIAL], f1[SQLSIM_SPIDER_NPARTIAL];
    sqlsim_spider_totals_final(t, mode, l, &exact, acc, rec, f1);
    sb_printf(sb, "%s\"%s\":{\"count\":%d,\"exact\":", l ? "," : "", levels[l], t->count[l]);
    json_num(sb, exact);
    sb_puts(sb, ",\"partial\":{");
    for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++) {
      sb_printf(sb, "%s\"%s\":{\"acc\":", k ? "," : "", sqlsim_spider_partial_names[k]);
      json_num(sb, acc[k]);
      sb_puts(sb, ",\"rec\":");
      json_num(sb, rec[k]);
      sb_puts(sb, ",\"f1\":");
      json_num(sb, f1[k]);
      sb_puts(sb, "}");
    }
    sb_puts(sb, "}}");
  }
  sb_puts(sb, "}");
}

static void json_error(strbuf *sb, const sqlsim_error *e, const char *side) {
  sb_puts(sb, "{\"message\":");
  sb_json_str(sb, e->message);
  if (e->offset >= 0) sb_printf(sb, ",\"offset\":%d", e->offset);
  else sb_puts(sb, ",\"offset\":null");
  sb_printf(sb, ",\"side\":\"%s\"}", side);
}

int cmd_eval(int argc, char **argv) {
  const char *metrics = "match", *gold_path = NULL, *per_item = NULL, *db_dir = NULL;
  const char *preds[64];
  int npreds = 0, mode = SQLSIM_SPIDER_COMPATIBLE, json = 0;
  cli_schema_opts so = {0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int r = cli_schema_arg(&so, argc, argv, &i);
    if (r < 0) return -1;
    if (r) continue;
    if (i + 1 >= argc) return error("eval: %s needs a value (or is unknown)", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--metrics")) metrics = v;
    else if (!strcmp(a, "--gold")) gold_path = v;
    else if (!strcmp(a, "--pred")) {
      if (npreds == 64) return error("eval: at most 64 --pred files");
      preds[npreds++] = v;
    } else if (!strcmp(a, "--db-dir")) db_dir = v;
    else if (!strcmp(a, "--per-item")) per_item = v;
    else if (!strcmp(a, "--mode")) {
      if (!strcmp(v, "compatible")) mode = SQLSIM_SPIDER_COMPATIBLE;
      else if (!strcmp(v, "corrected")) mode = SQLSIM_SPIDER_CORRECTED;
      else return error("eval: --mode must be compatible or corrected, not '%s'", v);
    } else if (!strcmp(a, "--format")) {
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) return error("eval: --format must be text or json, not '%s'", v);
    } else {
      return error("eval: unknown option '%s'", a);
    }
  }
  /* metrics */
  char *mlist = strdup(metrics);
  int want_match = 0;
  for (char *tok = strtok(mlist, ","); tok; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "match")) want_match = 1;
    else {
      free(mlist);
      return error("eval: unknown metric '%s' (available: match)", tok);
    }
  }
  free(mlist);
  if (!want_match) return error("eval: no metric given");
  if (!gold_path) return error("eval: --gold FILE is required");
  if (!npreds) return error("eval: at least one --pred FILE is required");
  if (!so.tables) return error("eval: --tables FILE is required for the match metric");
  if (cli_schema_load(&so)) return -1;

  int rc = 0;
  sqlsim_error err = {0};
  sqlsim_itemset *gold = NULL, *pred[64] = {0};
  if (sqlsim_items_load(gold_path, &gold, &err)) {
    rc = error("%s", err.message);
    goto out;
  }
  for (int p = 0; p < npreds; p++) {
    if (sqlsim_items_load(preds[p], &pred[p], &err)) {
      rc = error("%s", err.message);
      goto out;
    }
    if (pred[p]->n != gold->n) {
      rc = error("%s has %d predictions but %s has %d gold queries: they must pair up one to one",
                 preds[p], pred[p]->n, gold_path, gold->n);
      goto out;
    }
  }
  for (int i = 0; i < gold->n; i++)
    if (!gold->items[i].db_id) {
      rc = error("%s: item %d (line %d) has no db_id", gold_path, i, gold->items[i].line);
      goto out;
    }

  sqlsim_spider *ev;
  sqlsim_spider_new(so.catalog, db_dir, mode, &ev, NULL);
  FILE *pf = NULL;
  if (per_item && !(pf = fopen(per_item, "w"))) {
    rc = error("%s: cannot write", per_item);
    sqlsim_spider_free(ev);
    goto out;
  }
  sqlsim_spider_totals *tot = calloc((size_t)npreds, sizeof *tot);
  int gold_errors = 0;
  strbuf line = {0};
  for (int i = 0; i < gold->n; i++) {
    const sqlsim_item *gi = &gold->items[i];
    sqlsim_spider_gold *g = NULL;
    sqlsim_error gerr = {0};
    if (sqlsim_spider_gold_prepare(ev, gi->sql, gi->db_id, &g, &gerr)) gold_errors++;
    for (int p = 0; p < npreds; p++) {
      sqlsim_spider_score s;
      if (g) {
        sqlsim_spider_score_pred(ev, g, pred[p]->items[i].sql, &s);
        sqlsim_spider_totals_add(&tot[p], &s);
      }
      if (!pf) continue;
      line.len = 0;
      sb_puts(&line, "{\"model\":");
      sb_json_str(&line, model_name(preds[p]));
      sb_printf(&line, ",\"index\":%d,\"db_id\":", i);
      sb_json_str(&line, gi->db_id);
      if (!g) {
        sb_puts(&line, ",\"hardness\":null,\"exact\":null,\"partial\":null,\"error\":");
        json_error(&line, &gerr, "gold");
      } else {
        sb_printf(&line, ",\"hardness\":\"%s\",\"exact\":%d,\"partial\":{",
                  sqlsim_hardness_names[s.hardness], s.exact);
        for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++)
          sb_printf(&line, "%s\"%s\":%d", k ? "," : "", sqlsim_spider_partial_names[k], s.f1[k]);
        sb_puts(&line, "},\"error\":");
        if (s.error.code) json_error(&line, &s.error, "pred");
        else sb_puts(&line, "null");
      }
      sb_puts(&line, "}\n");
      fwrite(line.buf, 1, line.len, pf);
    }
  }
  sb_free(&line);
  if (pf) fclose(pf);

  const char *mode_name = mode == SQLSIM_SPIDER_COMPATIBLE ? "compatible" : "corrected";
  if (json) {
    strbuf sb = {0};
    sb_printf(&sb, "{\"metric\":\"match\",\"mode\":\"%s\",\"gold\":", mode_name);
    sb_json_str(&sb, gold_path);
    sb_printf(&sb, ",\"items\":%d,\"gold_errors\":%d,\"models\":[", gold->n, gold_errors);
    for (int p = 0; p < npreds; p++) {
      sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
      sb_json_str(&sb, model_name(preds[p]));
      sb_printf(&sb, ",\"pred_rejected\":%d,\"levels\":", tot[p].rejected);
      json_totals(&sb, &tot[p], mode);
      sb_puts(&sb, "}");
    }
    sb_puts(&sb, "]}\n");
    fputs(sb.buf, stdout);
    sb_free(&sb);
  } else {
    for (int p = 0; p < npreds; p++) {
      printf("== %s (%s mode): %d items", model_name(preds[p]), mode_name, gold->n);
      if (mode == SQLSIM_SPIDER_COMPATIBLE)
        printf(", %d predictions the official parser rejects (scored as empty)", tot[p].rejected);
      else
        printf(", %d predictions sqlsim cannot read (scored as empty)", tot[p].rejected);
      if (gold_errors) printf(", %d gold queries not scored", gold_errors);
      printf("\n");
      print_official(stdout, &tot[p], mode);
      printf("\n");
    }
    if (npreds > 1) {
      static const char *levels[] = {"easy", "medium", "hard", "extra", "all"};
      printf("== exact match by model\n%-20s", "");
      for (int p = 0; p < npreds; p++) printf(" %-20.20s", model_name(preds[p]));
      printf("\n");
      for (int l = 0; l < 5; l++) {
        printf("%-20s", levels[l]);
        for (int p = 0; p < npreds; p++)
          printf(" %-20.3f", tot[p].count[l] ? tot[p].exact[l] / tot[p].count[l] : 0.0);
        printf("\n");
      }
    }
  }
  free(tot);
  sqlsim_spider_free(ev);
out:
  sqlsim_items_free(gold);
  for (int p = 0; p < npreds; p++) sqlsim_items_free(pred[p]);
  sqlsim_catalog_free(so.catalog);
  return rc;
}
