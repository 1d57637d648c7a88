/* checks.c -- what a schema's CHECK constraints say of each column, in the
 * forms the generator and the search can obey.
 *
 * SQLite enforces every CHECK on the tables synth creates (the schema's DDL
 * carries them, sqlsim_schema_ddl): a generated row that breaks one is left
 * out, a changed database that breaks one does not load, so no database a
 * verdict rests on breaks one. That alone would lose rows and changes; so
 * the simple forms are read here, each CHECK parsed with the schema as the
 * condition of a query on its table, its AND-ed parts one at a time:
 *
 *   col IN (v, ..), col = v, col = v OR col = w    the values allowed
 *   col <> v, col NOT IN (v, ..)                   values not allowed
 *   col op number (<, <=, >, >=), BETWEEN          a range
 *   length(col) op n, length(col) BETWEEN a AND b  a length
 *   col IS NOT NULL                                not NULL
 *
 * (either side may be the column). Values are then made to conform
 * (synth_check_conform: the generator's rows before they are loaded), and
 * the search's changes skip a cell whose new value a CHECK refuses
 * (synth_check_allows). A CHECK of another form is left to SQLite; the
 * columns it names are marked `other`. NULL passes a CHECK (SQL's rule) but
 * IS NOT NULL. */
#include "synth.h"
#include "parser/tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static synth_val const_val(const sqlsim_node *n) {
  int neg = 0;
  if (n && n->kind == SQLSIM_N_UNOP && n->op == SQLSIM_OP_NEG && n->nkids == 1) {
    neg = 1;
    n = n->kids[0];
  }
  if (!n || n->kind != SQLSIM_N_CONST || !n->text) return (synth_val){0};
  if (n->op == SQLSIM_CONST_INT) {
    long long v;
    if (!core_int_literal(n->text, &v)) return (synth_val){0};
    return (synth_val){.kind = 'i', .i = neg ? -v : v};
  }
  if (n->op == SQLSIM_CONST_FLOAT) {
    double v = strtod(n->text, NULL);
    return (synth_val){.kind = 'r', .r = neg ? -v : v};
  }
  if (n->op == SQLSIM_CONST_STRING && !neg) return (synth_val){.kind = 't', .t = n->text};
  return (synth_val){0};
}

static int is_num(const synth_val *v) { return v->kind == 'i' || v->kind == 'r'; }
static double num(const synth_val *v) { return v->kind == 'i' ? (double)v->i : v->r; }

/* The schema column of a column reference of table t, or -1. */
static int column_of(const sqlsim_node *n, int t, const sqlsim_schema *s) {
  if (!n || n->kind != SQLSIM_N_COLUMN || n->column < 0 || n->column >= s->ncolumns) return -1;
  return s->columns[n->column].table == t ? n->column : -1;
}

/* length(col) of table t: the column, or -1. */
static int length_of(const sqlsim_node *n, int t, const sqlsim_schema *s) {
  if (!n || n->kind != SQLSIM_N_FUNC || !n->text || strcmp(n->text, "length") || !n->kids || !n->kids[0] ||
      n->kids[0]->nkids != 1)
    return -1;
  return column_of(n->kids[0]->kids[0], t, s);
}

static void add_value(sqlsim_arena *a, const synth_val **list, int *n, synth_val v) {
  synth_val *x = sqlsim_arena_alloc(a, sizeof *x * (size_t)(*n + 1));
  if (*n) memcpy(x, *list, sizeof *x * (size_t)*n);
  if (v.kind == 't') v.t = sqlsim_arena_strdup(a, v.t);
  x[(*n)++] = v;
  *list = x;
}

static void bound(synth_colcheck *c, int op, double v) {
  switch (op) {
  case SQLSIM_OP_GT:
  case SQLSIM_OP_GE:
    if (!c->has_lo || v > c->lo || (v == c->lo && op == SQLSIM_OP_GT)) {
      c->lo = v;
      c->lo_open = op == SQLSIM_OP_GT;
    }
    c->has_lo = 1;
    break;
  case SQLSIM_OP_LT:
  case SQLSIM_OP_LE:
    if (!c->has_hi || v < c->hi || (v == c->hi && op == SQLSIM_OP_LT)) {
      c->hi = v;
      c->hi_open = op == SQLSIM_OP_LT;
    }
    c->has_hi = 1;
    break;
  }
}

