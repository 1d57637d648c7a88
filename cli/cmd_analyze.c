/* cmd_analyze.c -- `sqlsim analyze`: what kinds of mistakes models make.
 *
 *   sqlsim analyze --gold FILE [--tables FILE] [--db-dir DIR | --sqlite FILE]
 *                  --pred FILE [--pred FILE ...] [--gold FILE ... --pred ...]
 *                  [-j N] [--timeout S] [--no-exec] [--per-item FILE] [--csv FILE]
 *                  [--html FILE] [--format text|json]
 *
 * Each --gold starts a benchmark; the --tables, --db-dir, --sqlite and --pred
 * after it belong to it, so Spider and BIRD files go in one call. Per item and
 * model: the structural categories of the calibrated diff (what differs, where),
 * the execution facts when a database is there (error, empty result, correct),
 * and the scores. Reports: JSON Lines and CSV per item, a text summary of
 * categories by model and by hardness/difficulty/case_type and database, a
 * side-by-side comparison of models, and a self-contained HTML report. */
#include "cli.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



/* ---------------------------------------------------------------- outputs */

static void write_jsonl(FILE *f, const run *g) {
  strbuf sb = {0};
  for (size_t k = 0; k < g->done; k++) {
    sb.len = 0;
    run_item_json(&sb, g, k);
    fwrite(sb.buf, 1, sb.len, f);
  }
  sb_free(&sb);
}

