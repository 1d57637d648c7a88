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
#include "analyze.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int an_correct(const rec *r) { return (r->cats.mask & ((1u << SQLSIM_CAT_CORRECT) | (1u << SQLSIM_CAT_CORRECT_OTHER_FORM))) != 0; }

/* The first structural evidence, for "correct, written another way". */
static const char *first_evidence(const sqlsim_categories *c) {
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if ((c->mask & (1u << k)) && c->evidence[k]) return c->evidence[k];
  return "";
}

static void set_only(rec *r, int cat, const char *ev) {
  r->cats.mask = 1u << cat;
  memset(r->cats.evidence, 0, sizeof r->cats.evidence);
  r->cats.evidence[cat] = ev;
}

/* Structural categories and execution facts become the item's final categories. */
static void finalize(an_group *g, int p, int i) {
  eval_ctx *c = &g->c;
  rec *r = R(c, p, i);
  sqlsim_categories *k = &r->cats;
  if (!r->has_bis) { /* the gold itself does not parse */
    set_only(r, SQLSIM_CAT_OTHER, sqlsim_arena_printf(c->arena, "not scored: %s",
                                                      c->gold_err[i] ? c->gold_err[i] : "gold unreadable"));
    return;
  }
  /* no database for this item, or its gold fails to run: structure only */
  if (k->mask & (1u << SQLSIM_CAT_UNPARSEABLE)) {
    const char *ev = k->evidence[SQLSIM_CAT_UNPARSEABLE];
    set_only(r, SQLSIM_CAT_UNPARSEABLE, ev);
    return;
  }
  if (r->dialect) {
    k->mask |= 1u << SQLSIM_CAT_DIALECT;
    k->evidence[SQLSIM_CAT_DIALECT] = r->dialect;
  }
  int ran = r->ex_bird >= 0;
  if (!ran) { /* structure only */
    if (!k->mask) set_only(r, SQLSIM_CAT_CORRECT, "no difference that changes the result (structure only, not executed)");
    return;
  }
  if (r->ex_err[0]) {
    int cat = r->dialect ? SQLSIM_CAT_DIALECT : SQLSIM_CAT_EXEC_ERROR;
    k->mask |= 1u << cat;
    if (!r->dialect) k->evidence[cat] = sqlsim_arena_strdup(c->arena, r->ex_err);
    return;
  }
  int ok = g->bird ? r->ex_bird == 1 : r->ex_spider == 1;
  if (ok) {
    if (k->mask & ~(1u << SQLSIM_CAT_DIALECT))
      set_only(r, SQLSIM_CAT_CORRECT_OTHER_FORM,
               sqlsim_arena_printf(c->arena, "same result, written differently: %s", first_evidence(k)));
    else
      set_only(r, SQLSIM_CAT_CORRECT, "same result as the gold");
    return;
  }
  if (r->pred_rows == 0 && r->gold_rows > 0) {
    k->mask |= 1u << SQLSIM_CAT_EMPTY_RESULT;
    k->evidence[SQLSIM_CAT_EMPTY_RESULT] =
        sqlsim_arena_printf(c->arena, "no rows; the gold returns %ld", r->gold_rows);
  }
  if (!(k->mask & ~((1u << SQLSIM_CAT_EMPTY_RESULT) | (1u << SQLSIM_CAT_DIALECT)))) {
    k->mask |= 1u << SQLSIM_CAT_OTHER;
    k->evidence[SQLSIM_CAT_OTHER] = sqlsim_arena_printf(
        c->arena, "results differ (%ld vs %ld rows) with no structural difference found", r->pred_rows,
        r->gold_rows);
  }
}

/* ---------------------------------------------------------------- outputs */

static void cats_json(strbuf *sb, const sqlsim_categories *k) {
  sb_puts(sb, "[");
  int first = 1;
  for (int i = 0; i < SQLSIM_NCAT; i++)
    if (k->mask & (1u << i)) {
      sb_printf(sb, "%s\"%s\"", first ? "" : ",", sqlsim_category_names[i]);
      first = 0;
    }
  sb_puts(sb, "],\"evidence\":{");
  first = 1;
  for (int i = 0; i < SQLSIM_NCAT; i++)
    if ((k->mask & (1u << i)) && k->evidence[i]) {
      sb_printf(sb, "%s\"%s\":", first ? "" : ",", sqlsim_category_names[i]);
      sb_json_str(sb, k->evidence[i]);
      first = 0;
    }
  sb_puts(sb, "}");
}