static void length_bound(synth_colcheck *c, int op, long long v) {
  if (v < 0) v = 0;
  if (v > 100000) v = 100000;
  switch (op) {
  case SQLSIM_OP_GT: v++; /* fall through */
  case SQLSIM_OP_GE:
    if (v > c->min_len) c->min_len = (int)v;
    break;
  case SQLSIM_OP_LT: v--; /* fall through */
  case SQLSIM_OP_LE:
    if (c->max_len < 0 || v < c->max_len) c->max_len = (int)(v < 0 ? 0 : v);
    break;
  case SQLSIM_OP_EQ:
    c->min_len = c->max_len = (int)v;
    break;
  }
}

/* One AND-ed part of a CHECK on table t: its column's rule, 1; 0 when it is
 * of no form read here. */
static int read_part(synth_checks *k, const sqlsim_schema *s, int t, const sqlsim_node *n) {
  sqlsim_arena *a = k->a;
  if (n->kind == SQLSIM_N_ISNULL && n->op == SQLSIM_NOTNULL) {
    int col = column_of(n->kids[0], t, s);
    if (col < 0) return 0;
    k->col[col].not_null = 1;
    return 1;
  }
  if (n->kind == SQLSIM_N_IN && n->nkids == 2 && n->kids[1] && n->kids[1]->kind == SQLSIM_N_LIST) {
    int col = column_of(n->kids[0], t, s);
    if (col < 0) return 0;
    synth_colcheck *c = &k->col[col];
    const sqlsim_node *l = n->kids[1];
    for (uint32_t i = 0; i < l->nkids; i++)
      if (!const_val(l->kids[i]).kind) return 0;
    if (!(n->flags & SQLSIM_F_NOT) && c->nset) return 0; /* two lists: the rule is their intersection; SQLite's */
    for (uint32_t i = 0; i < l->nkids; i++)
      if (n->flags & SQLSIM_F_NOT) add_value(a, &c->out, &c->nout, const_val(l->kids[i]));
      else add_value(a, &c->set, &c->nset, const_val(l->kids[i]));
    return 1;
  }
  if (n->kind == SQLSIM_N_OR) { /* col = v OR col = w ...: a list */
    int col = -1;
    for (uint32_t i = 0; i < n->nkids; i++) {
      const sqlsim_node *e = n->kids[i];
      if (e->kind != SQLSIM_N_BINOP || e->op != SQLSIM_OP_EQ) return 0;
      int c1 = column_of(e->kids[0], t, s), c2 = column_of(e->kids[1], t, s);
      int c = c1 >= 0 ? c1 : c2;
      if (c < 0 || (col >= 0 && c != col) || !const_val(e->kids[c1 >= 0 ? 1 : 0]).kind) return 0;
      col = c;
    }
    if (col < 0 || k->col[col].nset) return 0;
    for (uint32_t i = 0; i < n->nkids; i++) {
      const sqlsim_node *e = n->kids[i];
      int right = column_of(e->kids[0], t, s) >= 0;
      add_value(a, &k->col[col].set, &k->col[col].nset, const_val(e->kids[right ? 1 : 0]));
    }
    return 1;
  }
  if (n->kind == SQLSIM_N_BETWEEN && n->nkids == 3 && !(n->flags & SQLSIM_F_NOT)) {
    synth_val lo = const_val(n->kids[1]), hi = const_val(n->kids[2]);
    if (!is_num(&lo) || !is_num(&hi)) return 0;
    int col = column_of(n->kids[0], t, s), len = length_of(n->kids[0], t, s);
    if (col >= 0) {
      bound(&k->col[col], SQLSIM_OP_GE, num(&lo));
      bound(&k->col[col], SQLSIM_OP_LE, num(&hi));
      return 1;
    }
    if (len >= 0 && lo.kind == 'i' && hi.kind == 'i') {
      length_bound(&k->col[len], SQLSIM_OP_GE, lo.i);
      length_bound(&k->col[len], SQLSIM_OP_LE, hi.i);
      return 1;
    }
    return 0;
  }
  if (n->kind == SQLSIM_N_BINOP && n->nkids >= 2 && n->op >= SQLSIM_OP_EQ && n->op <= SQLSIM_OP_GE) {
    int op = n->op;
    const sqlsim_node *x = n->kids[0], *y = n->kids[1];
    if (const_val(x).kind) { /* the constant on the left: read it mirrored */
      const sqlsim_node *tmp = x;
      x = y;
      y = tmp;
      op = tree_op_mirror(op);
    }
    synth_val v = const_val(y);
    if (!v.kind) return 0;
    int col = column_of(x, t, s), len = length_of(x, t, s);
    if (col >= 0) {
      synth_colcheck *c = &k->col[col];
      if (op == SQLSIM_OP_EQ) {
        if (c->nset) return 0;
        add_value(a, &c->set, &c->nset, v);
      } else if (op == SQLSIM_OP_NE) {
        add_value(a, &c->out, &c->nout, v);
      } else {
        if (!is_num(&v)) return 0; /* text compared by order: SQLite's to enforce */
        bound(c, op, num(&v));
      }
      return 1;
    }
    if (len >= 0 && v.kind == 'i' && op != SQLSIM_OP_NE) {
      length_bound(&k->col[len], op, v.i);
      return 1;
    }
  }
  return 0;
}

