/* treediff.c -- edit scripts between two normalized trees (GumTree-style).
 *
 * Both trees are flattened in pre-order; each SELECT slot in use becomes a
 * virtual "clause" node so that moving a condition from WHERE to HAVING is a
 * move, not a coincidence of labels. A node's label is its kind (and clause
 * slot); its value is what an update changes: the resolved column, the table,
 * the function, the literal, the operator, the sort direction. Aliases are no
 * part of either, so renaming one is free.
 *
 * Matching follows GumTree (Falleri et al., ASE 2014):
 *  1. top-down: in pre-order, a gold subtree is mapped to an unmapped
 *     isomorphic prediction subtree (same hash; children of bags -- select
 *     lists, GROUP BY, FROM, AND/OR, IN lists -- hash without order), the one
 *     under the mapped parent first; leaves only when unambiguous;
 *  2. bottom-up: in post-order, an unmapped gold container is mapped to the
 *     unmapped prediction node of its label that shares most mapped
 *     descendants (Dice >= 0.5), and the roots to each other;
 *  3. recovery: unmapped children of mapped containers are paired by label
 *     and value, then by label alone, recursively; each with the candidate
 *     that shares most of its leaves (a range condition with its rewritten
 *     bound, not with a join condition added before it), the first on a tie.
 * The edit script (Chawathe et al.): a mapped pair is an update when values
 * differ, a move when its parents are not mapped to each other (or its place in
 * an ordered list changed), else a keep; unmapped gold nodes are deletes,
 * unmapped prediction nodes inserts. Cost: O(n log n) for the top-down phase,
 * O(n * candidates) for the bottom-up one; trees over 20,000 nodes are
 * refused. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#define MAX_NODES 20000
#define MIN_DICE 0.5

/* labels beyond the node kinds: AND/OR as one; a clause slot; a list by
 * what holds it (a select list is not an argument list) */
enum { L_BOOL = 64, L_CLAUSE = 80, L_LIST = 128 };

static uint64_t value_hash(const char *s) { return mix64(fnv1a_str(FNV_OFFSET, s)); }

static const char *op_value(const sqlsim_node *n) { return sqlsim_op_name(n->op); }

/* "c<column>" without printf (this runs for every column of every pair). */
static const char *col_value(sqlsim_arena *a, int col) {
  char buf[16];
  int k = 15;
  buf[k] = '\0';
  unsigned v = (unsigned)col;
  do {
    buf[--k] = (char)('0' + v % 10);
    v /= 10;
  } while (v && k > 1);
  buf[--k] = 'c';
  return sqlsim_arena_strndup(a, buf + k, (size_t)(15 - k));
}

