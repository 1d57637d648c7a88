/* repair.c -- a wrong pair's repair: the smallest set of the prediction's
 * parts whose fix, the gold's part in its place, gives the gold's answer.
 *
 * The two queries (as written, normalized with the schema) are cut into
 * edit groups by place: each select item, each condition of WHERE, the FROM
 * clause with its joins, GROUP BY with HAVING, ORDER BY with LIMIT and
 * OFFSET, DISTINCT, WITH, and for two set operations of one kind each arm's
 * places. A group is where the prediction's part prints differently from the
 * gold's (their FROM items first given the same names, so an alias alone is
 * no difference). Repairing a set of groups puts the gold's parts in the
 * prediction's place; the tree is printed back to SQL and run where the pair
 * was judged, through the caller's check (the real databases, or the pair's
 * generated ones).
 *
 * The search, within a budget of checks and time: every group repaired
 * (which must give the gold's answer, or there is no repair), then each
 * group alone, then each pair, then, from all of them, each group dropped
 * while the rest still repair (a 1-minimal set, as ddmin ends with). The
 * categories are those of the groups of the set found, each group's from the
 * structural rules on the diff between the prediction and the prediction with
 * only that group repaired; the main one is that of the group which alone
 * repairs the most (the share of the databases that told the pair apart it
 * fixes; ties go to the order of sqlsim_categories_rank). Groups that differ
 * but are not needed are listed as having no effect on the answer.
 * docs/error-categories.md, "Repair". Entry point: analyze_repair
 * (analyze.h). */
#include "analyze.h"
#include "exec/sandbox.h"
#include "parser/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { RG_ITEM, RG_COND, RG_FROM, RG_GROUP, RG_ORDER, RG_DISTINCT, RG_WITH, RG_OTHER };
static const char *const group_words[] = {"select item", "condition", "FROM", "GROUP BY/HAVING", "ORDER BY/LIMIT",
                                          "DISTINCT", "WITH", "clause"};

/* One SELECT of each side, the places compared. */
typedef struct rblock {
  const sqlsim_node *g, *p;
  sqlsim_node **gi, **pi; /* select items */
  int ngi, npi;
  sqlsim_node **gc, **pc; /* WHERE's conditions (an AND's operands) */
  int ngc, npc;
  int whole;              /* set operations of other kinds: one group, the whole query */
} rblock;

typedef struct rgroup {
  int kind, block;
  int gpos, ppos;          /* RG_ITEM / RG_COND: the gold's part (-1: remove the prediction's) and the
                              prediction's (-1: add the gold's) */
  int agrees;              /* repaired alone, it gives the gold's answer */
  double graded;
  sqlsim_categories cats;  /* the structural categories of this group alone */
  int have_cats;           /* cats made (when first asked: group_cats) */
  const char *what;        /* where, and the prediction's part for the gold's (in the record's arena) */
  unsigned needs;          /* the groups that must be repaired with it (the parts reading a FROM item
                              its repair removes or brings) */
} rgroup;

#define MAX_GROUPS 16
#define MAX_BLOCKS 8

typedef struct repair {
  const analyze_input *in;
  sqlsim_arena *a;         /* work arena */
  sqlsim_arena *out;       /* the record's */
  sqlsim_query *gq, *pq;   /* clones, renamed */
  rblock blocks[MAX_BLOCKS];
  int nblocks;
  rgroup groups[MAX_GROUPS];
  int ngroups;
  int checks;
  double t0;
  struct { const sqlsim_node *n; const char *text; } seen[256]; /* printed parts */
  sqlsim_query *pred_eq;   /* the prediction as the categories read it (made when first needed) */
  int over;                /* budget spent */
} repair;

/* ---------------------------------------------------------------- names */

typedef struct from_items {
  sqlsim_node **v;
  int n, cap;
  sqlsim_arena *a;
} from_items;

static int is_from_item(const sqlsim_node *n) {
  return n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_SUBQUERY || n->kind == SQLSIM_N_FUNCTABLE;
}

static int collect_from(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  from_items *f = ctx;
  if (is_from_item(n)) {
    f->v = arena_array_grow(f->a, f->v, f->n, &f->cap, sizeof *f->v, 8);
    if (f->v) f->v[f->n++] = n;
  }
  return SQLSIM_WALK_CONTINUE;
}

static int requalify(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  (void)ctx;
  n->raw = NULL; /* names as folded: the spelling of a name is no difference */
  if ((n->kind == SQLSIM_N_COLUMN || (n->kind == SQLSIM_N_STAR && n->alias)) && n->source &&
      !(n->flags & SQLSIM_F_ALIASREF) && n->source->alias)
    n->alias = n->source->alias;
  return SQLSIM_WALK_CONTINUE;
}

static int same_item(const sqlsim_node *x, const sqlsim_node *y) {
  if (x->kind != y->kind) return 0;
  if (x->kind == SQLSIM_N_TABLE) return x->text && y->text && !strcasecmp(x->text, y->text);
  return 1;
}

