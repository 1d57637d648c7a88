/* rules.c -- rewrite rules on the normalized tree, each with the conditions
 * under which it keeps every result, read from the schema and, where the
 * schema cannot say, from the data (read-only, through the safe executor).
 *
 * A rule changes the tree in place and says, for every place it looked at
 * and left alone, why. The conditions below are what ../shared/REWRITE.md
 * measured (its counterexamples are in tests/test_rewrite.c); a rule that
 * passes them is still only a candidate: rewrite.c executes it, on the
 * database and on adversarial copies, and times it, before offering it.
 *
 *  count_star      COUNT(c) -> COUNT(*)
 *                  c is a column of a base table declared NOT NULL (or an
 *                  INTEGER PRIMARY KEY, the rowid), and its table is not on
 *                  the NULL-filled side of an outer join. A PRIMARY KEY alone
 *                  is not enough: SQLite allows NULL in a non-INTEGER PK.
 *                  (The reverse of the BIRD paper's rule, which REWRITE.md
 *                  found 3-23x slower: COUNT(*) counts the smallest b-tree.)
 *
 *  date_range      strftime('%Y', c) = 'YYYY', substr(c, 1, 4) = 'YYYY',
 *                  c LIKE 'YYYY%' (and the '%Y-%m' / 7-character / 'YYYY-MM%'
 *                  month forms) -> c >= 'YYYY-01-01' AND c < 'YYYY+1-01-01'
 *                  c is a base-table column whose every non-NULL value is text
 *                  holding a valid ISO date (checked on the data: typeof,
 *                  GLOB, and strftime agreeing with the text), so the three
 *                  forms and the range agree value by value, NULL included.
 *                  The bounds are full dates: on a NUMERIC-affinity column
 *                  (DATE) a bare '1997' would be converted to a number and
 *                  the range would match nothing.
 *
 *  distinct_group  SELECT DISTINCT ... GROUP BY k1..kn -> SELECT ... GROUP BY
 *                  every key is a plain column that is also a plain select
 *                  item: the groups are already distinct rows.
 */
#include "rewrite.h"

#include "parser/frontend.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const sqlsim_rule_names[SQLSIM_NRULES] = {"count_star", "date_range", "distinct_group"};

typedef struct rule_ctx {
  sqlsim_query *q;
  rewrite_facts *facts; /* what is known of the data, kept across applications */
  strbuf *notes;        /* why places were left alone */
  int changed;
  /* FROM items on the NULL-filled side of an outer join */
  const sqlsim_node **nullable;
  int nnullable, capnullable;
} rule_ctx;

static void note(rule_ctx *c, const char *rule, const sqlsim_node *at, const char *why) {
  char *s = sqlsim_print_sql(at, SQLSIM_PRINT_QUALIFY);
  sb_printf(c->notes, "%s: %s left alone: %s\n", rule, s ? s : "?", why);
  free(s);
}

/* ---------------------------------------------------------------- outer joins */

static void mark_nullable(rule_ctx *c, const sqlsim_node *n) {
  if (!n) return;
  if (n->kind == SQLSIM_N_JOIN) {
    mark_nullable(c, n->kids[0]);
    mark_nullable(c, n->kids[1]);
    return;
  }
  if (c->nnullable == c->capnullable) {
    c->capnullable = c->capnullable ? c->capnullable * 2 : 16;
    c->nullable = realloc(c->nullable, sizeof *c->nullable * (size_t)c->capnullable);
  }
  c->nullable[c->nnullable++] = n;
}

static int find_outer(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind == SQLSIM_N_JOIN) {
    if (n->op == SQLSIM_JOIN_LEFT || n->op == SQLSIM_JOIN_FULL) mark_nullable(c, n->kids[1]);
    if (n->op == SQLSIM_JOIN_RIGHT || n->op == SQLSIM_JOIN_FULL) mark_nullable(c, n->kids[0]);
  }
  return SQLSIM_WALK_CONTINUE;
}

static int is_nullable_side(const rule_ctx *c, const sqlsim_node *from_item) {
  for (int i = 0; i < c->nnullable; i++)
    if (c->nullable[i] == from_item) return 1;
  return 0;
}

/* A column of a base table of the schema (not of a derived table or CTE). */
static const sqlsim_column *base_column(const rule_ctx *c, const sqlsim_node *n) {
  if (!n || n->kind != SQLSIM_N_COLUMN || n->column < 0 || !c->q->schema || !n->source) return NULL;
  if (n->source->kind != SQLSIM_N_TABLE || (n->source->flags & SQLSIM_F_CTEREF)) return NULL;
  if (n->flags & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS | SQLSIM_F_ALIASREF)) return NULL;
  return &c->q->schema->columns[n->column];
}

/* ---------------------------------------------------------------- count_star */