/* The columns of table t an expression names: marked `other`. */
static int mark_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  synth_checks *k = ((void **)ctx)[0];
  const int *t = ((void **)ctx)[1];
  if (n->kind == SQLSIM_N_COLUMN && n->column >= 0 && n->column < k->s->ncolumns &&
      k->s->columns[n->column].table == *t)
    k->col[n->column].other = 1;
  return SQLSIM_WALK_CONTINUE;
}

synth_checks *synth_checks_make(const sqlsim_schema *s) {
  int any = 0;
  for (int t = 0; t < s->ntables; t++) any |= s->tables[t].nchecks > 0;
  if (!any) return NULL;
  synth_checks *k = calloc(1, sizeof *k);
  if (!k || !(k->a = sqlsim_arena_new())) {
    free(k);
    return NULL;
  }
  k->s = s;
  k->col = sqlsim_arena_alloc(k->a, sizeof *k->col * (size_t)(s->ncolumns + 1));
  for (int c = 0; c < s->ncolumns; c++) k->col[c].max_len = -1;
  for (int t = 0; t < s->ntables; t++)
    for (int i = 0; i < s->tables[t].nchecks; i++) {
      strbuf sb = {0};
      sb_puts(&sb, "SELECT 1 FROM ");
      sb_ident(&sb, s->tables[t].name);
      sb_printf(&sb, " WHERE (%s)", s->tables[t].checks[i]);
      sqlsim_query *q = NULL;
      const sqlsim_node *w = NULL;
      if (sb.buf && !sqlsim_parse(sb.buf, sb.len, s, 0, &q, NULL) && q->root && q->root->kind == SQLSIM_N_SELECT)
        w = q->root->kids[SQLSIM_SEL_WHERE];
      sb_free(&sb);
      k->nchecks++;
      int all = w != NULL;
      for (uint32_t j = 0; w && j < (w->kind == SQLSIM_N_AND ? w->nkids : 1); j++) {
        const sqlsim_node *part = w->kind == SQLSIM_N_AND ? w->kids[j] : w;
        if (!read_part(k, s, t, part)) {
          all = 0;
          void *ctx[2] = {k, &t};
          sqlsim_walk((sqlsim_node *)part, mark_pre, NULL, ctx);
        }
      }
      if (!all) k->other++;
      if (!w) /* not read at all: every column of the table may be under it */
        for (int c = 0; c < s->tables[t].ncolumns; c++) k->col[s->tables[t].first_column + c].other = 1;
      sqlsim_query_free(q);
    }
  for (int c = 0; c < s->ncolumns; c++) {
    synth_colcheck *x = &k->col[c];
    x->any = x->not_null || x->nset || x->nout || x->has_lo || x->has_hi || x->min_len > 0 || x->max_len >= 0;
  }
  return k;
}

void synth_checks_free(synth_checks *k) {
  if (!k) return;
  sqlsim_arena_free(k->a);
  free(k);
}

/* ---------------------------------------------------------------- a value against a column's rule */