/* Both sides' FROM items named alike: the items of one table (or two
 * subqueries) paired in the order they appear, the rest paired in order, and
 * those left over named apart; every resolved column then qualified by its
 * item's name. A part moved from the gold to the prediction reads the
 * prediction's item in the same place. */
static int rename_items(repair *x) {
  from_items g = {.a = x->a}, p = {.a = x->a};
  sqlsim_walk(x->gq->root, collect_from, NULL, &g);
  sqlsim_walk(x->pq->root, collect_from, NULL, &p);
  int *pg = sqlsim_arena_alloc(x->a, sizeof(int) * (size_t)(g.n + 1));
  int *pp = sqlsim_arena_alloc(x->a, sizeof(int) * (size_t)(p.n + 1));
  if (!pg || !pp) return -1;
  for (int i = 0; i < g.n; i++) pg[i] = -1;
  for (int j = 0; j < p.n; j++) pp[j] = -1;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < g.n; i++) {
      if (pg[i] >= 0) continue;
      for (int j = 0; j < p.n; j++)
        if (pp[j] < 0 && (pass || same_item(g.v[i], p.v[j]))) {
          pg[i] = j;
          pp[j] = i;
          break;
        }
    }
  int k = 0;
  for (int i = 0; i < g.n; i++) {
    const char *name = sqlsim_arena_printf(x->a, pg[i] >= 0 ? "r%d" : "g%d", ++k);
    g.v[i]->alias = name;
    if (pg[i] >= 0) p.v[pg[i]]->alias = name;
  }
  for (int j = 0; j < p.n; j++)
    if (pp[j] < 0) p.v[j]->alias = sqlsim_arena_printf(x->a, "p%d", ++k);
  sqlsim_walk(x->gq->root, requalify, NULL, NULL);
  sqlsim_walk(x->pq->root, requalify, NULL, NULL);
  return 0;
}

/* ---------------------------------------------------------------- groups */

static char *printed(repair *x, const sqlsim_node *n) {
  if (!n) return "";
  char *s = sqlsim_print_sql(n, 0);
  char *r = s ? sqlsim_arena_strdup(x->a, s) : "";
  free(s);
  return r;
}

/* A part of either query printed, once (parts are compared many times). */
static const char *part_text(repair *x, const sqlsim_node *n) {
  if (!n) return "";
  size_t h = ((uintptr_t)n >> 4) & 255;
  for (size_t k = 0; k < 256; k++, h = (h + 1) & 255) {
    if (x->seen[h].n == n) return x->seen[h].text;
    if (!x->seen[h].n) {
      x->seen[h].n = n;
      return x->seen[h].text = printed(x, n);
    }
  }
  return printed(x, n);
}

static int same_text(repair *x, const sqlsim_node *a, const sqlsim_node *b) {
  if (!a || !b) return a == b;
  return !strcmp(part_text(x, a), part_text(x, b));
}

static void parts_of(repair *x, const sqlsim_node *n, int list_kind, sqlsim_node ***v, int *cnt) {
  *v = NULL;
  *cnt = 0;
  if (!n) return;
  if (n->kind == list_kind) {
    *v = n->kids;
    *cnt = (int)n->nkids;
  } else {
    if (!(*v = sqlsim_arena_alloc(x->a, sizeof(sqlsim_node *)))) return;
    (*v)[0] = (sqlsim_node *)n;
    *cnt = 1;
  }
}

static int add_group(repair *x, int kind, int block, int gpos, int ppos) {
  if (x->ngroups == MAX_GROUPS) return -1;
  rgroup *r = &x->groups[x->ngroups++];
  memset(r, 0, sizeof *r);
  r->kind = kind;
  r->block = block;
  r->gpos = gpos;
  r->ppos = ppos;
  return 0;
}

/* A few names read in a part (the first 64). */
typedef struct names {
  const char *v[64];
  int n;
} names;

static void names_add(names *c, const char *s) {
  if (s && c->n < 64) c->v[c->n++] = s;
}

static int has_name(const names *c, const char *s) {
  for (int i = 0; i < c->n; i++)
    if (!strcmp(c->v[i], s)) return 1;
  return 0;
}

static int collect_columns(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_COLUMN) names_add(ctx, n->text);
  return SQLSIM_WALK_CONTINUE;
}

/* How alike two parts are: twice the columns of one whose name the other
 * reads too. */
static int likeness(const sqlsim_node *a, const sqlsim_node *b) {
  names ca = {.n = 0}, cb = {.n = 0};
  sqlsim_walk((sqlsim_node *)a, collect_columns, NULL, &ca);
  sqlsim_walk((sqlsim_node *)b, collect_columns, NULL, &cb);
  int k = 0;
  for (int i = 0; i < ca.n; i++)
    for (int j = 0; j < cb.n; j++)
      if (!strcasecmp(ca.v[i], cb.v[j])) {
        k += 2;
        break;
      }
  return k;
}

