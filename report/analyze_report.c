/* analyze_report.c -- `sqlsim analyze`'s outputs: per-item CSV, and a
 * summary (categories by model, by group and by database, correct items by
 * how they were judged, models side by side) computed once as tables and
 * written as text or as one JSON object holding the same tables. Only the
 * items scored (run->scored) are counted. */
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define MAX_LABELS 256

typedef struct tables {
  int n, npreds;
  int cat[RUN_MAX_PREDS][SQLSIM_NCAT];
  /* "correct" by how it was judged: executed (EX), or structure only */
  int n_exec[RUN_MAX_PREDS], ok_exec[RUN_MAX_PREDS], n_struct[RUN_MAX_PREDS], ok_struct[RUN_MAX_PREDS];
  /* [0] by group, [1] by database: labels, pairs per label, pairs per label and category */
  int nl[2];
  const char *lab[2][MAX_LABELS];
  int tot[2][MAX_LABELS];
  int cnt[2][MAX_LABELS][SQLSIM_NCAT];
  int side[RUN_MAX_PREDS][RUN_MAX_PREDS]; /* items the row model gets right and the column one not */
} tables;

static int label_of(tables *t, int by, const char *l) {
  for (int k = 0; k < t->nl[by]; k++)
    if (!strcmp(t->lab[by][k], l)) return k;
  if (t->nl[by] == MAX_LABELS) return -1;
  t->lab[by][t->nl[by]] = l;
  return t->nl[by]++;
}

static tables *compute(const run *g) {
  tables *t = calloc(1, sizeof *t);
  t->n = g->scored;
  t->npreds = g->npreds;
  for (int i = 0; i < t->n; i++) {
    const char *keys[2] = {run_group(g, i), g->gold->items[i].db_id};
    int at[2];
    for (int by = 0; by < 2; by++) {
      at[by] = keys[by] ? label_of(t, by, keys[by]) : -1;
      if (at[by] >= 0) t->tot[by][at[by]] += g->npreds;
    }
    for (int p = 0; p < g->npreds; p++) {
      const sqlsim_record *r = run_record(g, p, i);
      int k = r->analysis.cats.main; /* each item once, by its main category: a column adds up to 100% */
      if (k >= 0) {
        t->cat[p][k]++;
        for (int by = 0; by < 2; by++)
          if (at[by] >= 0) t->cnt[by][at[by]][k]++;
      }
      if (r->exec.bird < 0 && !r->structure.has) continue; /* not scored at all: neither right nor wrong */
      if (r->exec.bird >= 0) t->n_exec[p]++, t->ok_exec[p] += an_correct(r);
      else t->n_struct[p]++, t->ok_struct[p] += an_correct(r);
      for (int q = 0; q < g->npreds; q++)
        if (q != p && an_correct(r) && !an_correct(run_record(g, q, i))) t->side[p][q]++;
    }
  }
  return t;
}

static double pct(int a, int b) { return b ? 100.0 * a / b : 0.0; }

/* Model names without the prefix they all share ("predict_mini_dev_..."),
 * never shortened further. */
static const char *short_name(const run *g, int p) {
  const char *first = model_name(g, 0);
  size_t common = strlen(first);
  for (int q = 1; q < g->npreds; q++) {
    const char *o = model_name(g, q);
    size_t k = 0;
    while (k < common && o[k] == first[k]) k++;
    common = k;
  }
  const char *m = model_name(g, p);
  if (g->npreds < 2 || common >= strlen(m)) return m;
  while (common > 0 && m[common - 1] != '_' && m[common - 1] != '-' && m[common - 1] != '/') common--;
  return m + common;
}

static int name_width(const run *g, int min) {
  int w = min;
  for (int p = 0; p < g->npreds; p++)
    if ((int)strlen(short_name(g, p)) > w) w = (int)strlen(short_name(g, p));
  return w;
}

/* ---------------------------------------------------------------- CSV */

