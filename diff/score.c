/* score.c -- BIS semantic similarity and the calibrated score of an edit script.
 *
 * BIS (Caglayan et al., Section 5.1): keeps and moves cost nothing, a table
 * inserted, deleted or changed makes the similarity 0, every other edit costs
 * 1; similarity = 1 - changed / (number of edits, keeps and moves included).
 * Aliases never appear in the trees, so alias changes are free.
 *
 * The calibrated score weighs each edit by what it does to the result, and
 * runs on trees where equivalent forms were first made one (equiv.c):
 * score = exp(-sum of weights), 1 when nothing that matters differs. An
 * inserted or deleted subtree is weighed once, at its root. The weights, by
 * category, and why, are in docs/bis-similarity.md; they are set from what
 * each construct does to a result, not fitted to items. */
#include "diff.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const sqlsim_node *node_of(const sqlsim_edit *e) { return e->gold ? e->gold : e->pred; }

static int is_clause_node(const sqlsim_diff *d, const sqlsim_edit *e) {
  const fnode *f = e->gold_index >= 0 ? &d->priv->g.v[e->gold_index] : &d->priv->p.v[e->pred_index];
  return f->slot >= 0;
}

static int slot_of(const sqlsim_diff *d, const sqlsim_edit *e) {
  const fnode *f = e->gold_index >= 0 ? &d->priv->g.v[e->gold_index] : &d->priv->p.v[e->pred_index];
  return f->slot;
}

/* Does either query limit its rows? Then ORDER BY decides which rows. */
static int has_limit(const ftree *t) {
  for (int i = 0; i < t->n; i++)
    if (t->v[i].slot == SQLSIM_SEL_LIMIT) return 1;
  return 0;
}

/* A move of an operand of x - y, x LIKE p, BETWEEN, or of a function's
 * argument, among as many operands on both sides under the same operator:
 * the same operands in another order (an argument added or dropped shifts
 * the others, and is weighed itself; under another operator, `a / b` for `b
 * * a`, the order is that operator's, `*` sorted like every commutative one,
 * and the operator's change is the edit). */
int diff_swapped_operand(const sqlsim_diff *d, const sqlsim_edit *e) {
  if (e->action != SQLSIM_EDIT_MOVE || !e->ordered || e->clause == SQLSIM_SEL_ORDER) return 0;
  const ftree *g = &d->priv->g, *p = &d->priv->p;
  int gp = g->v[e->gold_index].parent, pp = p->v[e->pred_index].parent;
  if (gp < 0 || pp < 0 || g->v[gp].nkids != p->v[pp].nkids) return 0;
  if (g->v[gp].n->kind != p->v[pp].n->kind || g->v[gp].n->op != p->v[pp].n->op) return 0;
  const sqlsim_node *n = g->v[gp].n;
  if (n->kind != SQLSIM_N_LIST) return 1;
  int up = g->v[gp].parent;
  return up >= 0 && g->v[up].slot < 0 && g->v[up].n->kind == SQLSIM_N_FUNC;
}

/* The condition or item node i sits in (its ancestor under a clause, an AND
 * or an OR), and the query block (SELECT) around it. */
static int part_of(const ftree *t, int i, int *block) {
  int c = i, a = t->v[i].parent;
  for (; a >= 0; c = a, a = t->v[a].parent) {
    const fnode *f = &t->v[a];
    if (f->slot >= 0 || f->n->kind == SQLSIM_N_AND || f->n->kind == SQLSIM_N_OR) break;
  }
  *block = -1;
  for (int b = a; b >= 0 && *block < 0; b = t->v[b].parent)
    if (t->v[b].slot < 0 && t->v[b].n->kind == SQLSIM_N_SELECT) *block = b;
  return c;
}