/* The parts of two lists (select items, conditions) paired: equal texts,
 * then by the columns they read, then the rest in order; a group per pair
 * that differs and per part left. */
static int list_groups(repair *x, int kind, int block, sqlsim_node **gv, int ng, sqlsim_node **pv, int np) {
  int *gm = sqlsim_arena_alloc(x->a, sizeof(int) * (size_t)(ng + 1));
  int *pm = sqlsim_arena_alloc(x->a, sizeof(int) * (size_t)(np + 1));
  if (!gm || !pm) return -1;
  for (int i = 0; i < ng; i++) gm[i] = -1;
  for (int j = 0; j < np; j++) pm[j] = -1;
  for (int i = 0; i < ng; i++)
    for (int j = 0; j < np; j++)
      if (pm[j] < 0 && same_text(x, gv[i], pv[j])) {
        gm[i] = j;
        pm[j] = i;
        break;
      }
  for (;;) { /* then the parts reading the most columns in common */
    int bi = -1, bj = -1, top = 0;
    for (int i = 0; i < ng; i++)
      for (int j = 0; gm[i] < 0 && j < np; j++) {
        int k = pm[j] < 0 ? likeness(gv[i], pv[j]) : 0;
        if (k > top) {
          top = k;
          bi = i;
          bj = j;
        }
      }
    if (bi < 0) break;
    gm[bi] = bj;
    pm[bj] = bi;
    if (add_group(x, kind, block, bi, bj)) return -1;
  }
  for (int i = 0, j = 0; i < ng; i++) { /* and the rest in order */
    if (gm[i] >= 0) continue;
    while (j < np && pm[j] >= 0) j++;
    if (j < np) {
      gm[i] = j;
      pm[j] = i;
      if (add_group(x, kind, block, i, j)) return -1;
    } else if (add_group(x, kind, block, i, -1)) {
      return -1;
    }
  }
  for (int j = 0; j < np; j++)
    if (pm[j] < 0 && add_group(x, kind, block, -1, j)) return -1;
  return 0;
}

static const sqlsim_node *slot(const sqlsim_node *s, int k) { return s && (int)s->nkids > k ? s->kids[k] : NULL; }

typedef struct from_parts {
  const char *v[64];
  int n, outer;
} from_parts;

/* The items and join conditions of a FROM of inner joins, as texts. */
static void from_split(repair *x, const sqlsim_node *n, from_parts *f) {
  if (!n || f->n >= 62) return;
  if (n->kind == SQLSIM_N_LIST) {
    for (uint32_t i = 0; i < n->nkids; i++) from_split(x, n->kids[i], f);
  } else if (n->kind == SQLSIM_N_JOIN) {
    if (n->op != SQLSIM_JOIN_INNER && n->op != SQLSIM_JOIN_CROSS) f->outer = 1;
    if ((n->flags & SQLSIM_F_NATURAL) || slot(n, 3)) f->outer = 1; /* USING, NATURAL: kept as written */
    from_split(x, slot(n, 0), f);
    from_split(x, slot(n, 1), f);
    const sqlsim_node *on = slot(n, 2);
    if (on && on->kind == SQLSIM_N_AND)
      for (uint32_t i = 0; i < on->nkids && f->n < 62; i++) f->v[f->n++] = part_text(x, on->kids[i]);
    else if (on) f->v[f->n++] = part_text(x, on);
  } else {
    f->v[f->n++] = part_text(x, n);
  }
}