static void write_jsonl(FILE *f, an_group *g) {
  eval_ctx *c = &g->c;
  strbuf sb = {0};
  for (int i = 0; i < c->gold->n; i++)
    for (int p = 0; p < g->npreds; p++) {
      rec *r = R(c, p, i);
      const sqlsim_item *gi = &c->gold->items[i];
      sb.len = 0;
      sb_puts(&sb, "{\"model\":");
      sb_json_str(&sb, model_name(g->pred_paths[p]));
      sb_puts(&sb, ",\"benchmark\":");
      sb_json_str(&sb, g->gold_path);
      sb_printf(&sb, ",\"index\":%d,\"db_id\":", i);
      if (gi->db_id) sb_json_str(&sb, gi->db_id);
      else sb_puts(&sb, "null");
      const char *grp = group_of(c, i);
      sb_puts(&sb, ",\"group\":");
      if (grp) sb_json_str(&sb, grp);
      else sb_puts(&sb, "null");
      sb_puts(&sb, ",\"categories\":");
      cats_json(&sb, &r->cats);
      sb_printf(&sb, ",\"structure_only\":%s,\"scores\":{", r->ex_bird >= 0 ? "false" : "true");
      if (r->has_match) sb_printf(&sb, "\"exact\":%d,", r->match.exact);
      else sb_puts(&sb, "\"exact\":null,");
      sb_printf(&sb, "\"bis\":%.4g,\"score\":%.4g", r->bis, r->score);
      if (r->ex_bird >= 0) sb_printf(&sb, ",\"ex_spider\":%d,\"ex_bird\":%d", r->ex_spider, r->ex_bird);
      sb_puts(&sb, "}}\n");
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

static void write_csv(FILE *f, an_group *g, int header) {
  eval_ctx *c = &g->c;
  if (header) fputs("benchmark,model,index,db_id,group,categories,exact,bis,score,ex_spider,ex_bird\n", f);
  for (int i = 0; i < c->gold->n; i++)
    for (int p = 0; p < g->npreds; p++) {
      rec *r = R(c, p, i);
      csv_field(f, g->gold_path);
      fputc(',', f);
      csv_field(f, model_name(g->pred_paths[p]));
      fprintf(f, ",%d,", i);
      csv_field(f, c->gold->items[i].db_id);
      fputc(',', f);
      csv_field(f, group_of(c, i));
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
static int labels(an_group *g, int by_db, const char **out, int max) {
  int n = 0;
  for (int i = 0; i < g->c.gold->n && n < max; i++) {
    const char *l = by_db ? g->c.gold->items[i].db_id : group_of(&g->c, i);
    if (!l) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = !strcmp(out[k], l);
    if (!seen) out[n++] = l;
  }
  return n;
}

/* Model names without the prefix they all share ("predict_mini_dev_..."). */
static const char *short_name(an_group *g, int p) {
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
static void print_pair(an_group *g, int a, int b) {
  eval_ctx *c = &g->c;
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

static void print_summary(an_group *g) {
  eval_ctx *c = &g->c;
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
        const char *x = by_db ? c->gold->items[i].db_id : group_of(c, i);
        if (x && !strcmp(x, lab[l])) tot[l] += g->npreds;
      }
    for (int k = 0; k < SQLSIM_NCAT; k++) {
      int cnt[256] = {0}, any = 0;
      for (int i = 0; i < n; i++) {
        const char *x = by_db ? c->gold->items[i].db_id : group_of(c, i);
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
  an_group *groups = calloc(16, sizeof *groups);
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
    an_group *g = ng ? &groups[ng - 1] : NULL;
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
    an_group *g = &groups[k];
    eval_ctx *c = &g->c;
    memset(c, 0, sizeof *c);
    pthread_mutex_init(&c->mu, NULL);
    c->mode = SQLSIM_SPIDER_COMPATIBLE;
    c->jobs = jobs > 0 ? jobs : 1;
    c->timeout = timeout;
    c->iterations = 1;
    c->gold_path = g->gold_path;
    c->pred_paths = g->pred_paths;
    c->npreds = g->npreds;
    c->db_dir = g->db_dir;
    c->sqlite = g->sqlite;
    c->pred = g->pred;
    c->want_categories = 1;
    c->arena = sqlsim_arena_new();
    sqlsim_error err = {0};
    if (g->tables && sqlsim_catalog_load_tables_json(g->tables, &c->catalog, &err)) {
      rc = error("%s", err.message);
      break;
    }
    if (!g->tables && g->sqlite && sqlsim_catalog_load_sqlite(g->sqlite, &c->catalog, &err)) {
      rc = error("%s", err.message);
      break;
    }
    if (sqlsim_items_load(g->gold_path, &c->gold, &err)) {
      rc = error("%s", err.message);
      break;
    }
    for (int p = 0; p < g->npreds; p++) {
      if (sqlsim_items_load(g->pred_paths[p], &g->pred[p], &err)) {
        rc = error("%s", err.message);
        break;
      }
      if (g->pred[p]->n != c->gold->n) {
        rc = error("%s has %d predictions but %s has %d gold queries: they must pair up one to one",
                   g->pred_paths[p], g->pred[p]->n, g->gold_path, c->gold->n);
        break;
      }
    }
    if (rc) break;
    if (check_setup(c, !no_exec, 1)) {
      rc = -1;
      break;
    }
    g->bird = !strcmp(c->gold->format, "bird-json");
    if (!strcmp(c->gold->format, "bis-json")) c->now = "2023-01-17 00:00:00";
    size_t n = c->gold->n > 0 ? (size_t)c->gold->n : 1;
    c->recs = calloc((size_t)c->npreds * n, sizeof *c->recs);
    c->hardness = malloc(sizeof *c->hardness * n);
    c->gold_err = calloc(n, sizeof *c->gold_err);
    c->match_err = calloc(n, sizeof *c->match_err);
    for (size_t i = 0; i < n; i++) c->hardness[i] = SQLSIM_HARD_UNKNOWN;
    c->metrics = M_BIS;
    if (c->catalog && !c->sqlite) {
      c->metrics |= M_MATCH;
      phase_match(c);
    }
    phase_bis(c);
    g->with_db = !no_exec && (c->db_dir || c->sqlite);
    if (g->with_db) {
      c->metrics |= M_EXEC;
      phase_exec(c);
    }
    for (int p = 0; p < c->npreds; p++)
      for (int i = 0; i < c->gold->n; i++) {
        if (!g->with_db) R(c, p, i)->ex_bird = R(c, p, i)->ex_spider = -1;
        finalize(g, p, i);
      }
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
      an_group *g = &groups[k];
      sb_puts(&sb, k ? ",{\"gold\":" : "{\"gold\":");
      sb_json_str(&sb, g->gold_path);
      sb_printf(&sb, ",\"items\":%d,\"executed\":%s,\"models\":[", g->c.gold->n, g->with_db ? "true" : "false");
      for (int p = 0; p < g->npreds; p++) {
        sb_puts(&sb, p ? ",{\"model\":" : "{\"model\":");
        sb_json_str(&sb, model_name(g->pred_paths[p]));
        sb_puts(&sb, ",\"categories\":{");
        int first = 1;
        for (int cat = 0; cat < SQLSIM_NCAT; cat++) {
          int cnt = 0;
          for (int i = 0; i < g->c.gold->n; i++) cnt += (R(&g->c, p, i)->cats.mask >> cat) & 1;
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
  for (int k = 0; k < ng; k++) {
    an_group *g = &groups[k];
    eval_ctx *c = &g->c;
    if (c->gold_err)
      for (int i = 0; i < c->gold->n; i++) {
        free(c->gold_err[i]);
        free(c->match_err[i]);
      }
    free(c->gold_err);
    free(c->match_err);
    free(c->hardness);
    free(c->recs);
    sqlsim_items_free(c->gold);
    for (int p = 0; p < g->npreds; p++) sqlsim_items_free(g->pred[p]);
    sqlsim_catalog_free(c->catalog);
    if (c->arena) pthread_mutex_destroy(&c->mu);
    sqlsim_arena_free(c->arena);
  }
  free(groups);
  return rc;
}
