/* verdict.c -- a pair's categories decided: the structural categories of
 * its edit script (categories.c) weighed with what running it showed.
 *
 * Where the pair ran on its database, execution decides whether it is
 * correct (the evaluator's semantics: Spider's or BIRD's EX); without one,
 * synthetic execution on databases generated from the schema does
 * (docs/synthetic.md); with neither, the structure alone. A correct pair with
 * structural differences is "correct, written another way"; a wrong one
 * keeps its structural categories, with the execution facts that go with
 * them (an execution error, an empty result), or "other" when the structure
 * shows nothing but the results differ. Then the categories are ranked (the
 * mistake a person names first, docs/error-categories.md) and cut to the
 * main one and the next, the rest folded into the evidence; with the repair
 * asked, a wrong pair's repair beside them (repair.c). Entry point:
 * analyze_pair (analyze.h). */
#include "analyze.h"

#include <string.h>

/* ---------------------------------------------------------------- spans */

/* The byte spans of the edits that count, on each side, for highlighting. */
static void collect_spans(sqlsim_analysis_part *an, sqlsim_arena *a, const sqlsim_diff *d) {
  int ng = 0, np = 0;
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->weight <= 0) continue;
    ng += e->gold_content && e->gold_content->start >= 0;
    np += e->pred_content && e->pred_content->start >= 0;
  }
  an->gspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * ng + 1));
  an->pspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * np + 1));
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->weight <= 0) continue;
    const sqlsim_node *g = e->gold_content, *p = e->pred_content;
    if (g && g->start >= 0) {
      an->gspans[2 * an->ngspans] = g->start;
      an->gspans[2 * an->ngspans + 1] = g->end > g->start ? g->end : g->start + 1;
      an->ngspans++;
    }
    if (p && p->start >= 0) {
      an->pspans[2 * an->npspans] = p->start;
      an->pspans[2 * an->npspans + 1] = p->end > p->start ? p->end : p->start + 1;
      an->npspans++;
    }
  }
}

/* ---------------------------------------------------------------- the decision */

/* The first structural evidence, for "correct, written another way" (a weak
 * difference's when it is the only one). */
static const char *first_evidence(const sqlsim_categories *c) {
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if (((c->mask | c->weak) & (1u << k)) && c->evidence[k]) return c->evidence[k];
  return "";
}

/* Results differ and the structure shows no difference but a weak one: that
 * one is why (COUNT(x) counts x's non-NULL values). */
static int name_weak(sqlsim_categories *k) {
  if (!k->weak) return 0;
  k->mask |= k->weak;
  k->weak = 0;
  return 1;
}

static void set_only(sqlsim_categories *k, int cat, const char *ev) {
  k->mask = 1u << cat;
  k->secondary = 0;
  k->weak = 0;
  k->before_tables = 0;
  memset(k->evidence, 0, sizeof k->evidence);
  k->evidence[cat] = ev;
}