/* The value an update changes. */
static const char *value_of(sqlsim_arena *a, const sqlsim_node *n) {
  switch (n->kind) {
  case SQLSIM_N_COLUMN:
    if (n->table >= 0 && n->column >= 0) return col_value(a, n->column);
    if (n->table >= 0) return sqlsim_arena_printf(a, "t%d.%s", n->table, n->text);
    return n->text;
  case SQLSIM_N_TABLE: return n->text;
  case SQLSIM_N_STAR: return "*";
  case SQLSIM_N_FUNC:
    return (n->flags & SQLSIM_F_DISTINCT) ? sqlsim_arena_printf(a, "%s/distinct", n->text) : n->text;
  case SQLSIM_N_CAST: { /* the conversion (the type's affinity), not its spelling */
    static const char *conv[] = {"cast I", "cast T", "cast B", "cast R", "cast N"};
    const char *codes = "ITBRN";
    return conv[strchr(codes, core_type_affinity(n->text)) - codes];
  }
  case SQLSIM_N_CONST:
  case SQLSIM_N_PARAM:
  case SQLSIM_N_COLLATE:
    return n->text;
  case SQLSIM_N_BINOP:
  case SQLSIM_N_UNOP: return op_value(n);
  case SQLSIM_N_AND: return "and";
  case SQLSIM_N_OR: return "or";
  case SQLSIM_N_SELECT: {
    static const char *ops[] = {"select", "union", "intersect", "except"};
    const char *v = ops[n->op & 3];
    if (n->flags & SQLSIM_F_ALL) return sqlsim_arena_printf(a, "%s all", v);
    if (n->flags & SQLSIM_F_DISTINCT) return "select distinct";
    return v;
  }
  case SQLSIM_N_SORT: return n->op == SQLSIM_SORT_DESC ? "desc" : "asc";
  case SQLSIM_N_JOIN: {
    static const char *j[] = {"inner", "left", "right", "full", "cross"};
    return j[n->op % 5];
  }
  case SQLSIM_N_SUBLINK: {
    static const char *s[] = {"exists", "in", "scalar", "any", "all"};
    return (n->flags & SQLSIM_F_NOT) ? sqlsim_arena_printf(a, "not %s", s[n->op % 5]) : s[n->op % 5];
  }
  case SQLSIM_N_IN:
  case SQLSIM_N_BETWEEN: return (n->flags & SQLSIM_F_NOT) ? "not" : "";
  case SQLSIM_N_ISNULL: return n->op == SQLSIM_NOTNULL ? "is not null" : "is null";
  case SQLSIM_N_BOOLTEST: return sqlsim_arena_printf(a, "%d", n->op);
  case SQLSIM_N_WINDOW: return sqlsim_arena_printf(a, "%d", n->aux);
  default: return "";
  }
}

static uint32_t node_label(const sqlsim_node *n) {
  if (n->kind == SQLSIM_N_AND || n->kind == SQLSIM_N_OR) return L_BOOL;
  return n->kind;
}

static int unordered_kids(const sqlsim_node *n, int clause) {
  if (n->kind == SQLSIM_N_AND || n->kind == SQLSIM_N_OR) return 1;
  if (n->kind == SQLSIM_N_LIST && ((n->flags & SQLSIM_F_UNORDERED) || clause == SQLSIM_SEL_FROM)) return 1;
  return 0;
}

/* ---------------------------------------------------------------- flatten */

typedef struct flat_ctx {
  ftree *t;
  sqlsim_arena *a;
  int cap, kcap;
  int overflow;
} flat_ctx;

static int add_node(flat_ctx *c, const sqlsim_node *n, int slot, int parent, int clause) {
  ftree *t = c->t;
  if (t->n >= MAX_NODES) {
    c->overflow = 1;
    return -1;
  }
  t->v = arena_array_grow(c->a, t->v, t->n, &c->cap, sizeof *t->v, 256);
  int i = t->n++;
  fnode *f = &t->v[i];
  memset(f, 0, sizeof *f);
  f->n = n;
  f->slot = slot;
  f->parent = parent;
  f->clause = clause;
  f->match = -1;
  if (slot >= 0) {
    f->label = L_CLAUSE + 1 + (uint32_t)slot;
    f->value = "";
  } else {
    f->label = node_label(n);
    if (n->kind == SQLSIM_N_LIST && parent >= 0) f->label = L_LIST + t->v[parent].label;
    f->value = value_of(c->a, n);
    f->table = n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_SUBQUERY ||
               n->kind == SQLSIM_N_FUNCTABLE;
  }
  return i;
}

/* Children are stored as (first, count) into t->kids; built after the walk. */
static int flatten_node(flat_ctx *c, const sqlsim_node *n, int parent, int clause) {
  int me = add_node(c, n, -1, parent, clause);
  if (me < 0) return -1;
  if (n->kind == SQLSIM_N_SELECT) {
    for (uint32_t s = 0; s < n->nkids; s++) {
      if (!n->kids[s]) continue;
      int cl = add_node(c, n, (int)s, me, (int)s);
      if (cl < 0) return -1;
      if (flatten_node(c, n->kids[s], cl, (int)s) < 0) return -1;
    }
  } else {
    for (uint32_t k = 0; k < n->nkids; k++)
      if (n->kids[k] && flatten_node(c, n->kids[k], me, clause) < 0) return -1;
  }
  return me;
}