static int cmp_text(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* Two FROM clauses read the same rows: the same text, or inner joins of the
 * same items on the same conditions in another order. */
static int same_from(repair *x, const sqlsim_node *g, const sqlsim_node *p) {
  if (same_text(x, g, p)) return 1;
  from_parts a = {.n = 0}, b = {.n = 0};
  from_split(x, g, &a);
  from_split(x, p, &b);
  if (a.outer || b.outer || a.n != b.n || a.n >= 62) return 0;
  qsort(a.v, (size_t)a.n, sizeof *a.v, cmp_text);
  qsort(b.v, (size_t)b.n, sizeof *b.v, cmp_text);
  for (int i = 0; i < a.n; i++)
    if (strcmp(a.v[i], b.v[i])) return 0;
  return 1;
}

static int is_setop(const sqlsim_node *s) { return s->op != SQLSIM_SET_NONE; }

static int block_groups(repair *x, const sqlsim_node *g, const sqlsim_node *p) {
  if (x->nblocks == MAX_BLOCKS) return -1;
  int b = x->nblocks++;
  rblock *k = &x->blocks[b];
  memset(k, 0, sizeof *k);
  k->g = g;
  k->p = p;
  if ((is_setop(g) || is_setop(p)) &&
      (g->op != p->op || (g->flags & SQLSIM_F_ALL) != (p->flags & SQLSIM_F_ALL) || !slot(g, SQLSIM_SEL_LARG) ||
       !slot(p, SQLSIM_SEL_LARG) || !slot(g, SQLSIM_SEL_RARG) || !slot(p, SQLSIM_SEL_RARG))) {
    k->whole = 1; /* set operations of other kinds, or one and a plain SELECT */
    return add_group(x, RG_OTHER, b, -1, -1);
  }
  if (!same_text(x, slot(g, SQLSIM_SEL_WITH), slot(p, SQLSIM_SEL_WITH)) && add_group(x, RG_WITH, b, -1, -1)) return -1;
  if (!same_text(x, slot(g, SQLSIM_SEL_ORDER), slot(p, SQLSIM_SEL_ORDER)) ||
      !same_text(x, slot(g, SQLSIM_SEL_LIMIT), slot(p, SQLSIM_SEL_LIMIT)) ||
      !same_text(x, slot(g, SQLSIM_SEL_OFFSET), slot(p, SQLSIM_SEL_OFFSET)))
    if (add_group(x, RG_ORDER, b, -1, -1)) return -1;
  if (is_setop(g)) { /* of one kind: arm by arm */
    if (block_groups(x, slot(g, SQLSIM_SEL_LARG), slot(p, SQLSIM_SEL_LARG))) return -1;
    return block_groups(x, slot(g, SQLSIM_SEL_RARG), slot(p, SQLSIM_SEL_RARG));
  }
  if ((g->flags & SQLSIM_F_DISTINCT) != (p->flags & SQLSIM_F_DISTINCT) && add_group(x, RG_DISTINCT, b, -1, -1))
    return -1;
  if (!same_from(x, slot(g, SQLSIM_SEL_FROM), slot(p, SQLSIM_SEL_FROM)) && add_group(x, RG_FROM, b, -1, -1)) return -1;
  if ((!same_text(x, slot(g, SQLSIM_SEL_GROUP), slot(p, SQLSIM_SEL_GROUP)) ||
       !same_text(x, slot(g, SQLSIM_SEL_HAVING), slot(p, SQLSIM_SEL_HAVING))) &&
      add_group(x, RG_GROUP, b, -1, -1))
    return -1;
  if ((!same_text(x, slot(g, SQLSIM_SEL_WINDOW), slot(p, SQLSIM_SEL_WINDOW)) ||
       !same_text(x, slot(g, SQLSIM_SEL_VALUES), slot(p, SQLSIM_SEL_VALUES))) &&
      add_group(x, RG_OTHER, b, -1, -1))
    return -1;
  parts_of(x, slot(g, SQLSIM_SEL_TARGETS), SQLSIM_N_LIST, &k->gi, &k->ngi);
  parts_of(x, slot(p, SQLSIM_SEL_TARGETS), SQLSIM_N_LIST, &k->pi, &k->npi);
  parts_of(x, slot(g, SQLSIM_SEL_WHERE), SQLSIM_N_AND, &k->gc, &k->ngc);
  parts_of(x, slot(p, SQLSIM_SEL_WHERE), SQLSIM_N_AND, &k->pc, &k->npc);
  if (list_groups(x, RG_ITEM, b, k->gi, k->ngi, k->pi, k->npi)) return -1;
  return list_groups(x, RG_COND, b, k->gc, k->ngc, k->pc, k->npc);
}

/* ---------------------------------------------------------------- what a FROM repair takes along */

/* The names of FROM items and the qualifiers of columns (after the
 * renaming, the same thing). */
static int collect_names(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (is_from_item(n) || n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR) names_add(ctx, n->alias);
  return SQLSIM_WALK_CONTINUE;
}

static void names_of(const sqlsim_node *n, names *c) {
  if (n) sqlsim_walk((sqlsim_node *)n, collect_names, NULL, c);
}

/* Does a part read a name of `only` (items one FROM has and the other not)? */
static int reads_any(const sqlsim_node *part, const names *only) {
  names c = {.n = 0};
  names_of(part, &c);
  for (int i = 0; i < c.n; i++)
    if (has_name(only, c.v[i])) return 1;
  return 0;
}

/* The parts of a group on one side (gold: 1), read for the names they use. */
static int group_reads(const repair *x, const rgroup *r, int gold, const names *only) {
  const rblock *k = &x->blocks[r->block];
  const sqlsim_node *s = gold ? k->g : k->p;
  switch (r->kind) {
  case RG_ITEM: {
    int at = gold ? r->gpos : r->ppos;
    return at >= 0 && reads_any((gold ? k->gi : k->pi)[at], only);
  }
  case RG_COND: {
    int at = gold ? r->gpos : r->ppos;
    return at >= 0 && reads_any((gold ? k->gc : k->pc)[at], only);
  }
  case RG_GROUP: return reads_any(slot(s, SQLSIM_SEL_GROUP), only) || reads_any(slot(s, SQLSIM_SEL_HAVING), only);
  case RG_ORDER: return reads_any(slot(s, SQLSIM_SEL_ORDER), only);
  default: return 0;
  }
}

/* A FROM repaired removes the prediction's items the gold's FROM lacks and
 * brings the gold's the prediction's lacks: the parts of the prediction that
 * read the first are fixed with it (a person changing a table changes the
 * columns read from it), and a gold part that reads the second needs it. */
static void from_needs(repair *x) {
  for (int f = 0; f < x->ngroups; f++) {
    if (x->groups[f].kind != RG_FROM) continue;
    const rblock *k = &x->blocks[x->groups[f].block];
    names gf = {.n = 0}, pf = {.n = 0}, gone = {.n = 0}, brought = {.n = 0};
    names_of(slot(k->g, SQLSIM_SEL_FROM), &gf);
    names_of(slot(k->p, SQLSIM_SEL_FROM), &pf);
    for (int i = 0; i < pf.n; i++)
      if (!has_name(&gf, pf.v[i]) && gone.n < 64) gone.v[gone.n++] = pf.v[i];
    for (int i = 0; i < gf.n; i++)
      if (!has_name(&pf, gf.v[i]) && brought.n < 64) brought.v[brought.n++] = gf.v[i];
    for (int i = 0; i < x->ngroups; i++) {
      if (i == f) continue;
      if (gone.n && group_reads(x, &x->groups[i], 0, &gone)) x->groups[f].needs |= 1u << i;
      if (brought.n && group_reads(x, &x->groups[i], 1, &brought)) x->groups[i].needs |= 1u << f;
    }
  }
}

/* ---------------------------------------------------------------- repaired trees */

static int in_set(const repair *x, unsigned set, int kind, int block) {
  for (int i = 0; i < x->ngroups; i++)
    if ((set & (1u << i)) && x->groups[i].kind == kind && x->groups[i].block == block) return i;
  return -1;
}

/* The prediction's list with the groups of set of this kind and block
 * applied: replaced in place, removed, the gold's added at its position. */
static sqlsim_node *repaired_list(repair *x, unsigned set, int kind, int block, sqlsim_node **gv, int ng,
                                  sqlsim_node **pv, int np, int list_kind) {
  sqlsim_node **v = sqlsim_arena_alloc(x->a, sizeof(sqlsim_node *) * (size_t)(ng + np + 1));
  int n = 0;
  if (!v) return NULL;
  for (int j = 0; j < np; j++) {
    sqlsim_node *use = pv[j];
    for (int i = 0; i < x->ngroups; i++) {
      const rgroup *r = &x->groups[i];
      if ((set & (1u << i)) && r->kind == kind && r->block == block && r->ppos == j)
        use = r->gpos >= 0 ? gv[r->gpos] : NULL;
    }
    if (use) v[n++] = use;
  }
  for (int i = 0; i < x->ngroups; i++) {
    const rgroup *r = &x->groups[i];
    if ((set & (1u << i)) && r->kind == kind && r->block == block && r->ppos < 0) {
      int at = r->gpos < n ? r->gpos : n;
      memmove(v + at + 1, v + at, sizeof *v * (size_t)(n - at));
      v[at] = gv[r->gpos];
      n++;
    }
  }
  if (n == 0) return NULL;
  if (n == 1 && list_kind == SQLSIM_N_AND) return v[0];
  sqlsim_node *l = tree_node_new(x->a, list_kind, n);
  if (!l) return NULL;
  memcpy(l->kids, v, sizeof *v * (size_t)n);
  return l;
}

static sqlsim_node *repaired_block(repair *x, unsigned set, int *b) {
  int me = (*b)++;
  if (me >= x->nblocks) return NULL;
  const rblock *k = &x->blocks[me];
  const sqlsim_node *g = k->g, *p = k->p;
  if (k->whole) return (sqlsim_node *)(in_set(x, set, RG_OTHER, me) >= 0 ? g : p);
  sqlsim_node *s = tree_node_new(x->a, SQLSIM_N_SELECT, SQLSIM_SEL__COUNT);
  if (!s) return NULL;
  const sqlsim_node *keep = p;
  s->op = p->op;
  s->flags = p->flags;
  s->start = s->end = -1;
  for (int i = 0; i < SQLSIM_SEL__COUNT; i++) s->kids[i] = (sqlsim_node *)slot(keep, i);
  if (in_set(x, set, RG_WITH, me) >= 0) s->kids[SQLSIM_SEL_WITH] = (sqlsim_node *)slot(g, SQLSIM_SEL_WITH);
  if (in_set(x, set, RG_ORDER, me) >= 0)
    for (int i = SQLSIM_SEL_ORDER; i <= SQLSIM_SEL_OFFSET; i++) s->kids[i] = (sqlsim_node *)slot(g, i);
  if (is_setop(p)) { /* set operations of one kind: arm by arm */
    s->kids[SQLSIM_SEL_LARG] = repaired_block(x, set, b);
    s->kids[SQLSIM_SEL_RARG] = repaired_block(x, set, b);
    return s;
  }
  if (in_set(x, set, RG_DISTINCT, me) >= 0) s->flags = (s->flags & ~SQLSIM_F_DISTINCT) | (g->flags & SQLSIM_F_DISTINCT);
  if (in_set(x, set, RG_FROM, me) >= 0) s->kids[SQLSIM_SEL_FROM] = (sqlsim_node *)slot(g, SQLSIM_SEL_FROM);
  if (in_set(x, set, RG_GROUP, me) >= 0) {
    s->kids[SQLSIM_SEL_GROUP] = (sqlsim_node *)slot(g, SQLSIM_SEL_GROUP);
    s->kids[SQLSIM_SEL_HAVING] = (sqlsim_node *)slot(g, SQLSIM_SEL_HAVING);
  }
  if (in_set(x, set, RG_OTHER, me) >= 0) {
    s->kids[SQLSIM_SEL_WINDOW] = (sqlsim_node *)slot(g, SQLSIM_SEL_WINDOW);
    s->kids[SQLSIM_SEL_VALUES] = (sqlsim_node *)slot(g, SQLSIM_SEL_VALUES);
  }
  if (in_set(x, set, RG_ITEM, me) >= 0)
    s->kids[SQLSIM_SEL_TARGETS] = repaired_list(x, set, RG_ITEM, me, k->gi, k->ngi, k->pi, k->npi, SQLSIM_N_LIST);
  if (in_set(x, set, RG_COND, me) >= 0)
    s->kids[SQLSIM_SEL_WHERE] = repaired_list(x, set, RG_COND, me, k->gc, k->ngc, k->pc, k->npc, SQLSIM_N_AND);
  return s;
}

/* A set with every group its groups need. */
static unsigned closure(const repair *x, unsigned set) {
  for (unsigned last = 0; last != set;) {
    last = set;
    for (int i = 0; i < x->ngroups; i++)
      if (set & (1u << i)) set |= x->groups[i].needs;
  }
  return set;
}

/* The prediction with the groups of set repaired, as SQL (in the work arena). */
static const char *repaired_sql(repair *x, unsigned set) {
  set = closure(x, set);
  int b = 0;
  sqlsim_node *root = repaired_block(x, set, &b);
  return root ? printed(x, root) : NULL;
}

/* ---------------------------------------------------------------- checks */

#define MAX_BATCH 64

/* Checks the sets v[0..n) in one call of the caller's check (each filled
 * database or each run of the gold serves all of them): ok[i] 1 when set i's
 * repair gives the gold's answer everywhere it was checked, 0 not, -1 not
 * known; graded[i] the share of databases that agree. Sets printing as an
 * earlier one share its answer. 0, or -1 when the budget is spent or the
 * check fails (x->over says which). */
static int check_many(repair *x, const unsigned *v, int n, int *ok, double *graded) {
  if (n > MAX_BATCH) n = MAX_BATCH;
  if (x->checks + n > x->in->repair_checks || sbx_clock() - x->t0 > x->in->repair_time_s) {
    x->over = 1;
    return -1;
  }
  const char *sql[MAX_BATCH];
  int same[MAX_BATCH], m = 0;
  for (int i = 0; i < n; i++) {
    const char *q = repaired_sql(x, v[i]);
    if (!q) return -1;
    same[i] = -1;
    for (int k = 0; k < m && same[i] < 0; k++)
      if (!strcmp(sql[k], q)) same[i] = k;
    if (same[i] < 0) {
      same[i] = m;
      sql[m++] = q;
    }
  }
  int r[MAX_BATCH];
  double gr[MAX_BATCH];
  x->checks += m;
  double deadline = x->t0 + x->in->repair_time_s;
  if (x->in->check(x->in->ctx, sql, m, deadline, r, gr)) return -1;
  for (int k = 0; k < m; k++)
    if (r[k] < 0 && sbx_clock() > deadline) x->over = 1; /* stopped by the time budget */
  if (x->over) return -1;
  for (int i = 0; i < n; i++) {
    ok[i] = r[same[i]];
    graded[i] = isnan(gr[same[i]]) ? 0 : gr[same[i]];
  }
  return 0;
}

/* ---------------------------------------------------------------- categories of a group */

static sqlsim_query *parse_eq(repair *x, const char *sql) {
  sqlsim_query *q = NULL;
  sqlsim_error err = {0};
  if (sqlsim_parse(sql, strlen(sql), x->in->schema, 0, &q, &err)) return NULL;
  sqlsim_equiv_normalize_as(q, x->in->equiv_flags);
  return q;
}

/* The structural categories of group i alone: the rules on the diff between
 * the prediction and the prediction with only that group repaired. */
static const sqlsim_categories *group_cats(repair *x, int i) {
  rgroup *r = &x->groups[i];
  if (r->have_cats) return &r->cats;
  r->have_cats = 1;
  if (!x->pred_eq) x->pred_eq = parse_eq(x, repaired_sql(x, 0));
  sqlsim_query *pred_eq = x->pred_eq;
  const char *sql = repaired_sql(x, 1u << i);
  sqlsim_query *q = sql ? parse_eq(x, sql) : NULL;
  sqlsim_diff *d = NULL;
  sqlsim_error err = {0};
  if (q && pred_eq && sqlsim_diff_trees(q->root, pred_eq->root, &d, &err) == 0) {
    sqlsim_categorize_diff(d, x->in->schema, x->out, &r->cats);
    if (x->in->bird) analyze_column_order(d, x->out, &r->cats);
    if (!r->cats.mask) r->cats.mask = r->cats.weak; /* the only difference, and it changes the answer */
  }
  sqlsim_diff_free(d);
  sqlsim_query_free(q);
  if (!r->cats.mask) { /* nothing the rules name: where it is */
    static const int place[] = {SQLSIM_CAT_WRONG_COLUMN, SQLSIM_CAT_FILTER_VALUE, SQLSIM_CAT_JOIN,
                                SQLSIM_CAT_GROUP_HAVING, SQLSIM_CAT_ORDER_LIMIT, SQLSIM_CAT_DISTINCT,
                                SQLSIM_CAT_NESTING, SQLSIM_CAT_OTHER};
    int c = place[r->kind];
    if (r->kind == RG_ITEM) c = r->gpos < 0 ? SQLSIM_CAT_EXTRA_COLUMN : r->ppos < 0 ? SQLSIM_CAT_MISSING_COLUMN : c;
    if (r->kind == RG_COND) c = r->gpos < 0 ? SQLSIM_CAT_EXTRA_FILTER : r->ppos < 0 ? SQLSIM_CAT_MISSING_FILTER : c;
    r->cats.mask = 1u << c;
    r->cats.evidence[c] = r->what;
  }
  r->cats.secondary = 0;
  sqlsim_categories_rank(&r->cats);
  return &r->cats;
}

static const char *describe_group(repair *x, const rgroup *r) {
  const rblock *k = &x->blocks[r->block];
  const char *w = group_words[r->kind];
  if (r->kind == RG_ITEM || r->kind == RG_COND) {
    sqlsim_node **gv = r->kind == RG_ITEM ? k->gi : k->gc, **pv = r->kind == RG_ITEM ? k->pi : k->pc;
    if (r->gpos < 0) return sqlsim_arena_printf(x->out, "%s %s", w, printed(x, pv[r->ppos]));
    if (r->ppos < 0) return sqlsim_arena_printf(x->out, "%s %s missing", w, printed(x, gv[r->gpos]));
    return sqlsim_arena_printf(x->out, "%s %s for %s", w, printed(x, pv[r->ppos]), printed(x, gv[r->gpos]));
  }
  const sqlsim_node *gs = NULL, *ps = NULL;
  switch (r->kind) {
  case RG_FROM: gs = slot(k->g, SQLSIM_SEL_FROM), ps = slot(k->p, SQLSIM_SEL_FROM); break;
  case RG_GROUP: gs = slot(k->g, SQLSIM_SEL_GROUP), ps = slot(k->p, SQLSIM_SEL_GROUP); break;
  case RG_ORDER: gs = slot(k->g, SQLSIM_SEL_ORDER), ps = slot(k->p, SQLSIM_SEL_ORDER); break;
  case RG_WITH: gs = slot(k->g, SQLSIM_SEL_WITH), ps = slot(k->p, SQLSIM_SEL_WITH); break;
  default: return sqlsim_arena_printf(x->out, "%s", w);
  }
  if (!gs || !ps) return sqlsim_arena_printf(x->out, "%s", w);
  return sqlsim_arena_printf(x->out, "%s %.120s for %.120s", w, printed(x, ps), printed(x, gs));
}

/* ---------------------------------------------------------------- the search */


/* Better of two groups as the main one: repairs more alone, then the
 * category named first. */
static int better(repair *x, int i, int j) {
  const rgroup *a = &x->groups[i], *b = &x->groups[j];
  if (a->graded != b->graded) return a->graded > b->graded;
  int ra = analyze_category_rank(group_cats(x, i)->main), rb = analyze_category_rank(group_cats(x, j)->main);
  return ra != rb ? ra < rb : i < j;
}

/* The smallest set of groups found whose repair gives the gold's answer;
 * 0 when none (the budget spent, or every group together does not). In
 * batches: every group and each alone; each pair (eight groups or fewer);
 * then, from all of them, rounds dropping the first group whose removal
 * still repairs (a 1-minimal set, as ddmin ends with). */
static unsigned search(repair *x) {
  int n = x->ngroups, m = 0;
  unsigned all = (1u << n) - 1, v[MAX_BATCH];
  int ok[MAX_BATCH];
  double gr[MAX_BATCH];
  v[m++] = all;
  for (int i = 0; i < n && n > 1; i++) v[m++] = 1u << i;
  int pairs_at = 0;
  if (check_many(x, v, m, ok, gr) || ok[0] != 1) return 0;
  if (n == 1) {
    x->groups[0].agrees = 1;
    x->groups[0].graded = 1;
    return all;
  }
  int best = -1;
  for (int i = 0; i < n; i++) {
    rgroup *r = &x->groups[i];
    r->agrees = ok[1 + i] == 1;
    r->graded = r->agrees ? 1 : gr[1 + i];
  }
  for (int i = 0; i < n; i++)
    if (x->groups[i].agrees && (best < 0 || better(x, i, best))) best = i;
  if (best >= 0) return 1u << best;
  if (n <= 8) { /* pairs: at most 28 */
    m = 0;
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++) v[m++] = (1u << i) | (1u << j);
    if (check_many(x, v, m, ok, gr)) return 0;
    unsigned found = 0;
    double top = -1;
    for (int k = pairs_at; k < m; k++) {
      double sc = 0;
      for (int i = 0; i < n; i++)
        if (v[k] & (1u << i)) sc += x->groups[i].graded;
      if (ok[k] == 1 && sc > top) {
        found = v[k];
        top = sc;
      }
    }
    if (found) return found;
  }
  unsigned set = all;
  for (;;) {
    m = 0;
    for (int i = 0; i < n; i++)
      if (set & (1u << i)) v[m++] = set & ~(1u << i);
    if (m < 2 || check_many(x, v, m, ok, gr)) break;
    int k = 0;
    while (k < m && ok[k] != 1) k++;
    if (k == m) break;
    set = v[k];
  }
  return x->over ? 0 : set;
}