static int count_star(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_FUNC || strcmp(n->text, "count") || (n->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_STAR)) ||
      !n->kids[0] || n->kids[0]->nkids != 1)
    return SQLSIM_WALK_CONTINUE;
  const sqlsim_node *arg = n->kids[0]->kids[0];
  const sqlsim_column *col = base_column(c, arg);
  if (!col) return SQLSIM_WALK_CONTINUE; /* an expression or an unknown column: nothing to say */
  if (!col->notnull) {
    note(c, "count_star", n,
         col->pk ? "the column is a PRIMARY KEY but not NOT NULL (SQLite stores NULL in a non-INTEGER key)"
                 : "the column can be NULL");
    return SQLSIM_WALK_CONTINUE;
  }
  if (is_nullable_side(c, arg->source)) {
    note(c, "count_star", n, "its table is on the NULL-filled side of an outer join");
    return SQLSIM_WALK_CONTINUE;
  }
  n->flags |= SQLSIM_F_STAR;
  n->kids[0]->nkids = 0;
  c->changed++;
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- date_range */

static int digits(const char *s, int n) {
  for (int i = 0; i < n; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* 'YYYY' (len 4) or 'YYYY-MM' (len 7) with a month 01..12 and a year below 9999. */
static int year_or_month(const char *s, int len) {
  if ((int)strlen(s) != len || !digits(s, 4) || !strncmp(s, "9999", 4)) return 0;
  if (len == 4) return 1;
  if (s[4] != '-' || !digits(s + 5, 2)) return 0;
  int m = (s[5] - '0') * 10 + (s[6] - '0');
  return m >= 1 && m <= 12;
}

static int is_string(const sqlsim_node *n) { return n && n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_STRING; }
static int is_int(const sqlsim_node *n, const char *v) {
  return n && n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_INT && !strcmp(n->text, v);
}

/* The column a year/month extraction reads, and the prefix length (4 or 7). */
static sqlsim_node *extraction(sqlsim_node *f, int *len) {
  if (!f || f->kind != SQLSIM_N_FUNC || !f->kids[0] || (f->flags & (SQLSIM_F_DISTINCT | SQLSIM_F_FILTER)) ||
      (f->nkids > 2 && f->kids[2]))
    return NULL;
  sqlsim_node *args = f->kids[0];
  if (!strcmp(f->text, "strftime") && args->nkids == 2 && is_string(args->kids[0]) &&
      args->kids[1]->kind == SQLSIM_N_COLUMN) {
    if (!strcmp(args->kids[0]->text, "%Y")) *len = 4;
    else if (!strcmp(args->kids[0]->text, "%Y-%m")) *len = 7;
    else return NULL;
    return args->kids[1];
  }
  if ((!strcmp(f->text, "substr") || !strcmp(f->text, "substring")) && args->nkids == 3 &&
      args->kids[0]->kind == SQLSIM_N_COLUMN && is_int(args->kids[1], "1") &&
      (is_int(args->kids[2], "4") || is_int(args->kids[2], "7"))) {
    *len = args->kids[2]->text[0] - '0';
    return args->kids[0];
  }
  return NULL;
}

/* Every non-NULL value of the column is text holding a valid ISO date (read
 * from the data once per column, then kept in the facts). */
static int column_iso_dates(rule_ctx *c, const sqlsim_node *colnode, const char **why) {
  int ci = colnode->column, *known = &c->facts->iso_dates[ci];
  if (!*known) {
    const sqlsim_schema *s = c->q->schema;
    char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\" WHERE \"%w\" IS NOT NULL AND NOT (typeof(\"%w\") = 'text' "
                                "AND \"%w\" GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]*' AND "
                                "strftime('%%Y-%%m-%%d', \"%w\") IS substr(\"%w\", 1, 10))",
                                s->tables[s->columns[ci].table].name, s->columns[ci].name, s->columns[ci].name,
                                s->columns[ci].name, s->columns[ci].name, s->columns[ci].name);
    sqlsim_result r;
    sqlsim_exec_flags(c->facts->db, sql, SQLSIM_EXEC_VALUES, &r);
    sqlite3_free(sql);
    if (r.status != SQLSIM_EXEC_OK) *known = -2;
    else *known = r.nrows == 1 && r.ncols == 1 && r.kinds[0] == 1 && r.nums[0] == 0 ? 1 : -1;
    sqlsim_result_free(&r);
  }
  *why = *known == 1 ? NULL
         : *known == -2 ? "the data could not be checked"
                        : "not every value of the column is text holding a valid ISO date";
  return *known == 1;
}

static sqlsim_node *mk_const(sqlsim_arena *a, const char *text) {
  sqlsim_node *k = node_new(a, SQLSIM_N_CONST, 0);
  k->op = SQLSIM_CONST_STRING;
  k->text = sqlsim_arena_strdup(a, text);
  k->start = k->end = -1;
  return k;
}

static sqlsim_node *mk_cmp(sqlsim_arena *a, int op, sqlsim_node *col, const char *lit) {
  sqlsim_node *b = node_new(a, SQLSIM_N_BINOP, 2);
  b->op = (uint16_t)op;
  b->kids[0] = col;
  b->kids[1] = mk_const(a, lit);
  b->start = b->end = -1;
  return b;
}

static int date_range(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_BINOP || n->nkids != 2) return SQLSIM_WALK_CONTINUE;
  sqlsim_node *col = NULL;
  const char *lit = NULL;
  int len = 0;
  if (n->op == SQLSIM_OP_EQ) {
    for (int side = 0; side < 2 && !col; side++) {
      sqlsim_node *x = n->kids[side], *y = n->kids[1 - side];
      if (is_string(y) && (col = extraction(x, &len))) lit = y->text;
    }
    if (!col || !year_or_month(lit, len)) return SQLSIM_WALK_CONTINUE;
  } else if (n->op == SQLSIM_OP_LIKE && n->kids[0]->kind == SQLSIM_N_COLUMN && is_string(n->kids[1])) {
    const char *p = n->kids[1]->text;
    size_t pl = strlen(p);
    if (pl < 5 || p[pl - 1] != '%') return SQLSIM_WALK_CONTINUE;
    char pre[16];
    len = (int)pl - 1;
    if (len != 4 && len != 7) return SQLSIM_WALK_CONTINUE;
    memcpy(pre, p, (size_t)len);
    pre[len] = 0;
    if (!year_or_month(pre, len)) return SQLSIM_WALK_CONTINUE;
    col = n->kids[0];
    lit = sqlsim_arena_strdup(c->q->arena, pre);
  } else {
    return SQLSIM_WALK_CONTINUE;
  }
  if (!base_column(c, col)) return SQLSIM_WALK_CONTINUE;
  const char *why = "no database to check the column's values on";
  if (!c->facts->db || !column_iso_dates(c, col, &why)) {
    note(c, "date_range", n, why);
    return SQLSIM_WALK_CONTINUE;
  }
  int y = atoi(lit), m = len == 7 ? atoi(lit + 5) : 0;
  char lo[32], hi[32];
  if (len == 4) {
    snprintf(lo, sizeof lo, "%04d-01-01", y);
    snprintf(hi, sizeof hi, "%04d-01-01", y + 1);
  } else {
    snprintf(lo, sizeof lo, "%04d-%02d-01", y, m);
    snprintf(hi, sizeof hi, "%04d-%02d-01", m == 12 ? y + 1 : y, m == 12 ? 1 : m + 1);
  }
  sqlsim_arena *a = c->q->arena;
  sqlsim_node *and = node_new(a, SQLSIM_N_AND, 2);
  and->kids[0] = mk_cmp(a, SQLSIM_OP_GE, col, lo);
  and->kids[1] = mk_cmp(a, SQLSIM_OP_LT, col, hi);
  and->start = n->start;
  and->end = n->end;
  *n = *and;
  c->changed++;
  return SQLSIM_WALK_PRUNE;
}