static void build_structure(ftree *t, sqlsim_arena *a) {
  int n = t->n;
  int *count = calloc((size_t)n + 1, sizeof(int));
  for (int i = 1; i < n; i++) count[t->v[i].parent]++;
  t->kids = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(n + 1));
  int at = 0;
  for (int i = 0; i < n; i++) {
    t->v[i].first = at;
    at += count[i];
    t->v[i].nkids = 0;
  }
  for (int i = 1; i < n; i++) {
    fnode *p = &t->v[t->v[i].parent];
    t->v[i].pos = p->nkids;
    t->kids[p->first + p->nkids++] = i;
  }
  free(count);
  /* sizes, heights, hashes: children come after parents in pre-order */
  for (int i = n - 1; i >= 0; i--) {
    fnode *f = &t->v[i];
    f->size = 1;
    f->height = 1;
    int unordered = f->slot < 0 && unordered_kids(f->n, f->clause);
    f->unordered = (unsigned)unordered;
    uint64_t h = mix64(((uint64_t)f->label << 32) ^ value_hash(f->value)), acc = 0;
    for (int k = 0; k < f->nkids; k++) {
      const fnode *ch = &t->v[t->kids[f->first + k]];
      f->size += ch->size;
      if (ch->height + 1 > f->height) f->height = ch->height + 1;
      if (unordered) acc += mix64(ch->hash);
      else h = mix64(h ^ (ch->hash + 0x9e3779b97f4a7c15ULL * (uint64_t)(k + 1)));
    }
    f->hash = unordered ? mix64(h ^ acc) : h;
  }
}

int diff_flatten(sqlsim_arena *a, const sqlsim_node *root, ftree *t) {
  memset(t, 0, sizeof *t);
  flat_ctx c = {t, a, 0, 0, 0};
  if (flatten_node(&c, root, -1, -1) < 0 || c.overflow) return -1;
  build_structure(t, a);
  return 0;
}

/* ---------------------------------------------------------------- matching */

typedef struct match_ctx {
  ftree *g, *p;
} match_ctx;

static void map_pair(match_ctx *m, int a, int b) {
  m->g->v[a].match = b;
  m->p->v[b].match = a;
}

/* Maps two isomorphic subtrees node for node (bag children paired by hash). */
static void map_iso(match_ctx *m, int a, int b) {
  map_pair(m, a, b);
  fnode *fa = &m->g->v[a], *fb = &m->p->v[b];
  if (!fa->unordered) {
    for (int k = 0; k < fa->nkids && k < fb->nkids; k++)
      map_iso(m, m->g->kids[fa->first + k], m->p->kids[fb->first + k]);
    return;
  }
  for (int k = 0; k < fa->nkids; k++) {
    int ca = m->g->kids[fa->first + k];
    for (int j = 0; j < fb->nkids; j++) {
      int cb = m->p->kids[fb->first + j];
      if (m->p->v[cb].match < 0 && m->p->v[cb].hash == m->g->v[ca].hash) {
        map_iso(m, ca, cb);
        break;
      }
    }
  }
}

typedef struct hent {
  uint64_t hash;
  int idx;
} hent;

static int hent_less(const hent *a, const hent *b) {
  return a->hash != b->hash ? a->hash < b->hash : a->idx < b->idx;
}

/* In-place quicksort (glibc's qsort allocates; this runs per pair). */
static void hent_sort(hent *v, int n) {
  while (n > 16) {
    hent pivot = v[n / 2];
    int i = 0, j = n - 1;
    while (i <= j) {
      while (hent_less(&v[i], &pivot)) i++;
      while (hent_less(&pivot, &v[j])) j--;
      if (i <= j) {
        hent t = v[i];
        v[i++] = v[j];
        v[j--] = t;
      }
    }
    if (j + 1 < n - i) {
      hent_sort(v, j + 1);
      v += i;
      n -= i;
    } else {
      hent_sort(v + i, n - i);
      n = j + 1;
    }
  }
  for (int i = 1; i < n; i++)
    for (int k = i; k > 0 && hent_less(&v[k], &v[k - 1]); k--) {
      hent t = v[k];
      v[k] = v[k - 1];
      v[k - 1] = t;
    }
}