static void csv_field(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void write_csv(FILE *f, const run *g, int header) {
  const run *c = g;
  if (header) fputs("benchmark,model,index,db_id,group,categories,exact,bis,score,ex_spider,ex_bird\n", f);
  for (int i = 0; i < c->gold->n; i++)
    for (int p = 0; p < g->npreds; p++) {
      const sqlsim_record *r = R(c, p, i);
      csv_field(f, g->gold_path);
      fputc(',', f);
      csv_field(f, model_name(g->pred_paths[p]));
      fprintf(f, ",%d,", i);
      csv_field(f, c->gold->items[i].db_id);
      fputc(',', f);
      csv_field(f, run_group(c, i));
      fputc(',', f);
      char buf[1024] = "";
      for (int k = 0; k < SQLSIM_NCAT; k++)
        if (r->cats.mask & (1u << k)) {
          if (buf[0]) strncat(buf, ";", sizeof buf - strlen(buf) - 1);
          strncat(buf, sqlsim_category_names[k], sizeof buf - strlen(buf) - 1);
        }
      csv_field(f, buf);
      if (r->has_match) fprintf(f, ",%d", r->match.exact);
      else fputs(",", f);
      fprintf(f, ",%.4g,%.4g", r->bis, r->score);
      if (r->ex_bird >= 0) fprintf(f, ",%d,%d\n", r->ex_spider, r->ex_bird);
      else fputs(",,\n", f);
    }
}

/* Distinct labels of a per-item key (group or database), in first-seen order. */
static int labels(run *g, int by_db, const char **out, int max) {
  int n = 0;
  for (int i = 0; i < g->gold->n && n < max; i++) {
    const char *l = by_db ? g->gold->items[i].db_id : run_group(g, i);
    if (!l) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = !strcmp(out[k], l);
    if (!seen) out[n++] = l;
  }
  return n;
}

/* Model names without the prefix they all share ("predict_mini_dev_..."). */
static const char *short_name(run *g, int p) {
  const char *first = model_name(g->pred_paths[0]);
  size_t common = strlen(first);
  for (int q = 1; q < g->npreds; q++) {
    const char *o = model_name(g->pred_paths[q]);
    size_t k = 0;
    while (k < common && o[k] == first[k]) k++;
    common = k;
  }
  const char *m = model_name(g->pred_paths[p]);
  if (g->npreds < 2 || common >= strlen(m)) return m;
  return m + common;
}

/* Two models side by side: the items one gets right and the other not, and the
 * categories whose share differs most between them. */
static void print_pair(run *g, int a, int b) {
  const run *c = g;
  int n = c->gold->n;
  printf("\n%s vs %s\n", short_name(g, a), short_name(g, b));
  for (int side = 0; side < 2; side++) {
    int x = side ? b : a, y = side ? a : b, cnt = 0;
    strbuf sb = {0};
    for (int i = 0; i < n; i++)
      if (an_correct(R(c, x, i)) && !an_correct(R(c, y, i))) {
        if (cnt < 20) sb_printf(&sb, " #%d", i);
        cnt++;
      }
    printf("  right only in %-20.20s %4d items%s%s%s\n", short_name(g, x), cnt, sb.len ? ":" : "", sb.len ? sb.buf : "",
           cnt > 20 ? " ..." : "");
    sb_free(&sb);
  }
  int order[SQLSIM_NCAT], na = 0;
  int ca[SQLSIM_NCAT] = {0}, cb[SQLSIM_NCAT] = {0};
  for (int k = 2; k < SQLSIM_NCAT; k++) { /* the error categories */
    for (int i = 0; i < n; i++) {
      ca[k] += (R(c, a, i)->cats.mask >> k) & 1;
      cb[k] += (R(c, b, i)->cats.mask >> k) & 1;
    }
    if (ca[k] != cb[k]) order[na++] = k;
  }
  for (int i = 1; i < na; i++) /* by the size of the difference, largest first */
    for (int j = i; j > 0 && abs(ca[order[j]] - cb[order[j]]) > abs(ca[order[j - 1]] - cb[order[j - 1]]); j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  printf("  categories that differ most:");
  for (int i = 0; i < na && i < 5; i++)
    printf("%s %s %d vs %d", i ? "," : "", sqlsim_category_names[order[i]], ca[order[i]], cb[order[i]]);
  printf("%s\n", na ? "" : " none");
}

static void print_summary(run *g) {
  const run *c = g;
  int n = c->gold->n;
  printf("== %s: %d items x %d models, %s\n", g->gold_path, n, g->npreds,
         g->with_db ? (g->bird ? "executed (correct = BIRD EX)" : "executed (correct = Spider EX)")
                    : "structure only (no databases)");
  /* categories x models */
  printf("%-22s", "category");
  for (int p = 0; p < g->npreds; p++) printf(" %14.14s", short_name(g, p));
  printf("\n");
  for (int k = 0; k < SQLSIM_NCAT; k++) {
    int any = 0, cnt[64] = {0};
    for (int p = 0; p < g->npreds; p++)
      for (int i = 0; i < n; i++)
        if (R(c, p, i)->cats.mask & (1u << k)) cnt[p]++, any = 1;
    if (!any) continue;
    printf("%-22s", sqlsim_category_names[k]);
    for (int p = 0; p < g->npreds; p++) printf(" %7d %5.1f%%", cnt[p], 100.0 * cnt[p] / n);
    printf("\n");
  }
  /* categories x group and x database, all models together */
  for (int by_db = 0; by_db < 2; by_db++) {
    const char *lab[256];
    int nl = labels(g, by_db, lab, 256);
    if (nl < 2 && !by_db) continue;
    if (by_db && nl > 40) nl = 40;
    printf("\n-- %s (all models; %% of the pairs in each column)\n%-22s", by_db ? "by database" : "by group", "category");
    for (int l = 0; l < nl; l++) printf(" %11.11s", lab[l]);
    printf("\n");
    int tot[256] = {0};
    for (int i = 0; i < n; i++)
      for (int l = 0; l < nl; l++) {
        const char *x = by_db ? c->gold->items[i].db_id : run_group(c, i);
        if (x && !strcmp(x, lab[l])) tot[l] += g->npreds;
      }
    for (int k = 0; k < SQLSIM_NCAT; k++) {
      int cnt[256] = {0}, any = 0;
      for (int i = 0; i < n; i++) {
        const char *x = by_db ? c->gold->items[i].db_id : run_group(c, i);
        if (!x) continue;
        for (int l = 0; l < nl; l++)
          if (!strcmp(x, lab[l]))
            for (int p = 0; p < g->npreds; p++)
              if (R(c, p, i)->cats.mask & (1u << k)) cnt[l]++, any = 1;
      }
      if (!any) continue;
      printf("%-22s", sqlsim_category_names[k]);
      for (int l = 0; l < nl; l++) printf(" %10.1f%%", tot[l] ? 100.0 * cnt[l] / tot[l] : 0.0);
      printf("\n");
    }
  }
  /* side by side */
  if (g->npreds > 1) {
    printf("\n-- side by side: items the row model gets right and the column model does not\n%-22s", "");
    for (int q = 0; q < g->npreds; q++) printf(" %14.14s", short_name(g, q));
    printf("\n");
    for (int p = 0; p < g->npreds; p++) {
      printf("%-22.22s", short_name(g, p));
      for (int q = 0; q < g->npreds; q++) {
        int cnt = 0;
        for (int i = 0; i < n && p != q; i++) cnt += an_correct(R(c, p, i)) && !an_correct(R(c, q, i));
        if (p == q) printf(" %14s", "-");
        else printf(" %14d", cnt);
      }
      printf("\n");
    }
    /* pairs in detail: all pairs of up to 4 models, else each model against the best */
    int best = 0, ncorrect[64] = {0};
    for (int p = 0; p < g->npreds; p++) {
      for (int i = 0; i < n; i++) ncorrect[p] += an_correct(R(c, p, i));
      if (ncorrect[p] > ncorrect[best]) best = p;
    }
    for (int p = 0; p < g->npreds; p++)
      for (int q = p + 1; q < g->npreds; q++) {
        int a = p, b = q;
        if (g->npreds > 4) {
          if (p != best && q != best) continue;
          if (q == best) a = q, b = p;
        }
        print_pair(g, a, b);
      }
  }
  printf("\n");
}

/* ---------------------------------------------------------------- command */

int cmd_analyze(int argc, char **argv) {
  run *groups = calloc(16, sizeof *groups);
  int ng = 0, jobs = 1, no_exec = 0, json = 0;
  double timeout = 30;
  const char *per_item = NULL, *csv = NULL, *html = NULL;
  int rc = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--no-exec")) {
      no_exec = 1;
      continue;
    }
    if (i + 1 >= argc) {
      free(groups);
      return error("analyze: %s needs a value (or is unknown)", a);
    }
    const char *v = argv[++i];
    run *g = ng ? &groups[ng - 1] : NULL;
    if (!strcmp(a, "--gold")) {
      if (ng == 16) {
        free(groups);
        return error("analyze: at most 16 --gold benchmarks");
      }
      groups[ng++].gold_path = v;
    } else if (!strcmp(a, "--tables") || !strcmp(a, "--db-dir") || !strcmp(a, "--sqlite") || !strcmp(a, "--pred")) {
      if (!g) {
        free(groups);
        return error("analyze: %s belongs to a benchmark: give --gold first", a);
      }
      if (!strcmp(a, "--tables")) g->tables = v;
      else if (!strcmp(a, "--db-dir")) {
        if (cli_dir(a, v)) {
          free(groups);
          return -1;
        }
        g->db_dir = v;
      }
      else if (!strcmp(a, "--sqlite")) g->sqlite = v;
      else if (g->npreds == 64) {
        free(groups);
        return error("analyze: at most 64 --pred files per benchmark");
      } else g->pred_paths[g->npreds++] = v;
    } else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
      if (cli_int(a, v, 1, 1024, &jobs)) {
        free(groups);
        return -1;
      }
    } else if (!strcmp(a, "--timeout")) {
      if (cli_double(a, v, 0.001, CLI_MAX_TIMEOUT, &timeout)) {
        free(groups);
        return -1;
      }
    }
    else if (!strcmp(a, "--per-item")) per_item = v;
    else if (!strcmp(a, "--csv")) csv = v;
    else if (!strcmp(a, "--html")) html = v;
    else if (!strcmp(a, "--format")) {
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) {
        free(groups);
        return error("analyze: --format must be text or json, not '%s'", v);
      }
    } else {
      free(groups);
      return error("analyze: unknown option '%s'", a);
    }
  }
  if (!ng) {
    free(groups);
    return error("analyze: give at least one --gold FILE with its --pred files");
  }
  for (int k = 0; k < ng; k++)
    if (!groups[k].npreds) {
      rc = error("analyze: %s has no --pred file", groups[k].gold_path);
      goto out;
    }
  /* load and run each benchmark */
  for (int k = 0; k < ng && !rc; k++) {
    run *g = &groups[k];
    sqlsim_config cfg = {.tables = g->tables, .db_dir = no_exec ? NULL : g->db_dir,
                         .sqlite = g->sqlite, .timeout_s = timeout, .iterations = 1,
                         .metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES};
    if (g->tables && !g->sqlite) cfg.metrics |= SQLSIM_M_MATCH;
    if (!no_exec && (g->db_dir || g->sqlite)) cfg.metrics |= SQLSIM_M_EXEC;
    if (run_load(g, &cfg)) {
      rc = -1;
      break;
    }
    sqlsim_batch_opts bo = {.jobs = jobs};
    run_score(g, &bo);
  }
  if (rc) goto out;
  if (per_item) {
    FILE *f = fopen(per_item, "w");
    if (!f) {
      rc = error("%s: cannot write", per_item);
      goto out;
    }
    for (int k = 0; k < ng; k++) write_jsonl(f, &groups[k]);
    fclose(f);
  }
  if (csv) {
    FILE *f = fopen(csv, "w");
    if (!f) {
      rc = error("%s: cannot write", csv);
      goto out;
    }
    for (int k = 0; k < ng; k++) write_csv(f, &groups[k], k == 0);
    fclose(f);
  }
  if (html && html_report(html, groups, ng)) {
    rc = error("%s: cannot write the HTML report", html);
    goto out;
  }
  if (json) {
    strbuf sb = {0};
    sb_puts(&sb, "{\"benchmarks\":[");
    for (int k = 0; k < ng; k++) {
      run *g = &groups[k];
      sb_puts(&sb, k ? ",{\"gold\":" : "{\"gold\":");
      sb_json_str(&sb, g->gold_path);
      sb_printf(&sb, ",\"items\":%d,\"executed\":%s,\"models\":[", g->gold->n, g->with_db ? "true" : "false");
      for (int p = 0; p < g->npreds; p++) {
        sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
        sb_json_str(&sb, model_name(g->pred_paths[p]));
        sb_puts(&sb, ",\"categories\":{");
        int first = 1;
        for (int cat = 0; cat < SQLSIM_NCAT; cat++) {
          int cnt = 0;
          for (int i = 0; i < g->gold->n; i++) cnt += (R(g, p, i)->cats.mask >> cat) & 1;
          if (!cnt) continue;
          sb_printf(&sb, "%s\"%s\":%d", first ? "" : ",", sqlsim_category_names[cat], cnt);
          first = 0;
        }
        sb_puts(&sb, "}}");
      }
      sb_puts(&sb, "]}");
    }
    sb_puts(&sb, "]}\n");
    fputs(sb.buf, stdout);
    sb_free(&sb);
  } else {
    for (int k = 0; k < ng; k++) print_summary(&groups[k]);
  }
out:
  for (int k = 0; k < ng; k++) run_free(&groups[k]);
  free(groups);
  return rc;
}