static int text_len(const synth_val *v, char *buf, size_t n) {
  if (v->kind == 't') return (int)strlen(v->t); /* SQLite counts characters; the generator writes ASCII */
  if (v->kind == 'i') return snprintf(buf, n, "%lld", v->i);
  if (v->kind == 'r') return snprintf(buf, n, "%.15g", v->r);
  return 0;
}

int synth_check_allows(const synth_checks *k, int col, const synth_val *v) {
  if (!k || col < 0 || !k->col[col].any) return 1;
  const synth_colcheck *c = &k->col[col];
  if (v->kind == 'n' || !v->kind) return !c->not_null;
  if (c->nset) {
    int in = 0;
    for (int i = 0; i < c->nset && !in; i++) in = synth_val_eq(&c->set[i], v);
    if (!in) return 0;
  }
  for (int i = 0; i < c->nout; i++)
    if (synth_val_eq(&c->out[i], v)) return 0;
  if (c->has_lo || c->has_hi) {
    if (!is_num(v)) return 0; /* text sorts after every number: only numbers fit a range */
    double x = num(v);
    if (c->has_lo && (x < c->lo || (c->lo_open && x == c->lo))) return 0;
    if (c->has_hi && (x > c->hi || (c->hi_open && x == c->hi))) return 0;
  }
  if (c->min_len > 0 || c->max_len >= 0) {
    char buf[64];
    int n = text_len(v, buf, sizeof buf);
    if (n < c->min_len || (c->max_len >= 0 && n > c->max_len)) return 0;
  }
  return 1;
}

int synth_check_conform(const synth_checks *k, int col, int row, int integer, sqlsim_arena *a, synth_val *v) {
  if (synth_check_allows(k, col, v)) return 1;
  const synth_colcheck *c = &k->col[col];
  if (c->nset) { /* a value of the list, the row's turn */
    for (int i = 0; i < c->nset; i++) {
      *v = c->set[(row + i) % c->nset];
      if (synth_check_allows(k, col, v)) return 1;
    }
    return 0;
  }
  if (v->kind == 'n' || !v->kind) *v = (synth_val){.kind = integer ? 'i' : 't', .i = 1, .t = "x"};
  if (c->has_lo || c->has_hi) {
    double lo = c->has_lo ? c->lo : (c->has_hi ? c->hi - 100 : 0), hi = c->has_hi ? c->hi : lo + 100;
    double x = is_num(v) ? num(v) : lo + (row % 10);
    if (integer || v->kind == 'i') {
      long long ilo = (long long)ceil(lo) + (c->lo_open && ceil(lo) == lo), ihi = (long long)floor(hi) - (c->hi_open && floor(hi) == hi);
      if (ilo > ihi) return 0;
      long long y = (long long)x;
      if (y < ilo || y > ihi) y = ilo + (long long)((unsigned)row % (unsigned long long)(ihi - ilo + 1 > 50 ? 50 : ihi - ilo + 1));
      *v = (synth_val){.kind = 'i', .i = y};
    } else {
      if (!(x > lo || (!c->lo_open && x == lo)) || !(x < hi || (!c->hi_open && x == hi)))
        x = lo + (hi - lo) * (0.25 + 0.05 * (row % 10));
      *v = (synth_val){.kind = 'r', .r = x};
    }
  }
  for (int i = 0; i < c->nout && !synth_check_allows(k, col, v); i++) { /* step past the values not allowed */
    if (v->kind == 'i') v->i++;
    else if (v->kind == 'r') v->r += 1;
    else v->t = sqlsim_arena_printf(a, "%s%d", v->t, row % 10);
  }
  if ((c->min_len > 0 || c->max_len >= 0) && v->kind == 't') {
    size_t n = strlen(v->t);
    if (c->max_len >= 0 && n > (size_t)c->max_len) v->t = sqlsim_arena_strndup(a, v->t, (size_t)c->max_len);
    else if ((int)n < c->min_len) {
      strbuf sb = {0};
      sb_puts(&sb, v->t);
      while ((int)sb.len < c->min_len) sb_putc(&sb, (char)('a' + (row + (int)sb.len) % 26));
      v->t = sqlsim_arena_strdup(a, sb.buf);
      sb_free(&sb);
    }
  }
  return synth_check_allows(k, col, v);
}