static void csv_field(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void analyze_csv(FILE *f, const run *g, int header) {
  if (header)
    fputs("benchmark,model,index,db_id,group,category,categories,evidence,exact,bis,score,ex_spider,ex_bird,databases\n", f);
  strbuf cats = {0}, ev = {0};
  for (int i = 0; i < g->scored; i++)
    for (int p = 0; p < g->npreds; p++) {
      const sqlsim_record *r = run_record(g, p, i);
      csv_field(f, g->gold_path);
      fputc(',', f);
      csv_field(f, model_name(g, p));
      fprintf(f, ",%d,", g->index ? g->index[i] : i);
      csv_field(f, g->gold->items[i].db_id);
      fputc(',', f);
      csv_field(f, run_group(g, i));
      fputc(',', f);
      cats.len = ev.len = 0;
      sb_putn(&cats, "", 0);
      sb_putn(&ev, "", 0);
      for (int j = 0; j < r->analysis.cats.nranked; j++) {
        int k = r->analysis.cats.ranked[j];
        sb_printf(&cats, "%s%s", cats.len ? ";" : "", sqlsim_category_names[k]);
        if (r->analysis.cats.evidence[k])
          sb_printf(&ev, "%s%s: %s", ev.len ? " | " : "", sqlsim_category_names[k], r->analysis.cats.evidence[k]);
      }
      csv_field(f, r->analysis.cats.main >= 0 ? sqlsim_category_names[r->analysis.cats.main] : "");
      fputc(',', f);
      csv_field(f, cats.buf);
      fputc(',', f);
      csv_field(f, ev.buf);
      if (r->has_match) fprintf(f, ",%d", r->match.exact);
      else fputs(",", f);
      fprintf(f, ",%.4g,%.4g", r->structure.bis, r->score);
      if (r->exec.bird >= 0) fprintf(f, ",%d,%d,%d\n", r->exec.spider, r->exec.bird, r->exec.databases);
      else fputs(",,,\n", f);
    }
  sb_free(&cats);
  sb_free(&ev);
}

/* ---------------------------------------------------------------- text */

/* Two models side by side: the items one gets right and the other not, and
 * the categories whose counts differ most between them. */
static void print_pair(FILE *f, const run *g, const tables *t, int a, int b) {
  fprintf(f, "\n%s vs %s\n", short_name(g, a), short_name(g, b));
  int w = name_width(g, 20);
  for (int side = 0; side < 2; side++) {
    int x = side ? b : a, y = side ? a : b, cnt = 0;
    strbuf sb = {0};
    for (int i = 0; i < t->n; i++)
      if (an_correct(run_record(g, x, i)) && !an_correct(run_record(g, y, i))) {
        if (cnt < 20) sb_printf(&sb, " #%d", g->index ? g->index[i] : i);
        cnt++;
      }
    fprintf(f, "  right only in %-*s %4d items%s%s%s\n", w, short_name(g, x), cnt, sb.len ? ":" : "",
            sb.len ? sb.buf : "", cnt > 20 ? " ..." : "");
    sb_free(&sb);
  }
  int order[SQLSIM_NCAT], na = 0;
  for (int k = SQLSIM_CAT_UNPARSEABLE; k < SQLSIM_NCAT; k++)
    if (t->cat[a][k] != t->cat[b][k]) order[na++] = k;
  for (int i = 1; i < na; i++) /* by the size of the difference, largest first */
    for (int j = i; j > 0 && abs(t->cat[a][order[j]] - t->cat[b][order[j]]) >
                                 abs(t->cat[a][order[j - 1]] - t->cat[b][order[j - 1]]);
         j--) {
      int tmp = order[j];
      order[j] = order[j - 1];
      order[j - 1] = tmp;
    }
  fprintf(f, "  categories that differ most:");
  for (int i = 0; i < na && i < 5; i++)
    fprintf(f, "%s %s %d vs %d", i ? "," : "", sqlsim_category_names[order[i]], t->cat[a][order[i]],
            t->cat[b][order[i]]);
  fprintf(f, "%s\n", na ? "" : " none");
}

static void items_line(FILE *f, const run *g) {
  if (g->scored < g->gold->n) fprintf(f, "%d of %d items (interrupted)", g->scored, g->total);
  else if (g->gold->n < g->total) fprintf(f, "%d of %d items (those every --pred file covers)", g->gold->n, g->total);
  else fprintf(f, "%d items", g->total);
}

void analyze_text(FILE *f, const run *g) {
  tables *t = compute(g);
  int n = t->n, w = name_width(g, 14);
  fprintf(f, "== %s: ", g->gold_path);
  items_line(f, g);
  fprintf(f, " x %d models, %s\n", g->npreds,
          g->with_db ? (g->bird ? "executed where a database is found (correct = BIRD EX)"
                                : "executed where a database is found (correct = Spider EX)")
                     : (run_config(g)->metrics & SQLSIM_M_SYNTH)
                         ? "no databases: synthetic execution (correct = same result on every database\n"
                           "  generated from the schema; structure alone where the gold returned nothing there)"
                         : "structure only (no databases)");
  /* correct, by how it was judged */
  fprintf(f, "%-22s", "correct");
  for (int p = 0; p < g->npreds; p++) fprintf(f, " %*s", w, short_name(g, p));
  fputc('\n', f);
  if (g->with_db) {
    fprintf(f, "%-22s", "  executed (EX)");
    for (int p = 0; p < g->npreds; p++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%d/%d %.1f%%", t->ok_exec[p], t->n_exec[p], pct(t->ok_exec[p], t->n_exec[p]));
      fprintf(f, " %*s", w, cell);
    }
    fputc('\n', f);
  }
  int any_struct = 0;
  for (int p = 0; p < g->npreds; p++) any_struct |= t->n_struct[p] > 0;
  if (any_struct) {
    fprintf(f, "%-22s", g->with_db ? "  no db: structure"
                        : (run_config(g)->metrics & SQLSIM_M_SYNTH) ? "  synthetic execution" : "  structure only");
    for (int p = 0; p < g->npreds; p++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%d/%d %.1f%%", t->ok_struct[p], t->n_struct[p], pct(t->ok_struct[p], t->n_struct[p]));
      fprintf(f, " %*s", w, cell);
    }
    fputc('\n', f);
  }
  /* categories x models */
  fprintf(f, "\n%-22s", "main category");
  for (int p = 0; p < g->npreds; p++) fprintf(f, " %*s", w, short_name(g, p));
  fputc('\n', f);
  for (int k = 0; k < SQLSIM_NCAT; k++) {
    int any = 0;
    for (int p = 0; p < g->npreds; p++) any |= t->cat[p][k] > 0;
    if (!any) continue;
    fprintf(f, "%-22s", sqlsim_category_names[k]);
    for (int p = 0; p < g->npreds; p++) {
      char cell[64];
      snprintf(cell, sizeof cell, "%d %5.1f%%", t->cat[p][k], pct(t->cat[p][k], n));
      fprintf(f, " %*s", w, cell);
    }
    fputc('\n', f);
  }
  /* categories x group and x database, all models together */
  for (int by = 0; by < 2; by++) {
    int nl = t->nl[by];
    if (nl < 2 && !by) continue;
    int shown = by && nl > 40 ? 40 : nl;
    int lw = 11;
    for (int l = 0; l < shown; l++)
      if ((int)strlen(t->lab[by][l]) > lw) lw = (int)strlen(t->lab[by][l]);
    fprintf(f, "\n-- %s (all models; %% of the pairs in each column%s)\n%-22s", by ? "by database" : "by group",
            shown < nl ? "; the first 40 databases, all in --format json" : "", "category");
    for (int l = 0; l < shown; l++) fprintf(f, " %*s", lw, t->lab[by][l]);
    fputc('\n', f);
    for (int k = 0; k < SQLSIM_NCAT; k++) {
      int any = 0;
      for (int l = 0; l < nl; l++) any |= t->cnt[by][l][k] > 0;
      if (!any) continue;
      fprintf(f, "%-22s", sqlsim_category_names[k]);
      for (int l = 0; l < shown; l++) fprintf(f, " %*.1f%%", lw - 1, pct(t->cnt[by][l][k], t->tot[by][l]));
      fputc('\n', f);
    }
  }
  if (g->npreds > 1) {
    fprintf(f, "\n-- side by side: items the row model gets right and the column model does not\n%-*s", w + 2, "");
    for (int q = 0; q < g->npreds; q++) fprintf(f, " %*s", w, short_name(g, q));
    fputc('\n', f);
    for (int p = 0; p < g->npreds; p++) {
      fprintf(f, "%-*s", w + 2, short_name(g, p));
      for (int q = 0; q < g->npreds; q++)
        if (p == q) fprintf(f, " %*s", w, "-");
        else fprintf(f, " %*d", w, t->side[p][q]);
      fputc('\n', f);
    }
    /* pairs in detail: all pairs of up to 4 models, else each model against the best */
    int best = 0;
    for (int p = 0; p < g->npreds; p++)
      if (t->ok_exec[p] + t->ok_struct[p] > t->ok_exec[best] + t->ok_struct[best]) best = p;
    for (int p = 0; p < g->npreds; p++)
      for (int q = p + 1; q < g->npreds; q++) {
        int a = p, b = q;
        if (g->npreds > 4) {
          if (p != best && q != best) continue;
          if (q == best) a = q, b = p;
        }
        print_pair(f, g, t, a, b);
      }
  }
  fputc('\n', f);
  free(t);
}

/* ---------------------------------------------------------------- JSON */

static void json_counts(strbuf *sb, const int *cnt) {
  sb_putc(sb, '{');
  for (int k = 0, first = 1; k < SQLSIM_NCAT; k++)
    if (cnt[k]) {
      sb_printf(sb, "%s\"%s\":%d", first ? "" : ",", sqlsim_category_names[k], cnt[k]);
      first = 0;
    }
  sb_putc(sb, '}');
}

void analyze_json(strbuf *sb, const run *g) {
  tables *t = compute(g);
  sb_puts(sb, "{\"gold\":");
  sb_json_str(sb, g->gold_path);
  sb_printf(sb, ",\"items\":%d,\"total_items\":%d,\"scored\":%d,\"interrupted\":%s,\"executed\":%s,\"correct_by\":\"%s\",\"models\":[",
            g->gold->n, g->total, g->scored, g->scored < g->gold->n ? "true" : "false", g->with_db ? "true" : "false",
            !g->with_db ? "structure" : g->bird ? "ex_bird" : "ex_spider");
  for (int p = 0; p < g->npreds; p++) {
    sb_puts(sb, p ? ",{\"model\":" : "{\"model\":");
    sb_json_str(sb, model_name(g, p));
    sb_puts(sb, ",\"file\":");
    sb_json_str(sb, g->files[p]);
    sb_printf(sb, ",\"missing\":%d,\"correct\":{\"executed\":{\"count\":%d,\"correct\":%d},\"structure_only\":{\"count\":%d,\"correct\":%d}},\"categories\":",
              g->missing[p], t->n_exec[p], t->ok_exec[p], t->n_struct[p], t->ok_struct[p]);
    json_counts(sb, t->cat[p]);
    sb_puts(sb, ",\"right_where_other_is_wrong\":{");
    for (int q = 0, first = 1; q < g->npreds; q++)
      if (q != p) {
        sb_puts(sb, first ? "" : ",");
        sb_json_str(sb, model_name(g, q));
        sb_printf(sb, ":%d", t->side[p][q]);
        first = 0;
      }
    sb_puts(sb, "}}");
  }
  sb_puts(sb, "]");
  for (int by = 0; by < 2; by++) {
    sb_puts(sb, by ? ",\"by_database\":{" : ",\"by_group\":{");
    for (int l = 0; l < t->nl[by]; l++) {
      sb_puts(sb, l ? "," : "");
      sb_json_str(sb, t->lab[by][l]);
      sb_printf(sb, ":{\"pairs\":%d,\"categories\":", t->tot[by][l]);
      json_counts(sb, t->cnt[by][l]);
      sb_putc(sb, '}');
    }
    sb_putc(sb, '}');
  }
  if (g->audit) { /* analyze --audit: the summary and the flagged items' records */
    char *sum = sqlsim_audit_summary_json(g->audit);
    sb_printf(sb, ",\"audit\":{\"summary\":%s,\"flagged\":[", sum);
    free(sum);
    for (int k = 0; k < g->audit->nitems && g->audit->items[k].flagged; k++)
      sb_printf(sb, "%s%s", k ? "," : "", g->audit->items[k].json);
    sb_puts(sb, "]}");
  }
  sb_putc(sb, '}');
  free(t);
}