int diff_leaf_moved(const sqlsim_diff *d, const sqlsim_edit *e) {
  if (e->action != SQLSIM_EDIT_MOVE || !e->gold || e->gold->kind != SQLSIM_N_COLUMN) return 0;
  const ftree *g = &d->priv->g, *p = &d->priv->p;
  int gp = g->v[e->gold_index].parent, pp = p->v[e->pred_index].parent;
  if (gp < 0 || pp < 0 || g->v[gp].slot >= 0 || p->v[pp].slot >= 0 || g->v[gp].match < 0 || p->v[pp].match < 0 ||
      g->v[gp].match == pp)
    return 0;
  /* in one query block (not into a subquery: a join written as a lookup),
   * from one condition or item to another (not rearranged inside one:
   * AVG(x) / 12 and AVG(x / 12)) */
  for (int k = 0; k < 2; k++) {
    const ftree *t = k ? p : g;
    int at = k ? pp : gp, up = t->v[at].parent;
    const sqlsim_node *n = t->v[at].n;
    /* not a COUNT's argument where the other side counts rows (COUNT(x)
     * for COUNT(*) weighs nothing) */
    if (n->kind == SQLSIM_N_LIST && up >= 0 && t->v[up].slot < 0 && t->v[up].n->kind == SQLSIM_N_FUNC &&
        t->v[up].n->text && !strcmp(t->v[up].n->text, "count") && t->v[up].match >= 0 &&
        ((k ? g : p)->v[t->v[up].match].n->flags & SQLSIM_F_STAR))
      return 0;
    /* nor beside a subquery: x = (SELECT t.y ...) for a join on t.y */
    for (uint32_t j = 0; j < n->nkids; j++)
      if (n->kids[j] && (n->kids[j]->kind == SQLSIM_N_SUBLINK || n->kids[j]->kind == SQLSIM_N_SELECT)) return 0;
  }
  int gb, pb;
  int gpart = part_of(g, e->gold_index, &gb), ppart = part_of(p, e->pred_index, &pb);
  return gb >= 0 && g->v[gb].match == pb && g->v[gpart].match != ppart;
}