static double dice(match_ctx *m, int a, int b);

/* Candidates a gold subtree is offered among the prediction's equal ones. */
#define AMB_CANDIDATES 64

typedef struct amb {
  int g, p;
  int gp, pp; /* their parents */
  double score;
  int height;
} amb;

static int amb_parent_cmp(const void *x, const void *y) {
  const amb *a = x, *b = y;
  if (a->gp != b->gp) return a->gp < b->gp ? -1 : 1;
  if (a->pp != b->pp) return a->pp < b->pp ? -1 : 1;
  return 0;
}

static int amb_cmp(const void *x, const void *y) {
  const amb *a = x, *b = y;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  if (a->height != b->height) return b->height - a->height;
  if (a->g != b->g) return a->g - b->g;
  return a->p - b->p;
}

/* The run [lo, hi) of equal hashes h in a sorted table. */
static int hash_run(const hent *tab, int n, uint64_t h, int *hi) {
  int lo = 0, up = n;
  while (lo < up) {
    int mid = (lo + up) / 2;
    if (tab[mid].hash < h) lo = mid + 1;
    else up = mid;
  }
  int e = lo;
  while (e < n && tab[e].hash == h) e++;
  *hi = e;
  return lo;
}

/* Top-down: taller subtrees first; a subtree whose hash is unique among the
 * unmapped nodes on both sides is mapped at once, ambiguous ones are mapped
 * afterwards by how well their parents agree (GumTree's rule). */
static void top_down(match_ctx *m) {
  int np = m->p->n, ng = m->g->n;
  hent *ph = malloc(sizeof *ph * (size_t)(np + 1)), *gh = malloc(sizeof *gh * (size_t)(ng + 1));
  for (int i = 0; i < np; i++) ph[i] = (hent){m->p->v[i].hash, i};
  for (int i = 0; i < ng; i++) gh[i] = (hent){m->g->v[i].hash, i};
  hent_sort(ph, np);
  hent_sort(gh, ng);
  /* gold nodes by height (desc), then pre-order: sort (-height, index) keys */
  hent *oh = malloc(sizeof *oh * (size_t)(ng + 1));
  for (int i = 0; i < ng; i++) oh[i] = (hent){(uint64_t)(0x7fffffff - m->g->v[i].height), i};
  hent_sort(oh, ng);
  int *order = malloc(sizeof *order * (size_t)(ng + 1));
  for (int i = 0; i < ng; i++) order[i] = oh[i].idx;
  free(oh);
  int acap = 64, na = 0;
  amb *ambs = malloc(sizeof *ambs * (size_t)acap);
  /* per run of equal gold hashes (by its start): how many of its nodes were
   * given candidates so far */
  int *ranks = calloc((size_t)ng + 1, sizeof *ranks);
  for (int k = 0; k < ng; k++) {
    int i = order[k];
    fnode *f = &m->g->v[i];
    if (f->match >= 0) continue;
    /* inside an already mapped subtree: nothing left to do here */
    int pe, ge;
    int pl = hash_run(ph, np, f->hash, &pe), gl = hash_run(gh, ng, f->hash, &ge);
    int pfree = 0, gfree = 0, cand = -1;
    for (int x = pl; x < pe && pfree < 2; x++) /* one free, or more */
      if (m->p->v[ph[x].idx].match < 0) {
        pfree++;
        if (cand < 0) cand = ph[x].idx;
      }
    for (int x = gl; x < ge && gfree < 2; x++) gfree += m->g->v[gh[x].idx].match < 0;
    if (!pfree) continue;
    if (pfree == 1 && gfree == 1) {
      map_iso(m, i, cand);
      continue;
    }
    /* candidates: at most AMB_CANDIDATES free ones, starting at this node's
     * rank among its equal gold subtrees, so k equal subtrees on each side
     * (3,000 copies of one condition) pair off by position rather than
     * k x k (the pairs, and a Dice per pair, made one such input take a
     * minute) */
    int run = pe - pl, start = ranks[gl]++ % run, taken = 0;
    for (int y = 0; y < run && taken < AMB_CANDIDATES; y++) {
      int c = ph[pl + (start + y) % run].idx;
      if (m->p->v[c].match >= 0) continue;
      if (na == acap) ambs = realloc(ambs, sizeof *ambs * (size_t)(acap *= 2));
      ambs[na++] = (amb){i, c, f->parent, m->p->v[c].parent, 0, f->height};
      taken++;
    }
  }
  free(ranks);
  /* ambiguous pairs: parents mapped to each other first, then parent Dice,
   * computed once per pair of parents (many candidates share theirs) */
  if (na > 1) qsort(ambs, (size_t)na, sizeof *ambs, amb_parent_cmp);
  for (int k = 0; k < na;) {
    int gp = ambs[k].gp, pp = ambs[k].pp;
    double sc = 0;
    if (gp >= 0 && pp >= 0) {
      if (m->g->v[gp].match == pp) sc = 2;
      else if (m->g->v[gp].label == m->p->v[pp].label) sc = 1 + dice(m, gp, pp);
    }
    while (k < na && ambs[k].gp == gp && ambs[k].pp == pp) ambs[k++].score = sc;
  }
  if (na > 1) qsort(ambs, (size_t)na, sizeof *ambs, amb_cmp);
  for (int k = 0; k < na; k++) {
    amb *a = &ambs[k];
    if (m->g->v[a->g].match >= 0 || m->p->v[a->p].match >= 0) continue;
    /* a bare leaf needs its parents to agree */
    if (m->g->v[a->g].size == 1 && a->score < 2) continue;
    map_iso(m, a->g, a->p);
  }
  free(ambs);
  free(order);
  free(ph);
  free(gh);
}