/* ---------------------------------------------------------------- distinct_group */

static int same_column(const sqlsim_node *a, const sqlsim_node *b) {
  return a->kind == SQLSIM_N_COLUMN && b->kind == SQLSIM_N_COLUMN && a->column >= 0 && a->column == b->column &&
         a->source == b->source && !(a->flags & SQLSIM_F_ALIASREF) && !(b->flags & SQLSIM_F_ALIASREF);
}

static int distinct_group(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_SELECT || n->op != SQLSIM_SET_NONE || !(n->flags & SQLSIM_F_DISTINCT)) return SQLSIM_WALK_CONTINUE;
  const sqlsim_node *group = n->kids[SQLSIM_SEL_GROUP], *targets = n->kids[SQLSIM_SEL_TARGETS];
  if (!group || !group->nkids || !targets) return SQLSIM_WALK_CONTINUE;
  for (uint32_t i = 0; i < group->nkids; i++) {
    int found = 0;
    for (uint32_t j = 0; j < targets->nkids && !found; j++)
      found = targets->kids[j]->nkids && same_column(group->kids[i], targets->kids[j]->kids[0]);
    if (!found) {
      note(c, "distinct_group", group->kids[i], "a GROUP BY key that is not a plain select item");
      return SQLSIM_WALK_CONTINUE;
    }
  }
  n->flags &= ~SQLSIM_F_DISTINCT;
  c->changed++;
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- entry */

int sqlsim_rewrite_apply(sqlsim_query *q, int rule, rewrite_facts *facts, strbuf *notes) {
  rule_ctx c = {0};
  c.q = q;
  c.facts = facts;
  c.notes = notes;
  if (!q->schema) return 0;
  if (!facts->iso_dates) facts->iso_dates = calloc((size_t)q->schema->ncolumns + 1, sizeof *facts->iso_dates);
  sqlsim_walk(q->root, find_outer, NULL, &c);
  switch (rule) {
  case SQLSIM_RULE_COUNT_STAR: sqlsim_walk(q->root, count_star, NULL, &c); break;
  case SQLSIM_RULE_DATE_RANGE: sqlsim_walk(q->root, date_range, NULL, &c); break;
  case SQLSIM_RULE_DISTINCT_GROUP: sqlsim_walk(q->root, distinct_group, NULL, &c); break;
  default: break;
  }
  free(c.nullable);
  return c.changed;
}