static void weigh(sqlsim_diff *d, sqlsim_edit *e, int limit) {
  const sqlsim_node *n = node_of(e);
  int cl = e->clause;
  double order_w = limit ? 1.0 : 0.6;
  e->weight = 0;
  e->why = NULL;
#define W(w, why_) (e->weight = (w), e->why = (why_))
  if (e->action == SQLSIM_EDIT_KEEP) return;
  /* inside an added or removed subtree: its root carries the weight */
  if ((e->action == SQLSIM_EDIT_INSERT || e->action == SQLSIM_EDIT_DELETE) && !e->root) return;
  if (e->action == SQLSIM_EDIT_MOVE) {
    const fnode *fg = &d->priv->g.v[e->gold_index], *fp = &d->priv->p.v[e->pred_index];
    if (e->ordered && cl == SQLSIM_SEL_ORDER) W(0.5, "order key position");
    else if (diff_swapped_operand(d, e)) W(0.35, "operand order"); /* each moved operand: a swap weighs 0.7 */
    else if (diff_leaf_moved(d, e)) W(0.4, "column moved to another place"); /* two swapped: 0.8 */
    else if (fg->clause != fp->clause && fg->slot < 0) W(0.5, "moved between clauses");
    return;
  }
  if (e->table) {
    W(1.5, "table");
    return;
  }
  if (e->action == SQLSIM_EDIT_INSERT || e->action == SQLSIM_EDIT_DELETE) {
    if (!e->root) return;
    if (is_clause_node(d, e)) {
      switch (slot_of(d, e)) {
      case SQLSIM_SEL_WHERE: case SQLSIM_SEL_HAVING: W(1.0, "filter"); break;
      case SQLSIM_SEL_GROUP: W(0.8, "group by"); break;
      case SQLSIM_SEL_ORDER: W(order_w, "order by"); break;
      case SQLSIM_SEL_LIMIT: case SQLSIM_SEL_OFFSET: W(0.8, "limit"); break;
      case SQLSIM_SEL_TARGETS: W(1.0, "select list"); break;
      case SQLSIM_SEL_LARG: case SQLSIM_SEL_RARG: W(1.0, "set operation"); break;
      default: W(0.5, "clause");
      }
      return;
    }
    if (n->kind == SQLSIM_N_SUBLINK || n->kind == SQLSIM_N_SELECT) {
      W(1.0, "subquery");
      return;
    }
    switch (cl) {
    case SQLSIM_SEL_TARGETS: W(1.0, "select item"); break;
    case SQLSIM_SEL_WHERE: case SQLSIM_SEL_HAVING:
      W((n->kind == SQLSIM_N_AND || n->kind == SQLSIM_N_OR) ? 0.5 : 1.0, "condition");
      break;
    case SQLSIM_SEL_FROM: W(n->kind == SQLSIM_N_JOIN ? 0.3 : 0.6, "join condition"); break;
    case SQLSIM_SEL_GROUP: W(0.8, "group key"); break;
    case SQLSIM_SEL_ORDER: W(order_w, "order key"); break;
    case SQLSIM_SEL_LIMIT: case SQLSIM_SEL_OFFSET: W(0.8, "limit"); break;
    default: W(0.7, "other");
    }
    return;
  }
  /* updates */
  switch (n->kind) {
  case SQLSIM_N_COLUMN:
  case SQLSIM_N_STAR:
    if (cl == SQLSIM_SEL_TARGETS) W(1.0, "select column");
    else if (cl == SQLSIM_SEL_WHERE || cl == SQLSIM_SEL_HAVING) W(0.8, "filter column");
    else if (cl == SQLSIM_SEL_FROM) W(0.6, "join key");
    else if (cl == SQLSIM_SEL_GROUP) W(0.8, "group key");
    else if (cl == SQLSIM_SEL_ORDER) W(order_w, "order key");
    else W(0.6, "column");
    break;
  case SQLSIM_N_FUNC: W(cl == SQLSIM_SEL_TARGETS ? 1.0 : 0.8, "function or aggregate"); break;
  case SQLSIM_N_CONST:
    if (cl == SQLSIM_SEL_LIMIT || cl == SQLSIM_SEL_OFFSET) W(0.8, "limit value");
    else if (cl == SQLSIM_SEL_TARGETS || cl == SQLSIM_SEL_ORDER) W(0.3, "literal in output");
    else W(0.8, "literal");
    break;
  case SQLSIM_N_SORT: W(order_w, "order direction"); break;
  case SQLSIM_N_SELECT:
    W((n->op != SQLSIM_SET_NONE || (e->pred && e->pred->op != SQLSIM_SET_NONE)) ? 1.0 : 0.3,
      (n->op != SQLSIM_SET_NONE || (e->pred && e->pred->op != SQLSIM_SET_NONE)) ? "set operation"
                                                                                 : "distinct");
    break;
  case SQLSIM_N_JOIN: W(0.5, "join type"); break;
  case SQLSIM_N_CAST: W(0.3, "cast type"); break;
  case SQLSIM_N_TABLE: W(1.5, "table"); break;
  default:
    W((cl == SQLSIM_SEL_WHERE || cl == SQLSIM_SEL_HAVING || cl == SQLSIM_SEL_TARGETS) ? 0.7 : 0.5,
      "operator");
  }
#undef W
}