/* Dice of the mapped descendants of gold a and prediction b. */
static double dice(match_ctx *m, int a, int b) {
  fnode *fa = &m->g->v[a], *fb = &m->p->v[b];
  int common = 0;
  if (fa->size <= fb->size) { /* counted from the smaller side: matches are mutual */
    for (int d = a + 1; d < a + fa->size; d++) {
      int x = m->g->v[d].match;
      if (x > b && x < b + fb->size) common++;
    }
  } else {
    for (int d = b + 1; d < b + fb->size; d++) {
      int x = m->p->v[d].match;
      if (x > a && x < a + fa->size) common++;
    }
  }
  int da = fa->size - 1, db = fb->size - 1;
  return da + db ? 2.0 * common / (da + db) : 0;
}

#define LEAVES 64     /* leaves of a subtree compared when recovery chooses */
#define CHOICES 4096  /* child pairs past which recovery takes the first candidate */

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return (a > b) - (a < b);
}

/* The hashes (label and value) of the first LEAVES leaves under node i, sorted. */
static int leaves_of(const ftree *t, int i, uint64_t *out) {
  int n = 0;
  for (int d = i; d < i + t->v[i].size && n < LEAVES; d++)
    if (!t->v[d].nkids) out[n++] = t->v[d].hash;
  qsort(out, (size_t)n, sizeof *out, cmp_u64);
  return n;
}

/* How many leaves (as a bag) gold subtree a and prediction subtree b share:
 * recovery pairs a child with the candidate most like it, not the first one
 * in order (a select item with the one added that reads its columns). */
static int shared_leaves(match_ctx *m, int a, int b) {
  uint64_t x[LEAVES], y[LEAVES];
  int nx = leaves_of(m->g, a, x), ny = leaves_of(m->p, b, y), k = 0;
  for (int i = 0, j = 0; i < nx && j < ny;) {
    if (x[i] == y[j]) k++, i++, j++;
    else if (x[i] < y[j]) i++;
    else j++;
  }
  return k;
}

