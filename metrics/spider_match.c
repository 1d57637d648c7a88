/* spider_match.c -- Spider's partial component matching, exact set match and
 * hardness, on two sp_val queries.
 *
 * Each component is compared as the official evaluator compares it: select
 * items and conditions as bags (an equal item is removed from the gold bag when
 * matched), GROUP BY on column names with the table dropped, HAVING and ORDER
 * BY as ordered lists, AND/OR as sets, nested INTERSECT/UNION/EXCEPT by a
 * recursive exact match, keywords as sets. A component scores 1 only when the
 * counts agree and every item matched. Exact match needs all ten and equal
 * FROM table units. Hardness counts clauses, selections and conditions. */
#include "spider.h"

#include <string.h>

/* Counts agree and everything matched: acc = rec = f1 = 1. */
static void score(sp_item_score *o, int k, int label_total, int pred_total, int cnt) {
  int ok = pred_total == label_total && cnt == pred_total;
  o->acc[k] = o->rec[k] = o->f1[k] = ok;
  o->label_total[k] = label_total;
  o->pred_total[k] = pred_total;
}

static sp_val *sel_units(const sp_val *sql) { return sql->items[SQ_SELECT]->items[1]; }

/* The k-th item of each unit in l, as a list. */
static sp_val *nth_items(sqlsim_arena *a, const sp_val *l, int k) {
  sp_val *out = sv_list(a);
  for (int i = 0; i < l->n; i++) sv_push(a, out, l->items[i]->items[k]);
  return out;
}

static void eval_sel(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o) {
  sp_val *ps = sel_units(p), *gs = sel_units(g);
  int label_total = gs->n, pred_total = ps->n;
  score(o, SP_SELECT, label_total, pred_total, sv_bag_common(a, ps, gs));
  score(o, SP_SELECT_NO_AGG, label_total, pred_total, sv_bag_common(a, nth_items(a, ps, 1), nth_items(a, gs, 1)));
}

static sp_val *cond_units(sqlsim_arena *a, const sp_val *cond) {
  sp_val *l = sv_list(a);
  for (int i = 0; i < cond->n; i += 2) sv_push(a, l, cond->items[i]);
  return l;
}

static void eval_where(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o) {
  sp_val *pc = cond_units(a, p->items[SQ_WHERE]), *gc = cond_units(a, g->items[SQ_WHERE]);
  int label_total = gc->n, pred_total = pc->n;
  score(o, SP_WHERE, label_total, pred_total, sv_bag_common(a, pc, gc));
  score(o, SP_WHERE_NO_OP, label_total, pred_total, sv_bag_common(a, nth_items(a, pc, 2), nth_items(a, gc, 2)));
}

/* GROUP BY keys by column name only: "__t.c__" becomes "c__". */
static sp_val *group_names(sqlsim_arena *a, const sp_val *sql) {
  sp_val *l = sv_list(a), *g = sql->items[SQ_GROUP];
  for (int i = 0; i < g->n; i++) {
    const char *col = g->items[i]->items[1]->str;
    const char *dot = strchr(col, '.');
    sv_push(a, l, sv_str(a, dot ? dot + 1 : col));
  }
  return l;
}

static void eval_group(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o) {
  sp_val *pc = group_names(a, p), *gc = group_names(a, g);
  score(o, SP_GROUP_NO_HAVING, gc->n, pc->n, sv_bag_common(a, pc, gc));
}

static sp_val *group_cols(sqlsim_arena *a, const sp_val *sql) {
  sp_val *l = sv_list(a), *g = sql->items[SQ_GROUP];
  for (int i = 0; i < g->n; i++) sv_push(a, l, g->items[i]->items[1]);
  return l;
}

static void eval_having(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o) {
  int pt = p->items[SQ_GROUP]->n > 0, lt = g->items[SQ_GROUP]->n > 0, cnt = 0;
  if (pt && lt && sv_eq(group_cols(a, p), group_cols(a, g)) &&
      sv_eq(p->items[SQ_HAVING], g->items[SQ_HAVING]))
    cnt = 1;
  score(o, SP_GROUP, lt, pt, cnt);
}

static void eval_order(const sp_val *p, const sp_val *g, sp_item_score *o) {
  int pt = p->items[SQ_ORDER]->n > 0, lt = g->items[SQ_ORDER]->n > 0, cnt = 0;
  int plim = p->items[SQ_LIMIT]->t != SV_NONE, glim = g->items[SQ_LIMIT]->t != SV_NONE;
  if (lt && sv_eq(p->items[SQ_ORDER], g->items[SQ_ORDER]) && plim == glim) cnt = 1;
  score(o, SP_ORDER, lt, pt, cnt);
}

/* The set of connectives of WHERE: bit 1 "and", bit 2 "or". */
static int and_or_set(const sp_val *sql) {
  const sp_val *w = sql->items[SQ_WHERE];
  int s = 0;
  for (int i = 1; i < w->n; i += 2) s |= !strcmp(w->items[i]->str, "and") ? 1 : 2;
  return s;
}