/* The record's categories from the set found: the main group's categories
 * first, then the others' by rank; two kept, the rest in the evidence. */
static void decide(repair *x, unsigned set, sqlsim_repair_part *rep, const char *sql) {
  int main = -1;
  for (int i = 0; i < x->ngroups; i++)
    if ((set & (1u << i)) && (main < 0 || better(x, i, main))) main = i;
  sqlsim_categories c = {0};
  for (int i = 0; i < x->ngroups; i++) {
    if (!(set & (1u << i))) continue;
    const rgroup *g = &x->groups[i];
    const sqlsim_categories *gc = group_cats(x, i);
    for (int k = 0; k < SQLSIM_NCAT; k++)
      if (gc->mask & (1u << k)) {
        const char *ev = gc->evidence[k] ? gc->evidence[k] : g->what;
        if (!(c.mask & (1u << k))) c.evidence[k] = ev;
        else if (ev && strlen(c.evidence[k]) < 400)
          c.evidence[k] = sqlsim_arena_printf(x->out, "%s; %s", c.evidence[k], ev);
        c.mask |= 1u << k;
      }
  }
  sqlsim_categories_rank(&c);
  int first = group_cats(x, main)->main;
  if (first >= 0) { /* the main group's category first */
    int at = 0;
    while (at < c.nranked && c.ranked[at] != first) at++;
    for (; at > 0; at--) c.ranked[at] = c.ranked[at - 1];
    c.ranked[0] = (signed char)first;
    c.main = first;
  }
  analyze_fold(&c, x->out, ANALYZE_KEEP); /* the rest into the second's evidence */
  rep->cats = c;
  rep->sql = sqlsim_arena_strdup(x->out, sql);
  const char *none = NULL;
  for (int i = 0; i < x->ngroups; i++) {
    if (set & (1u << i)) continue;
    const char *w = x->groups[i].what;
    none = none ? sqlsim_arena_printf(x->out, "%s; %s", none, w) : w;
  }
  rep->no_effect = none;
}