static void recover(match_ctx *m, int a, int b) {
  fnode *fa = &m->g->v[a], *fb = &m->p->v[b];
  int choose = (long)fa->nkids * fb->nkids <= CHOICES;
  for (int pass = 0; pass < 2; pass++) {
    for (int k = 0; k < fa->nkids; k++) {
      int ca = m->g->kids[fa->first + k];
      if (m->g->v[ca].match >= 0) continue;
      int best = -1, most = -1, first = -1;
      for (int j = 0; j < fb->nkids; j++) {
        int cb = m->p->kids[fb->first + j];
        if (m->p->v[cb].match >= 0 || m->p->v[cb].label != m->g->v[ca].label) continue;
        if (pass == 0 && strcmp(m->p->v[cb].value, m->g->v[ca].value)) continue;
        if (first < 0) { /* the leaves are read only where there is a choice */
          first = best = cb;
          if (!choose) break;
          continue;
        }
        if (most < 0) most = shared_leaves(m, ca, first);
        int s = shared_leaves(m, ca, cb);
        if (s > most) most = s, best = cb;
      }
      if (best >= 0) {
        map_pair(m, ca, best);
        recover(m, ca, best);
      }
    }
  }
  /* matched children may still have unmatched children of their own */
  for (int k = 0; k < fa->nkids; k++) {
    int ca = m->g->kids[fa->first + k];
    int cb = m->g->v[ca].match;
    if (cb >= 0 && m->p->v[cb].parent == b && m->g->v[ca].nkids) recover(m, ca, cb);
  }
}

static void bottom_up(match_ctx *m) {
  /* post-order over gold = reverse pre-order works for "children before parent" */
  for (int i = m->g->n - 1; i >= 0; i--) {
    fnode *f = &m->g->v[i];
    if (f->match >= 0 || f->nkids == 0) continue;
    int has = 0;
    for (int d = i + 1; d < i + f->size && !has; d++) has = m->g->v[d].match >= 0;
    if (!has) continue;
    int best = -1;
    double bd = 0;
    for (int c = 0; c < m->p->n; c++) {
      if (m->p->v[c].match >= 0 || m->p->v[c].label != f->label) continue;
      double d = dice(m, i, c);
      if (d > bd) {
        bd = d;
        best = c;
      }
    }
    if (best >= 0 && bd >= MIN_DICE) {
      map_pair(m, i, best);
      recover(m, i, best);
    }
  }
  if (m->g->v[0].match < 0 && m->p->v[0].match < 0 && m->g->v[0].label == m->p->v[0].label)
    map_pair(m, 0, 0);
  if (m->g->v[0].match == 0) recover(m, 0, 0);
}

void diff_match(ftree *g, ftree *p) {
  match_ctx m = {g, p};
  top_down(&m);
  bottom_up(&m);
}

/* ---------------------------------------------------------------- script */

/* An operator whose operands do not commute and are not put in one order by
 * normalization (x - y, x / y, x || y, x LIKE p): their order is meaning. */
static int operands_ordered(const sqlsim_node *n) {
  if (n->kind == SQLSIM_N_BETWEEN) return 1;
  if (n->kind != SQLSIM_N_BINOP) return 0;
  switch (n->op) {
  case SQLSIM_OP_SUB: case SQLSIM_OP_DIV: case SQLSIM_OP_MOD: case SQLSIM_OP_CONCAT:
  case SQLSIM_OP_SHL: case SQLSIM_OP_SHR: case SQLSIM_OP_LIKE: case SQLSIM_OP_NOTLIKE:
  case SQLSIM_OP_GLOB: case SQLSIM_OP_NOTGLOB: case SQLSIM_OP_REGEXP: case SQLSIM_OP_NOTREGEXP:
  case SQLSIM_OP_ILIKE: case SQLSIM_OP_NOTILIKE: case SQLSIM_OP_OTHER: return 1;
  default: return 0;
  }
}

static int ordered_parent(const ftree *t, int i) {
  int p = t->v[i].parent;
  return p >= 0 && !t->v[p].unordered && t->v[p].slot < 0 &&
         (t->v[p].clause == SQLSIM_SEL_ORDER || t->v[p].n->kind == SQLSIM_N_LIST ||
          t->v[p].n->kind == SQLSIM_N_FUNC || operands_ordered(t->v[p].n));
}

