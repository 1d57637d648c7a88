/* spider_corrected.c -- Spider components read from the normalized tree.
 *
 * Corrected mode keeps the official comparison (spider_match.c) but builds
 * its input from sqlsim's own parse, so every query SQLite accepts gets a
 * score and names are scoped as SQLite scopes them. The mapping:
 *  - a column is "__table.column__" from the schema (a self-join's instances
 *    share it, as in the official); a column of a derived table or WITH table
 *    is "__<alias>.<name>__"; an unknown one "__?.<name>__";
 *  - agg(col), col, and a + b / a - b / a * b / a / b of such become the
 *    official (agg, col, distinct) and (op, unit, unit) tuples; any other
 *    expression becomes one unit named by its canonical SQL with every literal
 *    written as "value", so equal expressions match and values never count;
 *  - WHERE/HAVING/ON flatten into the official [cond, "and"|"or", cond, ...];
 *    a condition keeps its operator, NOT, and a subquery operand; its other
 *    right-hand side is dropped, as the official evaluator drops it;
 *  - set operations nest to the right as the official parser nests them;
 *  - a bare `value` that names no column is a literal placeholder, not 1.
 * Then the official rebuild runs (foreign-key-equivalent keys, DISTINCT). */
#include "spider.h"

#include <stdlib.h>
#include <string.h>

typedef struct cx {
  sqlsim_arena *a;
  const sp_schema *s;
  const sqlsim_schema *schema;
} cx;

static sp_val *build_sql(cx *c, const sqlsim_node *sel);

static const char *col_id(cx *c, const sqlsim_node *n) {
  if (n->kind == SQLSIM_N_STAR) return "__all__";
  if (n->table >= 0 && n->column >= 0 && c->schema) return c->s->colid[n->column];
  if (n->table >= 0 && c->schema) /* rowid and friends */
    return sqlsim_arena_printf(c->a, "__%s.%s__", c->schema->tables[n->table].key, n->text);
  const sqlsim_node *src = n->source;
  if (src && src->kind != SQLSIM_N_TARGET)
    return sqlsim_arena_printf(c->a, "__%s.%s__", src->alias ? src->alias : src->text ? src->text : "?",
                               n->text);
  return sqlsim_arena_printf(c->a, "__?.%s__", n->text);
}