int analyze_repair(const analyze_input *in, sqlsim_arena *a, sqlsim_repair_part *rep) {
  if (!in->check || !in->gold || !in->pred_sql || in->repair_checks <= 0 || !a) return -1;
  const sqlsim_query *p = in->pred;
  if (!p) {
    rep->note = "the prediction does not parse";
    return -1;
  }
  repair x = {.in = in, .out = a, .t0 = sbx_clock()};
  int rc = -1;
  const char *why = "no part of the prediction differs from the gold's";
  x.a = arena_new_sized(8192);
  x.gq = sqlsim_query_clone(in->gold);
  x.pq = sqlsim_query_clone(p);
  if (!x.a || !x.gq || !x.pq || rename_items(&x)) {
    why = "out of memory";
    goto done;
  }
  if (block_groups(&x, x.gq->root, x.pq->root)) {
    why = "too many parts differ";
    goto done;
  }
  if (x.ngroups == 0) goto done;
  from_needs(&x);
  for (int i = 0; i < x.ngroups; i++) x.groups[i].what = describe_group(&x, &x.groups[i]);
  unsigned set = search(&x);
  why = x.over ? "the repair budget was spent" : "the gold's parts in the prediction's places do not give the gold's answer";
  if (!set) goto done;
  set = closure(&x, set);
  decide(&x, set, rep, repaired_sql(&x, set));
  rc = 0;
done:
  rep->checks = x.checks;
  if (rc) rep->note = why;
  sqlsim_query_free(x.pred_eq);
  sqlsim_query_free(x.gq);
  sqlsim_query_free(x.pq);
  sqlsim_arena_free(x.a);
  return rc;
}