void diff_score(sqlsim_diff *d) {
  int size = d->nedits, changed = d->nupdate + d->ninsert + d->ndelete;
  d->bis = d->table_changed ? 0 : (size ? 1.0 - (double)changed / size : 1.0);
  /* roots of inserted/deleted subtrees */
  const ftree *g = &d->priv->g, *p = &d->priv->p;
  for (int k = 0; k < d->nedits; k++) {
    sqlsim_edit *e = &d->edits[k];
    if (e->action == SQLSIM_EDIT_DELETE) {
      int par = g->v[e->gold_index].parent;
      e->root = par < 0 || g->v[par].match >= 0;
    } else if (e->action == SQLSIM_EDIT_INSERT) {
      int par = p->v[e->pred_index].parent;
      e->root = par < 0 || p->v[par].match >= 0;
    }
  }
  int limit = has_limit(g) || has_limit(p);
  d->penalty = 0;
  for (int k = 0; k < d->nedits; k++) {
    weigh(d, &d->edits[k], limit);
    d->penalty += d->edits[k].weight;
  }
  d->score = exp(-d->penalty);
}

int sqlsim_diff_trees(const sqlsim_node *gold, const sqlsim_node *pred, sqlsim_diff **out,
                      sqlsim_error *err) {
  *out = NULL;
  sqlsim_arena *a = arena_new_sized(64 * 1024); /* one block for a typical pair */
  sqlsim_diff *d = sqlsim_arena_alloc(a, sizeof *d);
  d->arena = a;
  d->priv = sqlsim_arena_alloc(a, sizeof *d->priv);
  if (diff_flatten(a, gold, &d->priv->g) || diff_flatten(a, pred, &d->priv->p)) {
    sqlsim_arena_free(a);
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, -1, "query too large to diff (over 20000 nodes)");
  }
  diff_match(&d->priv->g, &d->priv->p);
  diff_script(d, &d->priv->g, &d->priv->p);
  diff_score(d);
  *out = d;
  return 0;
}

void sqlsim_diff_free(sqlsim_diff *d) {
  if (!d) return;
  if (d->priv) {
    sqlsim_query_free(d->priv->own[0]);
    sqlsim_query_free(d->priv->own[1]);
  }
  sqlsim_arena_free(d->arena);
}

int sqlsim_diff_pair(const sqlsim_query *gold, const sqlsim_query *pred, unsigned equiv_flags, sqlsim_diff **plain,
                     sqlsim_diff **calibrated, sqlsim_error *err) {
  *plain = *calibrated = NULL;
  int rc = sqlsim_diff_trees(gold->root, pred->root, plain, err);
  if (rc) return rc;
  sqlsim_query *g = sqlsim_query_clone(gold), *p = g ? sqlsim_query_clone(pred) : NULL;
  if (!g || !p) {
    sqlsim_query_free(g);
    sqlsim_diff_free(*plain);
    *plain = NULL;
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  sqlsim_equiv_normalize_as(g, equiv_flags);
  sqlsim_equiv_normalize_as(p, equiv_flags);
  sqlsim_error e2 = {0};
  if (sqlsim_diff_trees(g->root, p->root, calibrated, &e2)) { /* the copies grew past the bound */
    sqlsim_query_free(g);
    sqlsim_query_free(p);
    sqlsim_error_set(err, e2.code, -1, "no calibrated score: with the equivalent forms made one, %s", e2.message);
    return 0;
  }
  (*calibrated)->priv->own[0] = g; /* its edits point into them */
  (*calibrated)->priv->own[1] = p;
  return 0;
}

int sqlsim_similarity(const char *gold, const char *pred, const sqlsim_schema *schema, double *bis,
                      double *score, sqlsim_error *err) {
  *bis = *score = 0;
  sqlsim_query *g, *p;
  if (sqlsim_parse(gold, strlen(gold), schema, 0, &g, err)) return err ? err->code : SQLSIM_ESYNTAX;
  if (sqlsim_parse(pred, strlen(pred), schema, 0, &p, err)) {
    sqlsim_query_free(g);
    return 0;
  }
  sqlsim_diff *plain, *cal;
  if (sqlsim_diff_pair(g, p, 0, &plain, &cal, err) == 0) {
    *bis = plain->bis;
    if (cal) *score = cal->score;
    sqlsim_diff_free(plain);
    sqlsim_diff_free(cal);
  }
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  return 0;
}