/* A table added or removed counts as a change of table when the query block
 * it sits in is in both trees; a table inside a subquery that was added or
 * removed whole is part of that subquery (a dropped select item with a
 * scalar subquery is not a change of table). */
static int table_change(const ftree *t, int i) {
  for (int a = t->v[i].parent; a >= 0; a = t->v[a].parent)
    if (t->v[a].slot < 0 && t->v[a].n->kind == SQLSIM_N_SELECT) return t->v[a].match >= 0;
  return 1;
}

/* The node a node sits in; NULL when that is a clause. */
static const sqlsim_node *parent_node(const ftree *t, int i) {
  int up = t->v[i].parent;
  return up >= 0 && t->v[up].slot < 0 ? t->v[up].n : NULL;
}

int diff_script(sqlsim_diff *d, const ftree *g, const ftree *p) {
  sqlsim_arena *a = d->arena;
  int cap = g->n + p->n + 1;
  d->edits = sqlsim_arena_alloc(a, sizeof *d->edits * (size_t)cap);
  for (int i = 0; i < g->n; i++) {
    const fnode *f = &g->v[i];
    sqlsim_edit *e = &d->edits[d->nedits++];
    e->gold = f->slot >= 0 ? NULL : f->n;
    e->gold_content = f->slot >= 0 ? f->n->kids[f->slot] : f->n;
    e->clause = f->clause;
    e->table = f->table;
    e->gold_index = i;
    e->gold_parent = parent_node(g, i);
    e->pred_index = f->match;
    e->pred_clause = -1;
    if (f->match < 0) {
      e->whole = f->parent >= 0 && (g->v[f->parent].slot >= 0 || g->v[f->parent].label == L_BOOL);
      e->action = SQLSIM_EDIT_DELETE;
      d->ndelete++;
      if (f->table && table_change(g, i)) d->table_changed = 1;
      continue;
    }
    const fnode *q = &p->v[f->match];
    e->pred_clause = q->clause;
    e->pred = q->slot >= 0 ? NULL : q->n;
    e->pred_content = q->slot >= 0 ? q->n->kids[q->slot] : q->n;
    e->pred_parent = parent_node(p, f->match);
    int gp = f->parent, pp = q->parent;
    if (strcmp(f->value, q->value)) {
      e->action = SQLSIM_EDIT_UPDATE;
      d->nupdate++;
      if (f->table) d->table_changed = 1;
    } else if ((gp < 0) != (pp < 0) || (gp >= 0 && g->v[gp].match != pp)) {
      e->action = SQLSIM_EDIT_MOVE;
      d->nmove++;
    } else if (gp >= 0 && ordered_parent(g, i) && f->pos != q->pos) {
      e->action = SQLSIM_EDIT_MOVE;
      e->ordered = 1;
      d->nmove++;
    } else {
      e->action = SQLSIM_EDIT_KEEP;
      d->nkeep++;
    }
  }
  for (int j = 0; j < p->n; j++) {
    const fnode *q = &p->v[j];
    if (q->match >= 0) continue;
    sqlsim_edit *e = &d->edits[d->nedits++];
    e->action = SQLSIM_EDIT_INSERT;
    e->pred_clause = q->clause;
    e->whole = q->parent >= 0 && (p->v[q->parent].slot >= 0 || p->v[q->parent].label == L_BOOL);
    e->pred = q->slot >= 0 ? NULL : q->n;
    e->pred_content = q->slot >= 0 ? q->n->kids[q->slot] : q->n;
    e->clause = q->clause;
    e->table = q->table;
    e->gold_index = -1;
    e->pred_index = j;
    e->pred_parent = parent_node(p, j);
    d->ninsert++;
    if (q->table && table_change(p, j)) d->table_changed = 1;
  }
  return 0;
}

const ftree *diff_gold_tree(const sqlsim_diff *d) { return &d->priv->g; }
const ftree *diff_pred_tree(const sqlsim_diff *d) { return &d->priv->p; }