static void eval_and_or(const sp_val *p, const sp_val *g, sp_item_score *o) {
  int ps = and_or_set(p), gs = and_or_set(g);
  if (ps == gs) {
    o->acc[SP_AND_OR] = o->rec[SP_AND_OR] = o->f1[SP_AND_OR] = 1;
    o->pred_total[SP_AND_OR] = o->label_total[SP_AND_OR] = 1;
  } else {
    /* the official returns (len(pred), len(label), 0) here, which get_scores
     * reads as label_total = len(pred), pred_total = len(label) */
    score(o, SP_AND_OR, __builtin_popcount((unsigned)ps), __builtin_popcount((unsigned)gs), 0);
  }
}

static int exact_match(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o,
                       int *err);

static void eval_iuen(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o,
                      int *err) {
  int lt = 0, pt = 0, cnt = 0;
  static const int ops[] = {SQ_INTERSECT, SQ_EXCEPT, SQ_UNION};
  for (int i = 0; i < 3; i++) {
    const sp_val *pn = p->items[ops[i]], *gn = g->items[ops[i]];
    int ph = pn->t == SV_SQL, gh = gn->t == SV_SQL;
    pt += ph;
    lt += gh;
    if (ph && gh) {
      sp_item_score inner;
      cnt += exact_match(a, pn, gn, &inner, err);
    }
  }
  score(o, SP_IUEN, lt, pt, cnt);
}

/* Keywords as a bit set. */
enum { KW_WHERE = 1, KW_GROUP = 2, KW_HAVING = 4, KW_ASC = 8, KW_DESC = 16, KW_ORDER = 32,
       KW_LIMIT = 64, KW_EXCEPT = 128, KW_UNION = 256, KW_INTERSECT = 512, KW_OR = 1024,
       KW_NOT = 2048, KW_IN = 4096, KW_LIKE = 8192 };

static int keywords(const sp_val *sql) {
  int k = 0;
  if (sql->items[SQ_WHERE]->n) k |= KW_WHERE;
  if (sql->items[SQ_GROUP]->n) k |= KW_GROUP;
  if (sql->items[SQ_HAVING]->n) k |= KW_HAVING;
  const sp_val *ord = sql->items[SQ_ORDER];
  if (ord->n) {
    k |= KW_ORDER;
    k |= !strcmp(ord->items[0]->str, "desc") ? KW_DESC : KW_ASC;
  }
  if (sql->items[SQ_LIMIT]->t != SV_NONE) k |= KW_LIMIT;
  if (sql->items[SQ_EXCEPT]->t == SV_SQL) k |= KW_EXCEPT;
  if (sql->items[SQ_UNION]->t == SV_SQL) k |= KW_UNION;
  if (sql->items[SQ_INTERSECT]->t == SV_SQL) k |= KW_INTERSECT;
  const sp_val *conds[] = {sql->items[SQ_FROM_CONDS], sql->items[SQ_WHERE], sql->items[SQ_HAVING]};
  for (int c = 0; c < 3; c++) {
    for (int i = 0; i < conds[c]->n; i++) {
      const sp_val *u = conds[c]->items[i];
      if (i % 2) {
        if (!strcmp(u->str, "or")) k |= KW_OR;
        continue;
      }
      if (u->items[0]->num) k |= KW_NOT;
      if (u->items[1]->num == SP_OP_IN) k |= KW_IN;
      if (u->items[1]->num == SP_OP_LIKE) k |= KW_LIKE;
    }
  }
  return k;
}

static void eval_keywords(const sp_val *p, const sp_val *g, sp_item_score *o) {
  int pk = keywords(p), gk = keywords(g);
  score(o, SP_KEYWORDS, __builtin_popcount((unsigned)gk), __builtin_popcount((unsigned)pk),
        __builtin_popcount((unsigned)(pk & gk)));
}

/* sorted(table_units) == sorted(table_units), Python's sort and ==. */
static int same_tables(sqlsim_arena *a, const sp_val *p, const sp_val *g, int *err) {
  const sp_val *pu = p->items[SQ_FROM_UNITS], *gu = g->items[SQ_FROM_UNITS];
  if (pu->n != gu->n) {
    /* sorting still compares, and may raise, before the lengths differ */
  }
  sp_val *ls[2] = {sv_copy_list(a, gu), sv_copy_list(a, pu)};
  for (int w = 0; w < 2; w++) { /* insertion sort: few units */
    sp_val *l = ls[w];
    for (int i = 1; i < l->n; i++)
      for (int j = i; j > 0 && sv_lt(l->items[j], l->items[j - 1], err); j--) {
        sp_val *t = l->items[j];
        l->items[j] = l->items[j - 1];
        l->items[j - 1] = t;
      }
  }
  return sv_eq(ls[0], ls[1]);
}