/* Structural categories and execution facts become the final categories. */
static void combine_categories(int bird, const sqlsim_record *r, sqlsim_categories *k, sqlsim_arena *a) {
  if (r->gold_err[0] && !r->structure.has) {
    set_only(k, SQLSIM_CAT_OTHER, sqlsim_arena_printf(a, "not scored: %s", r->gold_err));
    return;
  }
  if (!r->structure.has) {
    set_only(k, SQLSIM_CAT_OTHER, "not scored: gold unreadable");
    return;
  }
  if (k->mask & (1u << SQLSIM_CAT_UNPARSEABLE)) {
    set_only(k, SQLSIM_CAT_UNPARSEABLE, k->evidence[SQLSIM_CAT_UNPARSEABLE]);
    return;
  }
  if (r->structure.dialect) {
    k->mask |= 1u << SQLSIM_CAT_DIALECT;
    k->evidence[SQLSIM_CAT_DIALECT] = r->structure.dialect;
  }
  if (r->exec.bird < 0 && r->has_synth && r->synth.pass >= 0) { /* no database: synthetic execution decides */
    if (r->synth.pass) {
      if ((k->mask & ~(1u << SQLSIM_CAT_DIALECT)) || k->weak)
        set_only(k, SQLSIM_CAT_CORRECT_OTHER_FORM,
                 sqlsim_arena_printf(a, "same result on the %d generated databases, written differently: %s",
                                     r->synth.informative, first_evidence(k)));
      else
        set_only(k, SQLSIM_CAT_CORRECT,
                 sqlsim_arena_printf(a, "same result as the gold on the %d generated databases", r->synth.informative));
    } else if (!(k->mask & ~(1u << SQLSIM_CAT_DIALECT)) && !name_weak(k)) {
      k->mask |= 1u << SQLSIM_CAT_OTHER;
      k->evidence[SQLSIM_CAT_OTHER] =
          r->structure.diff_err[0] ? sqlsim_arena_printf(a, "results differ on generated data (%s); %s", r->synth.why, r->structure.diff_err)
                         : sqlsim_arena_printf(a, "results differ on generated data (%s) with no structural difference found",
                                               r->synth.why);
    }
    return;
  }
  if (r->exec.bird < 0) { /* structure only */
    if (!k->mask && r->structure.diff_err[0]) set_only(k, SQLSIM_CAT_OTHER, sqlsim_arena_strdup(a, r->structure.diff_err));
    else if (!k->mask) set_only(k, SQLSIM_CAT_CORRECT, "no difference that changes the result (structure only, not executed)");
    return;
  }
  if (r->exec.err[0]) {
    int cat = r->structure.dialect ? SQLSIM_CAT_DIALECT : SQLSIM_CAT_EXEC_ERROR;
    k->mask |= 1u << cat;
    if (!r->structure.dialect) k->evidence[cat] = sqlsim_arena_strdup(a, r->exec.err);
    return;
  }
  int ok = bird ? r->exec.bird == 1 : r->exec.spider == 1;
  if (ok) {
    if ((k->mask & ~(1u << SQLSIM_CAT_DIALECT)) || k->weak)
      set_only(k, SQLSIM_CAT_CORRECT_OTHER_FORM, sqlsim_arena_printf(a, "same result, written differently: %s", first_evidence(k)));
    else
      set_only(k, SQLSIM_CAT_CORRECT, "same result as the gold");
    return;
  }
  if (r->exec.pred_rows == 0 && r->exec.gold_rows > 0) {
    k->mask |= 1u << SQLSIM_CAT_EMPTY_RESULT;
    k->evidence[SQLSIM_CAT_EMPTY_RESULT] = sqlsim_arena_printf(a, "no rows; the gold returns %ld", r->exec.gold_rows);
  }
  if (!(k->mask & ~((1u << SQLSIM_CAT_EMPTY_RESULT) | (1u << SQLSIM_CAT_DIALECT))) && !name_weak(k)) {
    k->mask |= 1u << SQLSIM_CAT_OTHER;
    k->evidence[SQLSIM_CAT_OTHER] =
        r->structure.diff_err[0] ? sqlsim_arena_printf(a, "results differ (%ld vs %ld rows); %s", r->exec.pred_rows, r->exec.gold_rows, r->structure.diff_err)
                       : sqlsim_arena_printf(a, "results differ (%ld vs %ld rows) with no structural difference found",
                                             r->exec.pred_rows, r->exec.gold_rows);
  }
}

/* ---------------------------------------------------------------- ranking */

/* Rank of each category when it is the cause; secondary ones come after.
 * What stops the query; where the rows come from; what is returned; which
 * rows (a wrong value, a wrong column filtered); how they are aggregated,
 * compared, grouped; then additions, order, duplicates and form. The order
 * between neighbours follows the published human annotations of BIRD dev
 * predictions (docs/error-categories.md, "How the ranking was set"): people
 * name the column returned before its aggregate or a missing GROUP BY, before
 * a table gone (not one changed or added), and a wrong value before a wrong
 * column filtered. */
static const signed char priority[SQLSIM_NCAT] = {
    [SQLSIM_CAT_UNPARSEABLE] = 0,      [SQLSIM_CAT_DIALECT] = 1,          [SQLSIM_CAT_EXEC_ERROR] = 2,
    [SQLSIM_CAT_WRONG_TABLE] = 3,      [SQLSIM_CAT_EXTRA_TABLE] = 4,      [SQLSIM_CAT_WRONG_COLUMN] = 5,
    [SQLSIM_CAT_MISSING_TABLE] = 6,    [SQLSIM_CAT_MISSING_COLUMN] = 7,   [SQLSIM_CAT_FILTER_VALUE] = 8,
    [SQLSIM_CAT_FILTER_COLUMN] = 9,    [SQLSIM_CAT_AGGREGATE] = 10,       [SQLSIM_CAT_FILTER_OPERATOR] = 11,
    [SQLSIM_CAT_MISSING_FILTER] = 12,  [SQLSIM_CAT_GROUP_HAVING] = 13,    [SQLSIM_CAT_EXTRA_FILTER] = 14,
    [SQLSIM_CAT_JOIN] = 15,            [SQLSIM_CAT_ORDER_LIMIT] = 16,     [SQLSIM_CAT_DISTINCT] = 17,
    [SQLSIM_CAT_EXTRA_COLUMN] = 18,    [SQLSIM_CAT_NESTING] = 19,         [SQLSIM_CAT_EMPTY_RESULT] = 20,
    [SQLSIM_CAT_OTHER] = 21,           [SQLSIM_CAT_CORRECT] = 22,         [SQLSIM_CAT_CORRECT_OTHER_FORM] = 23};