/* Canonical SQL of an expression with every literal replaced by "value". */
static int mask_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  (void)ctx;
  return n->kind == SQLSIM_N_SELECT ? SQLSIM_WALK_PRUNE : SQLSIM_WALK_CONTINUE;
}
static const char *expr_text(cx *c, const sqlsim_node *n) {
  /* Print with columns qualified by table, then mask literals in a copy. */
  sqlsim_walk((sqlsim_node *)n, mask_pre, NULL, NULL);
  char *sql = sqlsim_print_sql(n, SQLSIM_PRINT_QUALIFY);
  strbuf sb = {0};
  for (const char *p = sql; *p;) {
    if (*p == '\'') { /* string literal */
      p++;
      while (*p && !(*p == '\'' && p[1] != '\'')) p += (*p == '\'' ? 2 : 1);
      if (*p) p++;
      sb_puts(&sb, "value");
    } else if ((*p >= '0' && *p <= '9') &&
               (p == sql || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                              p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9')))) {
      while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E') p++;
      sb_puts(&sb, "value");
    } else {
      sb_putc(&sb, *p++);
    }
  }
  free(sql);
  const char *r = sqlsim_arena_printf(c->a, "expr:%s", sb.buf ? sb.buf : "");
  sb_free(&sb);
  return r;
}

static int agg_of(const sqlsim_node *n) {
  if (n->kind != SQLSIM_N_FUNC || n->kids[2]) return SP_AGG_NONE; /* window calls are not */
  static const char *names[] = {"", "max", "min", "count", "sum", "avg"};
  int args = n->kids[0] ? (int)n->kids[0]->nkids : 0;
  for (int i = 1; i < 6; i++)
    if (!strcmp(n->text, names[i]) && (args == 1 || (i == SP_AGG_COUNT && (n->flags & SQLSIM_F_STAR))))
      return i;
  return SP_AGG_NONE;
}

static int is_value_placeholder(const sqlsim_node *n) {
  return n->kind == SQLSIM_N_COLUMN && !n->alias && !strcmp(n->text, "value") &&
         (n->flags & SQLSIM_F_UNRESOLVED);
}

/* (agg, col_id, distinct) */
static sp_val *col_unit(cx *c, const sqlsim_node *n) {
  int agg = agg_of(n);
  int distinct = 0;
  const sqlsim_node *x = n;
  if (agg) {
    distinct = (n->flags & SQLSIM_F_DISTINCT) != 0;
    x = (n->flags & SQLSIM_F_STAR) ? NULL : n->kids[0]->kids[0];
  }
  const char *id;
  if (!x) id = "__all__";
  else if ((x->kind == SQLSIM_N_COLUMN && !is_value_placeholder(x)) || x->kind == SQLSIM_N_STAR)
    id = col_id(c, x);
  else id = expr_text(c, x);
  return sv_tuple(c->a, 3, sv_num(c->a, agg), sv_str(c->a, id), sv_bool(c->a, distinct));
}

/* (op, col_unit, col_unit|None) */
static sp_val *val_unit(cx *c, const sqlsim_node *n) {
  if (n->kind == SQLSIM_N_BINOP && n->nkids == 2) {
    int op = n->op == SQLSIM_OP_SUB ? SP_UNIT_SUB : n->op == SQLSIM_OP_ADD ? SP_UNIT_ADD
             : n->op == SQLSIM_OP_MUL ? SP_UNIT_MUL : n->op == SQLSIM_OP_DIV ? SP_UNIT_DIV : -1;
    if (op > 0) return sv_tuple(c->a, 3, sv_num(c->a, op), col_unit(c, n->kids[0]), col_unit(c, n->kids[1]));
  }
  return sv_tuple(c->a, 3, sv_num(c->a, SP_UNIT_NONE), col_unit(c, n), sv_none(c->a));
}

static sp_val *operand_value(cx *c, const sqlsim_node *n) {
  if (n && n->kind == SQLSIM_N_SUBLINK && n->op == SQLSIM_SUB_SCALAR) return build_sql(c, n->kids[1]);
  return sv_none(c->a); /* values and right-hand columns are dropped */
}

static sp_val *cond_unit(cx *c, const sqlsim_node *n) {
  int not_op = 0, op = -1;
  const sqlsim_node *left = n;
  sp_val *v1 = NULL, *v2 = NULL;
  if (n->kind == SQLSIM_N_NOT && n->kids[0] &&
      (n->kids[0]->kind == SQLSIM_N_BINOP || n->kids[0]->kind == SQLSIM_N_ISNULL)) {
    not_op = 1;
    n = n->kids[0];
    left = n;
  }
  switch (n->kind) {
  case SQLSIM_N_BINOP:
    switch (n->op) {
    case SQLSIM_OP_EQ: op = SP_OP_EQ; break;
    case SQLSIM_OP_NE: op = SP_OP_NE; break;
    case SQLSIM_OP_LT: op = SP_OP_LT; break;
    case SQLSIM_OP_LE: op = SP_OP_LE; break;
    case SQLSIM_OP_GT: op = SP_OP_GT; break;
    case SQLSIM_OP_GE: op = SP_OP_GE; break;
    case SQLSIM_OP_LIKE: op = SP_OP_LIKE; break;
    case SQLSIM_OP_NOTLIKE: op = SP_OP_LIKE; not_op = !not_op; break;
    case SQLSIM_OP_IS: op = SP_OP_IS; break;
    case SQLSIM_OP_ISNOT: op = SP_OP_IS; not_op = !not_op; break;
    default: break;
    }
    if (op >= 0) {
      left = n->kids[0];
      v1 = operand_value(c, n->kids[1]);
    }
    break;
  case SQLSIM_N_ISNULL:
    op = SP_OP_IS;
    if (n->op == SQLSIM_NOTNULL) not_op = !not_op;
    left = n->kids[0];
    break;
  case SQLSIM_N_BETWEEN:
    op = SP_OP_BETWEEN;
    not_op = (n->flags & SQLSIM_F_NOT) != 0;
    left = n->kids[0];
    v1 = operand_value(c, n->kids[1]);
    v2 = operand_value(c, n->kids[2]);
    break;
  case SQLSIM_N_IN:
    op = SP_OP_IN;
    not_op = (n->flags & SQLSIM_F_NOT) != 0;
    left = n->kids[0];
    break;
  case SQLSIM_N_SUBLINK:
    not_op = (n->flags & SQLSIM_F_NOT) != 0;
    if (n->op == SQLSIM_SUB_EXISTS) {
      op = SP_OP_EXISTS;
      left = NULL;
    } else if (n->op == SQLSIM_SUB_IN) {
      op = SP_OP_IN;
      left = n->kids[0];
    }
    if (op >= 0) v1 = build_sql(c, n->kids[1]);
    break;
  default:
    break;
  }
  sp_val *vu = left ? val_unit(c, left)
                    : sv_tuple(c->a, 3, sv_num(c->a, 0), sv_none(c->a), sv_none(c->a));
  if (op < 0) { /* a predicate the official grammar has no operator for */
    op = -1;
    vu = sv_tuple(c->a, 3, sv_num(c->a, 0),
                  sv_tuple(c->a, 3, sv_num(c->a, 0), sv_str(c->a, expr_text(c, n)), sv_bool(c->a, 0)),
                  sv_none(c->a));
  }
  return sv_tuple(c->a, 5, sv_bool(c->a, not_op), sv_num(c->a, op), vu, v1 ? v1 : sv_none(c->a),
                  v2 ? v2 : sv_none(c->a));
}

/* Appends a boolean expression as [cond, "and"|"or", cond, ...]. */
static void conds(cx *c, sp_val *list, const sqlsim_node *n, const char *joiner) {
  if (!n) return;
  if ((n->kind == SQLSIM_N_AND || n->kind == SQLSIM_N_OR) && n->nkids > 1) {
    const char *j = n->kind == SQLSIM_N_AND ? "and" : "or";
    for (uint32_t i = 0; i < n->nkids; i++) conds(c, list, n->kids[i], i ? j : joiner);
    return;
  }
  if (list->n > 0) sv_push(c->a, list, sv_str(c->a, joiner ? joiner : "and"));
  sv_push(c->a, list, cond_unit(c, n));
}

static void from_items(cx *c, sp_val *units, sp_val *fconds, const sqlsim_node *n) {
  if (!n) return;
  switch (n->kind) {
  case SQLSIM_N_JOIN:
    from_items(c, units, fconds, n->kids[0]);
    from_items(c, units, fconds, n->kids[1]);
    if (n->kids[2] && !(n->kids[2]->kind == SQLSIM_N_CONST && n->kids[2]->op == SQLSIM_CONST_BOOL))
      conds(c, fconds, n->kids[2], "and");
    break;
  case SQLSIM_N_TABLE:
    if (n->flags & SQLSIM_F_CTEREF) {
      sv_push(c->a, units, sv_tuple(c->a, 2, sv_str(c->a, "sql"), build_sql(c, n->source->kids[0])));
    } else {
      const char *t = (n->table >= 0 && c->schema) ? c->s->tabid[n->table]
                                                   : sqlsim_arena_printf(c->a, "__%s__", n->text);
      sv_push(c->a, units, sv_tuple(c->a, 2, sv_str(c->a, "table_unit"), sv_str(c->a, t)));
    }
    break;
  case SQLSIM_N_SUBQUERY:
    sv_push(c->a, units, sv_tuple(c->a, 2, sv_str(c->a, "sql"), build_sql(c, n->kids[0])));
    break;
  default:
    sv_push(c->a, units, sv_tuple(c->a, 2, sv_str(c->a, "table_unit"), sv_str(c->a, expr_text(c, n))));
  }
}

/* One plain SELECT (no set operation) into an SV_SQL. */
static sp_val *build_plain(cx *c, const sqlsim_node *sel) {
  sp_val *sql = sp_empty_sql(c->a);
  sp_val *units = sv_list(c->a);
  const sqlsim_node *tl = sel->kids[SQLSIM_SEL_TARGETS];
  for (uint32_t i = 0; tl && i < tl->nkids; i++) {
    const sqlsim_node *e = tl->kids[i]->kids[0];
    int agg = agg_of(e);
    sp_val *vu;
    if (agg && !(e->flags & SQLSIM_F_STAR) && e->kids[0]->nkids == 1 &&
        e->kids[0]->kids[0]->kind == SQLSIM_N_BINOP) {
      vu = val_unit(c, e->kids[0]->kids[0]);
    } else if (agg) {
      /* agg(x): the official keeps the aggregate on the select unit and a
       * plain column unit inside */
      sp_val *cu = col_unit(c, e);
      vu = sv_tuple(c->a, 3, sv_num(c->a, 0),
                    sv_tuple(c->a, 3, sv_num(c->a, 0), cu->items[1], cu->items[2]), sv_none(c->a));
    } else {
      vu = val_unit(c, e);
    }
    sv_push(c->a, units, sv_tuple(c->a, 2, sv_num(c->a, agg), vu));
  }
  sql->items[SQ_SELECT] = sv_tuple(c->a, 2, sv_bool(c->a, (sel->flags & SQLSIM_F_DISTINCT) != 0), units);
  const sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  for (uint32_t i = 0; from && i < from->nkids; i++)
    from_items(c, sql->items[SQ_FROM_UNITS], sql->items[SQ_FROM_CONDS], from->kids[i]);
  conds(c, sql->items[SQ_WHERE], sel->kids[SQLSIM_SEL_WHERE], NULL);
  const sqlsim_node *g = sel->kids[SQLSIM_SEL_GROUP];
  for (uint32_t i = 0; g && i < g->nkids; i++) sv_push(c->a, sql->items[SQ_GROUP], col_unit(c, g->kids[i]));
  conds(c, sql->items[SQ_HAVING], sel->kids[SQLSIM_SEL_HAVING], NULL);
  return sql;
}

/* ORDER BY and LIMIT of a (possibly compound) SELECT. */
static void build_tail(cx *c, sp_val *sql, const sqlsim_node *sel) {
  const sqlsim_node *o = sel->kids[SQLSIM_SEL_ORDER];
  if (o && o->nkids) {
    const char *dir = "asc";
    sp_val *units = sv_list(c->a);
    for (uint32_t i = 0; i < o->nkids; i++) {
      const sqlsim_node *s = o->kids[i];
      if (s->op == SQLSIM_SORT_DESC) dir = "desc";
      else if (s->op == SQLSIM_SORT_ASC) dir = "asc";
      const sqlsim_node *e = s->kids[0];
      /* ORDER BY an alias orders by the aliased expression */
      if (e->kind == SQLSIM_N_COLUMN && (e->flags & SQLSIM_F_ALIASREF) && e->source)
        e = e->source->kids[0];
      sv_push(c->a, units, val_unit(c, e));
    }
    sql->items[SQ_ORDER] = sv_tuple(c->a, 2, sv_str(c->a, dir), units);
  }
  if (sel->kids[SQLSIM_SEL_LIMIT]) sql->items[SQ_LIMIT] = sv_num(c->a, 1);
}

static sp_val *build_sql(cx *c, const sqlsim_node *sel) {
  if (sel->op == SQLSIM_SET_NONE) {
    sp_val *sql = build_plain(c, sel);
    build_tail(c, sql, sel);
    return sql;
  }
  /* members of the left-deep chain, in written order */
  const sqlsim_node *chain[64];
  int ops[64], n = 0;
  const sqlsim_node *x = sel;
  while (x->op != SQLSIM_SET_NONE && n < 63) {
    ops[n] = x->op;
    chain[n++] = x->kids[SQLSIM_SEL_RARG];
    x = x->kids[SQLSIM_SEL_LARG];
  }
  chain[n] = x; /* leftmost */
  /* official nesting: first.op = (second.op = (third ...)); the compound's
   * ORDER BY and LIMIT end up on the last member, where the official parser
   * reads them */
  sp_val *acc = NULL;
  for (int i = 0; i <= n; i++) {
    const sqlsim_node *m = chain[i];
    sp_val *ms = m->op == SQLSIM_SET_NONE ? build_plain(c, m) : build_sql(c, m);
    if (m->op == SQLSIM_SET_NONE) build_tail(c, ms, m);
    if (i == 0) build_tail(c, ms, sel);
    if (acc) {
      int op = ops[i - 1];
      ms->items[op == SQLSIM_SET_INTERSECT ? SQ_INTERSECT : op == SQLSIM_SET_EXCEPT ? SQ_EXCEPT
                                                                                    : SQ_UNION] = acc;
    }
    acc = ms;
  }
  return acc;
}

sp_val *sp_corrected_build(sqlsim_arena *a, const sp_schema *s, const sqlsim_query *q) {
  cx c = {a, s, q->schema};
  return build_sql(&c, q->root);
}