static int exact_match(sqlsim_arena *a, const sp_val *p, const sp_val *g, sp_item_score *o,
                       int *err) {
  memset(o, 0, sizeof *o);
  eval_sel(a, p, g, o);
  eval_where(a, p, g, o);
  eval_group(a, p, g, o);
  eval_having(a, p, g, o);
  eval_order(p, g, o);
  eval_and_or(p, g, o);
  eval_iuen(a, p, g, o, err);
  eval_keywords(p, g, o);
  o->exact = 0;
  for (int k = 0; k < SP__NPARTIAL; k++)
    if (o->f1[k] != 1) return 0;
  if (g->items[SQ_FROM_UNITS]->n > 0) o->exact = same_tables(a, p, g, err);
  else o->exact = 1;
  return o->exact;
}

int sp_match(sqlsim_arena *a, const sp_val *pred, const sp_val *gold, sp_item_score *out) {
  int err = 0;
  exact_match(a, pred, gold, out, &err);
  return err ? -1 : 0;
}

/* ---------------------------------------------------------------- hardness */

static int cond_like_count(const sp_val *cond) {
  int n = 0;
  for (int i = 0; i < cond->n; i += 2) n += cond->items[i]->items[1]->num == SP_OP_LIKE;
  return n;
}

static int cond_or_count(const sp_val *cond) {
  int n = 0;
  for (int i = 1; i < cond->n; i += 2) n += !strcmp(cond->items[i]->str, "or");
  return n;
}

static int component1(const sp_val *sql) {
  int n = 0;
  n += sql->items[SQ_WHERE]->n > 0;
  n += sql->items[SQ_GROUP]->n > 0;
  n += sql->items[SQ_ORDER]->n > 0;
  n += sql->items[SQ_LIMIT]->t != SV_NONE;
  if (sql->items[SQ_FROM_UNITS]->n > 0) n += sql->items[SQ_FROM_UNITS]->n - 1;
  const sp_val *conds[] = {sql->items[SQ_FROM_CONDS], sql->items[SQ_WHERE], sql->items[SQ_HAVING]};
  for (int c = 0; c < 3; c++) n += cond_or_count(conds[c]) + cond_like_count(conds[c]);
  return n;
}

static int component2(const sp_val *sql) {
  int n = 0;
  const sp_val *conds[] = {sql->items[SQ_FROM_CONDS], sql->items[SQ_WHERE], sql->items[SQ_HAVING]};
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < conds[c]->n; i += 2) {
      const sp_val *u = conds[c]->items[i];
      n += u->items[3]->t == SV_SQL;
      n += u->items[4]->t == SV_SQL;
    }
  n += sql->items[SQ_INTERSECT]->t == SV_SQL;
  n += sql->items[SQ_EXCEPT]->t == SV_SQL;
  n += sql->items[SQ_UNION]->t == SV_SQL;
  return n;
}

/* has_agg(unit) is unit[0] != 0 -- applied by the original to col units,
 * (agg, val_unit) pairs, condition tuples (whose [0] is the NOT flag) and even
 * the "and"/"or" strings of a HAVING list (always "true"). Reproduced. */
static int first_nonzero(const sp_val *u) {
  if (!u || u->t == SV_NONE) return 0;
  if (u->t == SV_STR) return 1;
  if (u->t == SV_TUPLE) {
    const sp_val *f = u->items[0];
    if (f->t == SV_BOOL || f->t == SV_NUM) return f->num != 0;
    return 1;
  }
  return 0;
}

static int others(const sp_val *sql) {
  int agg = 0;
  const sp_val *sel = sel_units(sql);
  for (int i = 0; i < sel->n; i++) agg += first_nonzero(sel->items[i]);
  const sp_val *w = sql->items[SQ_WHERE];
  for (int i = 0; i < w->n; i += 2) agg += first_nonzero(w->items[i]);
  const sp_val *g = sql->items[SQ_GROUP];
  for (int i = 0; i < g->n; i++) agg += first_nonzero(g->items[i]);
  const sp_val *o = sql->items[SQ_ORDER];
  if (o->n) {
    const sp_val *units = o->items[1];
    for (int i = 0; i < units->n; i++)
      if (units->items[i]->items[1]->t != SV_NONE) agg += first_nonzero(units->items[i]->items[1]);
    for (int i = 0; i < units->n; i++)
      if (units->items[i]->items[2]->t != SV_NONE) agg += first_nonzero(units->items[i]->items[2]);
  }
  const sp_val *h = sql->items[SQ_HAVING];
  for (int i = 0; i < h->n; i++) agg += first_nonzero(h->items[i]);
  int n = agg > 1;
  n += sel->n > 1;
  n += w->n > 1;
  n += g->n > 1;
  return n;
}

int sp_hardness(const sp_val *sql) {
  int c1 = component1(sql), c2 = component2(sql), ot = others(sql);
  if (c1 <= 1 && ot == 0 && c2 == 0) return SP_EASY;
  if ((ot <= 2 && c1 <= 1 && c2 == 0) || (c1 <= 2 && ot < 2 && c2 == 0)) return SP_MEDIUM;
  if ((ot > 2 && c1 <= 2 && c2 == 0) || (c1 > 2 && c1 <= 3 && ot <= 2 && c2 == 0) ||
      (c1 <= 1 && ot == 0 && c2 <= 1))
    return SP_HARD;
  return SP_EXTRA;
}