int analyze_category_rank(int c) { return c >= 0 && c < SQLSIM_NCAT ? priority[c] : SQLSIM_NCAT; }

void sqlsim_categories_rank(sqlsim_categories *c) {
  int key[SQLSIM_NCAT];
  c->nranked = 0;
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if (c->mask & (1u << k)) {
      key[c->nranked] = 2 * priority[k] + ((c->secondary & (1u << k)) ? 200 : 0);
      if ((c->before_tables & (1u << k)) && !(c->secondary & (1u << k)) && (c->mask & (1u << SQLSIM_CAT_WRONG_TABLE)))
        key[c->nranked] = 2 * priority[SQLSIM_CAT_WRONG_TABLE] - 1;
      c->ranked[c->nranked++] = (signed char)k;
    }
  for (int i = 1; i < c->nranked; i++) /* insertion sort: at most 24 */
    for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
      int t = key[j];
      key[j] = key[j - 1];
      key[j - 1] = t;
      signed char x = c->ranked[j];
      c->ranked[j] = c->ranked[j - 1];
      c->ranked[j - 1] = x;
    }
  c->main = c->nranked ? c->ranked[0] : -1;
}

void analyze_fold(sqlsim_categories *c, sqlsim_arena *a, int keep) {
  if (keep < 1) keep = 1;
  if (c->nranked <= keep) return;
  int last = c->ranked[keep - 1];
  for (int i = keep; i < c->nranked; i++) {
    int k = c->ranked[i];
    if (c->evidence[last] && strlen(c->evidence[last]) < 600)
      c->evidence[last] = sqlsim_arena_printf(a, "%s; also %s: %s", c->evidence[last], sqlsim_category_names[k],
                                              c->evidence[k] ? c->evidence[k] : "(no evidence)");
    c->mask &= ~(1u << k);
    c->secondary &= ~(1u << k);
    c->evidence[k] = NULL;
  }
  c->nranked = keep;
}

void sqlsim_categories_limit(sqlsim_categories *c, sqlsim_arena *a, int keep) {
  if (keep < 1) keep = 1;
  if (c->nranked <= keep) return;
  analyze_fold(c, a, keep);
  sqlsim_categories_rank(c);
}

/* ---------------------------------------------------------------- the pair */

/* The prediction does not parse: that is the category, at the offset. */
static void unparseable(const analyze_input *in, const sqlsim_record *r, sqlsim_arena *a, sqlsim_analysis_part *an) {
  an->cats.mask = 1u << SQLSIM_CAT_UNPARSEABLE;
  an->cats.evidence[SQLSIM_CAT_UNPARSEABLE] = sqlsim_arena_strdup(a, r->structure.err);
  if (in->pred_error_offset >= 0) {
    an->pspans = sqlsim_arena_alloc(a, sizeof(int) * 2);
    an->pspans[0] = in->pred_error_offset;
    an->pspans[1] = in->pred_error_offset + 1;
    an->npspans = 1;
  }
}

/* The pair ran and gave another answer than the gold's: on its database, or
 * (with none) on the generated ones. Not a prediction that does not parse or
 * run, nor a gold that could not be judged. */
static int is_wrong(const analyze_input *in, const sqlsim_record *r, const sqlsim_categories *k) {
  const uint32_t not_wrong = (1u << SQLSIM_CAT_UNPARSEABLE) | (1u << SQLSIM_CAT_EXEC_ERROR) | (1u << SQLSIM_CAT_CORRECT) |
                           (1u << SQLSIM_CAT_CORRECT_OTHER_FORM);
  if (!in->diff || (k->mask & not_wrong) || r->gold_err[0] || r->structure.err[0]) return 0;
  if (r->exec.bird >= 0) return !r->exec.err[0] && (in->bird ? r->exec.bird : r->exec.spider) == 0;
  return r->has_synth && r->synth.pass == 0;
}

void analyze_pair(const analyze_input *in, const sqlsim_record *r, sqlsim_arena *a, sqlsim_analysis_part *an,
                  sqlsim_repair_part *rep) {
  if (r->structure.has && r->structure.err[0]) {
    unparseable(in, r, a, an);
  } else if (in->diff) {
    sqlsim_categorize_diff(in->diff, in->schema, a, &an->cats);
    if (in->bird) analyze_column_order(in->diff, a, &an->cats);
    collect_spans(an, a, in->diff);
  }
  combine_categories(in->bird, r, &an->cats, a);
  sqlsim_categories_rank(&an->cats);
  sqlsim_categories_limit(&an->cats, a, ANALYZE_KEEP); /* the main reason and the next */
  if (in->check && is_wrong(in, r, &an->cats)) analyze_repair(in, a, rep);
}
