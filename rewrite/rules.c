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
 *
 *  count_pk        COUNT(*) -> COUNT(pk), the BIRD paper's rule 2, for
 *                  completeness: pk is the single-column key of the leftmost
 *                  table of the FROM (never on a NULL-filled side: no RIGHT or
 *                  FULL join), declared NOT NULL or the rowid. REWRITE.md
 *                  measured it 3-23x slower; timing rejects it unless this
 *                  database says otherwise.
 *
 * The IN-subquery rules and decorrelation are in subquery.c, the top-1 pair
 * in top1.c; the helpers they share are here.
 */
#include "rewrite.h"

#include "parser/tree.h"
#include "exec/exec.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const sqlsim_rule_names[SQLSIM_NRULES] = {
    "count_star", "date_range", "distinct_group", "in_join", "in_exists",
    "decorrelate", "top1_max", "max_top1", "join_in", "in_plus", "subquery_order", "count_pk"};

int sqlsim_rules_parse(const char *list, unsigned *out, sqlsim_error *err) {
  *out = 0;
  for (const char *p = list ? list : ""; *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    int found = -1;
    for (int k = 0; k < SQLSIM_NRULES && found < 0; k++)
      if (strlen(sqlsim_rule_names[k]) == n && !strncmp(p, sqlsim_rule_names[k], n)) found = k;
    if (found < 0 && n) {
      char names[512] = "";
      for (int k = 0; k < SQLSIM_NRULES; k++) {
        if (k) strncat(names, ", ", sizeof names - strlen(names) - 1);
        strncat(names, sqlsim_rule_names[k], sizeof names - strlen(names) - 1);
      }
      return sqlsim_error_set(err, SQLSIM_EFORMAT, (int)(p - list), "unknown rule '%.*s' (rules: %s)",
                              (int)(n > 100 ? 100 : n), p, names);
    }
    if (found >= 0) *out |= 1u << found;
    p += n + (e != NULL);
  }
  return 0;
}

void rule_note(rule_ctx *c, const char *rule, const sqlsim_node *at, const char *why) {
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

int rule_nullable_side(const rule_ctx *c, const sqlsim_node *from_item) {
  for (int i = 0; i < c->nnullable; i++)
    if (c->nullable[i] == from_item) return 1;
  return 0;
}

/* A column of a base table of the schema (not of a derived table or CTE). */
const sqlsim_column *rule_base_column(const rule_ctx *c, const sqlsim_node *n) {
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
  const sqlsim_column *col = rule_base_column(c, arg);
  if (!col) return SQLSIM_WALK_CONTINUE; /* an expression or an unknown column: nothing to say */
  if (!col->notnull) {
    rule_note(c, "count_star", n,
         col->pk ? "the column is a PRIMARY KEY but not NOT NULL (SQLite stores NULL in a non-INTEGER key)"
                 : "the column can be NULL");
    return SQLSIM_WALK_CONTINUE;
  }
  if (rule_nullable_side(c, arg->source)) {
    rule_note(c, "count_star", n, "its table is on the NULL-filled side of an outer join");
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
  if (!rule_base_column(c, col)) return SQLSIM_WALK_CONTINUE;
  const char *why = "no database to check the column's values on";
  if (!c->facts->db || !column_iso_dates(c, col, &why)) {
    rule_note(c, "date_range", n, why);
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
  sqlsim_node *and = tree_node_new(c->q->arena, SQLSIM_N_AND, 2);
  and->kids[0] = rule_binop(c, SQLSIM_OP_GE, col, rule_string(c, lo));
  and->kids[1] = rule_binop(c, SQLSIM_OP_LT, col, rule_string(c, hi));
  and->start = n->start;
  and->end = n->end;
  *n = *and;
  c->changed++;
  return SQLSIM_WALK_PRUNE;
}

/* ---------------------------------------------------------------- distinct_group */

static int same_column_of_source(const sqlsim_node *a, const sqlsim_node *b) {
  return a->kind == SQLSIM_N_COLUMN && b->kind == SQLSIM_N_COLUMN && a->column >= 0 && a->column == b->column &&
         a->source == b->source && !(a->flags & SQLSIM_F_ALIASREF) && !(b->flags & SQLSIM_F_ALIASREF);
}

static int distinct_group(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_SELECT || n->op != SQLSIM_SET_NONE || !(n->flags & SQLSIM_F_DISTINCT) ||
      n->kids[SQLSIM_SEL_DISTINCT_ON])
    return SQLSIM_WALK_CONTINUE;
  const sqlsim_node *group = n->kids[SQLSIM_SEL_GROUP], *targets = n->kids[SQLSIM_SEL_TARGETS];
  if (!group || !group->nkids || !targets) return SQLSIM_WALK_CONTINUE;
  for (uint32_t i = 0; i < group->nkids; i++) {
    int found = 0;
    for (uint32_t j = 0; j < targets->nkids && !found; j++)
      found = targets->kids[j]->nkids && same_column_of_source(group->kids[i], targets->kids[j]->kids[0]);
    if (!found) {
      rule_note(c, "distinct_group", group->kids[i], "a GROUP BY key that is not a plain select item");
      return SQLSIM_WALK_CONTINUE;
    }
  }
  n->flags &= ~SQLSIM_F_DISTINCT;
  c->changed++;
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- count_pk */

/* The leftmost FROM item of a join tree. */
static sqlsim_node *leftmost_from_item(sqlsim_node *n) {
  while (n && n->kind == SQLSIM_N_JOIN) n = n->kids[0];
  return n;
}

static int has_right_join(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBQUERY) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_JOIN && (n->op == SQLSIM_JOIN_RIGHT || n->op == SQLSIM_JOIN_FULL)) {
    *(int *)ctx = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

typedef struct pk_ctx {
  rule_ctx *c;
  sqlsim_node *item;
  int column;
} pk_ctx;

static int count_to_pk(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  pk_ctx *k = ctx;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK) return SQLSIM_WALK_PRUNE;
  if (n->kind != SQLSIM_N_FUNC || strcmp(n->text, "count") || !(n->flags & SQLSIM_F_STAR) ||
      (n->nkids > 2 && n->kids[2]))
    return SQLSIM_WALK_CONTINUE;
  const sqlsim_schema *s = k->c->q->schema;
  sqlsim_node *args = rule_list(k->c, 1);
  args->kids[0] = rule_column(k->c, k->item, s->columns[k->column].name, k->column);
  n->kids[0] = args;
  n->flags &= ~SQLSIM_F_STAR;
  k->c->changed++;
  return SQLSIM_WALK_PRUNE;
}

static int count_pk(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rule_ctx *c = ctx;
  if (n->kind != SQLSIM_N_SELECT || n->op != SQLSIM_SET_NONE) return SQLSIM_WALK_CONTINUE;
  sqlsim_node *from = n->kids[SQLSIM_SEL_FROM];
  if (!from || !from->nkids) return SQLSIM_WALK_CONTINUE;
  int right = 0;
  sqlsim_walk(from, has_right_join, NULL, &right);
  sqlsim_node *item = leftmost_from_item(from->kids[0]);
  if (right || !item || item->kind != SQLSIM_N_TABLE || item->table < 0 || (item->flags & SQLSIM_F_CTEREF))
    return SQLSIM_WALK_CONTINUE;
  const sqlsim_schema *s = c->q->schema;
  const sqlsim_table *t = &s->tables[item->table];
  int pk = -1, npk = 0;
  for (int j = 0; j < t->ncolumns; j++)
    if (s->columns[t->first_column + j].pk) {
      pk = t->first_column + j;
      npk++;
    }
  if (npk != 1 || !s->columns[pk].notnull) return SQLSIM_WALK_CONTINUE;
  pk_ctx k = {c, item, pk};
  for (int slot = SQLSIM_SEL_TARGETS; slot <= SQLSIM_SEL_ORDER; slot++)
    if (slot != SQLSIM_SEL_FROM && slot != SQLSIM_SEL_WHERE && slot != SQLSIM_SEL_GROUP && n->kids[slot])
      sqlsim_walk(n->kids[slot], count_to_pk, NULL, &k);
  return SQLSIM_WALK_CONTINUE;
}

/* ---------------------------------------------------------------- shared helpers */

/* Reads whether a column leads an index, on an executor connection of its
 * own with the authorizer lifted for this fixed query (the authorizer refuses
 * the pragma table functions, whose set-up SQLite reports as writes to the
 * schema table). */
static int read_indexed(const char *path, const char *table, const char *column) {
  sqlsim_db *x = NULL;
  sqlite3_stmt *st = NULL;
  int found = -1;
  if (sqlsim_db_open(path, NULL, &x, NULL)) return -1;
  void *saved;
  exec_enter(x, 30, &saved);
  exec_trust(x, 1);
  if (sqlite3_prepare_v2(exec_handle(x),
                         "SELECT count(*) FROM pragma_index_list(?1) AS l, pragma_index_info(l.name) AS i "
                         "WHERE i.seqno = 0 AND i.name = ?2 COLLATE NOCASE",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0) found = 1;
  }
  sqlite3_finalize(st);
  exec_trust(x, 0);
  exec_leave(x, saved);
  sqlsim_db_close(x);
  return found;
}

int rule_indexed(rule_ctx *c, const sqlsim_node *colnode) {
  const sqlsim_schema *s = c->q->schema;
  int ci = colnode->column;
  if (ci < 0 || !c->facts->path) return 0;
  const sqlsim_column *col = &s->columns[ci];
  if (col->pk && col->notnull && !strcasecmp(col->type, "integer")) return 1; /* the rowid */
  int *known = &c->facts->indexed[ci];
  if (!*known) *known = read_indexed(c->facts->path, s->tables[col->table].name, col->name);
  return *known == 1;
}

static int find_aggregate(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT) return SQLSIM_WALK_PRUNE;
  if (!tree_is_aggregate(n)) return SQLSIM_WALK_CONTINUE;
  *(int *)ctx = 1;
  return SQLSIM_WALK_ABORT;
}

typedef struct bare_ctx {
  const sqlsim_node *group;
  int bare;
} bare_ctx;

static int find_bare(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  bare_ctx *k = ctx;
  if (n->kind == SQLSIM_N_SELECT || tree_is_aggregate(n)) return SQLSIM_WALK_PRUNE;
  if (n->kind == SQLSIM_N_STAR) k->bare = 1;
  if (n->kind != SQLSIM_N_COLUMN || (n->flags & SQLSIM_F_ALIASREF)) return k->bare ? SQLSIM_WALK_ABORT : SQLSIM_WALK_CONTINUE;
  for (uint32_t i = 0; k->group && i < k->group->nkids; i++) {
    const sqlsim_node *g = k->group->kids[i];
    if (g->kind == SQLSIM_N_COLUMN && g->source == n->source &&
        (g->column >= 0 ? g->column == n->column : !strcmp(g->text, n->text)))
      return SQLSIM_WALK_CONTINUE;
  }
  k->bare = 1;
  return SQLSIM_WALK_ABORT;
}

/* Whether an aggregated query shows a column that is neither grouped nor
 * aggregated: SQLite takes it from whichever row of the group it reads
 * last, an order a new join changes. */
static int has_bare_column(const sqlsim_node *sel) {
  const sqlsim_node *targets = sel->kids[SQLSIM_SEL_TARGETS];
  if (!sel->kids[SQLSIM_SEL_GROUP] && !sel->kids[SQLSIM_SEL_HAVING] && !rule_has_aggregate(targets)) return 0;
  bare_ctx k = {sel->kids[SQLSIM_SEL_GROUP], 0};
  if (targets) sqlsim_walk((sqlsim_node *)targets, find_bare, NULL, &k);
  return k.bare;
}

int rule_has_aggregate(const sqlsim_node *n) {
  int found = 0;
  sqlsim_walk((sqlsim_node *)n, find_aggregate, NULL, &found);
  return found;
}

static int find_subquery(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  if (n->kind == SQLSIM_N_SELECT || n->kind == SQLSIM_N_SUBLINK) {
    *(int *)ctx = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

int rule_has_subquery(const sqlsim_node *n) {
  int found = 0;
  sqlsim_walk((sqlsim_node *)n, find_subquery, NULL, &found);
  return found;
}

/* FROM items of a subtree, then whether a column reads one outside it. */
typedef struct items_ctx {
  const sqlsim_node **items;
  int n, cap;
  int outside;
} items_ctx;

static int collect_items(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  items_ctx *k = ctx;
  if (n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_SUBQUERY || n->kind == SQLSIM_N_FUNCTABLE ||
      n->kind == SQLSIM_N_CTE) {
    if (k->n == k->cap) {
      k->cap = k->cap ? 2 * k->cap : 16;
      k->items = realloc(k->items, sizeof *k->items * (size_t)k->cap);
    }
    k->items[k->n++] = n;
  }
  return SQLSIM_WALK_CONTINUE;
}

static int column_outside(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  items_ctx *k = ctx;
  if ((n->kind != SQLSIM_N_COLUMN && n->kind != SQLSIM_N_STAR) || !n->source) return SQLSIM_WALK_CONTINUE;
  for (int i = 0; i < k->n; i++)
    if (k->items[i] == n->source) return SQLSIM_WALK_CONTINUE;
  k->outside = 1;
  return SQLSIM_WALK_ABORT;
}

int rule_correlated(const sqlsim_node *sel, const sqlsim_node *n) {
  items_ctx k = {0};
  sqlsim_walk((sqlsim_node *)sel, collect_items, NULL, &k);
  sqlsim_walk((sqlsim_node *)n, column_outside, NULL, &k);
  free(k.items);
  return k.outside;
}

static int item_in(const sqlsim_node *n, const sqlsim_node *item) {
  if (!n) return 0;
  if (n == item) return 1;
  return n->kind == SQLSIM_N_JOIN && (item_in(n->kids[0], item) || item_in(n->kids[1], item));
}

int rule_own_item(const sqlsim_node *sel, const sqlsim_node *from_item) {
  const sqlsim_node *from = sel->kids[SQLSIM_SEL_FROM];
  for (uint32_t i = 0; from && i < from->nkids; i++)
    if (item_in(from->kids[i], from_item)) return 1;
  return 0;
}

const char *rule_expr_collation(const rule_ctx *c, const sqlsim_node *e) {
  if (!e) return NULL;
  if (e->kind == SQLSIM_N_COLLATE) return e->text;
  if (e->kind == SQLSIM_N_COLUMN) {
    if (e->column >= 0 && c->q->schema && e->source && e->source->kind == SQLSIM_N_TABLE)
      return c->q->schema->columns[e->column].collation;
    return NULL;
  }
  return NULL;
}

static const char *explicit_collation(const sqlsim_node *e) {
  return e && e->kind == SQLSIM_N_COLLATE ? e->text : NULL;
}

const char *rule_cmp_collation(const rule_ctx *c, const sqlsim_node *a, const sqlsim_node *b) {
  if (explicit_collation(a)) return explicit_collation(a);
  if (explicit_collation(b)) return explicit_collation(b);
  if (a && a->kind == SQLSIM_N_COLUMN) return rule_expr_collation(c, a);
  if (b && b->kind == SQLSIM_N_COLUMN) return rule_expr_collation(c, b);
  return NULL;
}

int rule_same_collation(const char *a, const char *b) {
  if (a && !strcasecmp(a, "binary")) a = NULL;
  if (b && !strcasecmp(b, "binary")) b = NULL;
  if (!a || !b) return a == b;
  return !strcasecmp(a, b);
}

uint32_t rule_nterms(const sqlsim_node *where) {
  return !where ? 0 : where->kind == SQLSIM_N_AND ? where->nkids : 1;
}

sqlsim_node *rule_term(sqlsim_node *where, uint32_t i) {
  return where->kind == SQLSIM_N_AND ? where->kids[i] : where;
}

void rule_replace_term(rule_ctx *c, sqlsim_node *sel, sqlsim_node *term, sqlsim_node *with) {
  sqlsim_node *w = sel->kids[SQLSIM_SEL_WHERE];
  if (w == term) {
    sel->kids[SQLSIM_SEL_WHERE] = with;
    return;
  }
  if (!w || w->kind != SQLSIM_N_AND) return;
  for (uint32_t i = 0; i < w->nkids; i++)
    if (w->kids[i] == term) {
      if (with) {
        w->kids[i] = with;
      } else {
        memmove(&w->kids[i], &w->kids[i + 1], sizeof *w->kids * (w->nkids - i - 1));
        w->nkids--;
        if (w->nkids == 1) sel->kids[SQLSIM_SEL_WHERE] = w->kids[0];
      }
      return;
    }
  (void)c;
}

void rule_add_where(rule_ctx *c, sqlsim_node *sel, sqlsim_node *cond) {
  sqlsim_node *w = sel->kids[SQLSIM_SEL_WHERE];
  if (!w) {
    sel->kids[SQLSIM_SEL_WHERE] = cond;
    return;
  }
  uint32_t nw = w->kind == SQLSIM_N_AND ? w->nkids : 1;
  uint32_t nc = cond->kind == SQLSIM_N_AND ? cond->nkids : 1;
  sqlsim_node *and = tree_node_new(c->q->arena, SQLSIM_N_AND, (int)(nw + nc));
  for (uint32_t i = 0; i < nw; i++) and->kids[i] = w->kind == SQLSIM_N_AND ? w->kids[i] : w;
  for (uint32_t i = 0; i < nc; i++) and->kids[nw + i] = cond->kind == SQLSIM_N_AND ? cond->kids[i] : cond;
  sel->kids[SQLSIM_SEL_WHERE] = and;
}

typedef struct name_ctx {
  const char *name;
  int used;
} name_ctx;

static int name_used(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  name_ctx *k = ctx;
  const char *a = n->kind == SQLSIM_N_TARGET ? n->text : n->alias;
  if ((a && !strcasecmp(a, k->name)) ||
      ((n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_COLUMN) && n->text && !strcasecmp(n->text, k->name))) {
    k->used = 1;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}

const char *rule_fresh_name(rule_ctx *c, const char *prefix) {
  for (int i = 1;; i++) {
    const char *name = sqlsim_arena_printf(c->q->arena, "%s%d", prefix, i);
    name_ctx k = {name, 0};
    sqlsim_walk(c->q->root, name_used, NULL, &k);
    if (!k.used) return name;
  }
}

const char *rule_qualifier(const sqlsim_node *item) {
  if (item->alias) return item->alias;
  return item->raw ? item->raw : item->text;
}

typedef struct rename_ctx {
  const sqlsim_node *item;
  const char *alias;
} rename_ctx;

static int rename_columns(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  rename_ctx *k = ctx;
  if ((n->kind == SQLSIM_N_COLUMN || (n->kind == SQLSIM_N_STAR && n->alias)) && n->source == k->item &&
      !(n->flags & SQLSIM_F_ALIASREF))
    n->alias = k->alias;
  return SQLSIM_WALK_CONTINUE;
}

void rule_rename_item(sqlsim_node *scope, sqlsim_node *item, const char *alias) {
  item->alias = alias;
  item->flags &= ~SQLSIM_F_SYNTHETIC;
  rename_ctx k = {item, alias};
  sqlsim_walk(scope, rename_columns, NULL, &k);
}

typedef struct open_ctx {
  const sqlsim_node *sel;
  int bad;
} open_ctx;

/* Columns of sel's own items get their qualifier; a select-list alias used
 * outside ORDER BY could name a column of the added item instead. */
static int qualify_own(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  open_ctx *k = ctx;
  if (n->kind != SQLSIM_N_COLUMN) return SQLSIM_WALK_CONTINUE;
  if (n->flags & SQLSIM_F_ALIASREF) {
    k->bad = 1;
    return SQLSIM_WALK_CONTINUE;
  }
  if (!n->alias && n->source && rule_own_item(k->sel, n->source)) {
    if (n->source->kind == SQLSIM_N_SUBQUERY && !n->source->alias) k->bad = 1;
    else n->alias = rule_qualifier(n->source);
  }
  return SQLSIM_WALK_CONTINUE;
}

int rule_open_scope(rule_ctx *c, const char *rule, sqlsim_node *sel) {
  open_ctx k = {sel, 0};
  if ((sel->kids[SQLSIM_SEL_LIMIT] || sel->kids[SQLSIM_SEL_OFFSET]) && !sel->kids[SQLSIM_SEL_ORDER]) {
    rule_note(c, rule, sel, "LIMIT without ORDER BY keeps whichever rows come first, an order a new join changes");
    return -1;
  }
  if (has_bare_column(sel)) {
    rule_note(c, rule, sel,
              "a column neither grouped nor aggregated takes its value from whichever row SQLite reads last, an order a "
              "new join changes");
    return -1;
  }
  sqlsim_node *targets = sel->kids[SQLSIM_SEL_TARGETS], *from = sel->kids[SQLSIM_SEL_FROM];
  /* a bare '*' would take the new item's columns too */
  for (uint32_t i = 0; targets && i < targets->nkids; i++) {
    sqlsim_node *e = targets->kids[i]->nkids ? targets->kids[i]->kids[0] : NULL;
    if (!e || e->kind != SQLSIM_N_STAR || e->alias) continue;
    if (!from || from->nkids != 1 || from->kids[0]->kind == SQLSIM_N_JOIN ||
        (from->kids[0]->kind == SQLSIM_N_SUBQUERY && !from->kids[0]->alias)) {
      rule_note(c, rule, sel, "'*' over several FROM items would take the new item's columns too");
      return -1;
    }
    e->alias = rule_qualifier(from->kids[0]);
    e->source = from->kids[0];
  }
  for (int slot = SQLSIM_SEL_TARGETS; slot <= SQLSIM_SEL_HAVING; slot++)
    if (sel->kids[slot]) sqlsim_walk(sel->kids[slot], qualify_own, NULL, &k);
  /* ORDER BY names select-list aliases first: references to them stay */
  open_ctx ko = {sel, 0};
  if (sel->kids[SQLSIM_SEL_ORDER]) sqlsim_walk(sel->kids[SQLSIM_SEL_ORDER], qualify_own, NULL, &ko);
  if (k.bad) {
    rule_note(c, rule, sel, "a select-list alias is used outside ORDER BY: a new FROM item could take its name");
    return -1;
  }
  return 0;
}

sqlsim_node *rule_column(rule_ctx *c, sqlsim_node *item, const char *name, int column) {
  sqlsim_node *n = tree_node_new(c->q->arena, SQLSIM_N_COLUMN, 0);
  n->raw = sqlsim_arena_strdup(c->q->arena, name);
  n->text = n->raw;
  n->alias = rule_qualifier(item);
  n->source = item;
  n->column = column;
  n->table = column >= 0 ? c->q->schema->columns[column].table : -1;
  return n;
}

sqlsim_node *rule_binop(rule_ctx *c, int op, sqlsim_node *l, sqlsim_node *r) {
  sqlsim_node *b = tree_node_new(c->q->arena, SQLSIM_N_BINOP, 2);
  b->op = (uint16_t)op;
  b->kids[0] = l;
  b->kids[1] = r;
  return b;
}

static sqlsim_node *constant(rule_ctx *c, int op, const char *v) {
  sqlsim_node *k = tree_node_new(c->q->arena, SQLSIM_N_CONST, 0);
  k->op = (uint16_t)op;
  k->text = sqlsim_arena_strdup(c->q->arena, v);
  return k;
}

sqlsim_node *rule_int(rule_ctx *c, const char *v) { return constant(c, SQLSIM_CONST_INT, v); }
sqlsim_node *rule_string(rule_ctx *c, const char *v) { return constant(c, SQLSIM_CONST_STRING, v); }

sqlsim_node *rule_list(rule_ctx *c, uint32_t n) { return tree_node_new(c->q->arena, SQLSIM_N_LIST, (int)n); }

sqlsim_node *rule_func(rule_ctx *c, const char *name, sqlsim_node *arg1, sqlsim_node *arg2) {
  sqlsim_node *f = tree_node_new(c->q->arena, SQLSIM_N_FUNC, 3);
  f->text = sqlsim_arena_strdup(c->q->arena, name);
  f->kids[0] = rule_list(c, arg2 ? 2 : 1);
  f->kids[0]->kids[0] = arg1;
  if (arg2) f->kids[0]->kids[1] = arg2;
  return f;
}

void rewrite_facts_free(rewrite_facts *f) {
  free(f->iso_dates);
  free(f->indexed);
  f->iso_dates = f->indexed = NULL;
}

/* ---------------------------------------------------------------- entry */

int rewrite_apply(sqlsim_query *q, int rule, rewrite_facts *facts, strbuf *notes) {
  rule_ctx c = {0};
  c.q = q;
  c.facts = facts;
  c.notes = notes;
  if (!q->schema) return 0;
  if (!facts->iso_dates) facts->iso_dates = calloc((size_t)q->schema->ncolumns + 1, sizeof *facts->iso_dates);
  if (!facts->indexed) facts->indexed = calloc((size_t)q->schema->ncolumns + 1, sizeof *facts->indexed);
  sqlsim_walk(q->root, find_outer, NULL, &c);
  static const sqlsim_walk_fn rules[SQLSIM_NRULES] = {
      [SQLSIM_RULE_COUNT_STAR] = count_star,   [SQLSIM_RULE_DATE_RANGE] = date_range,
      [SQLSIM_RULE_DISTINCT_GROUP] = distinct_group, [SQLSIM_RULE_IN_JOIN] = rule_in_join,
      [SQLSIM_RULE_IN_EXISTS] = rule_in_exists, [SQLSIM_RULE_DECORRELATE] = rule_decorrelate,
      [SQLSIM_RULE_TOP1_MAX] = rule_top1_max,   [SQLSIM_RULE_MAX_TOP1] = rule_max_top1,
      [SQLSIM_RULE_JOIN_IN] = rule_join_in,     [SQLSIM_RULE_IN_PLUS] = rule_in_plus,     [SQLSIM_RULE_SUBQUERY_ORDER] = rule_subquery_order,
      [SQLSIM_RULE_COUNT_PK] = count_pk};
  if (rule >= 0 && rule < SQLSIM_NRULES) sqlsim_walk(q->root, rules[rule], NULL, &c);
  free(c.nullable);
  return c.changed;
}

int rule_affinity(const rule_ctx *c, const sqlsim_node *e) {
  if (!e) return 0;
  if (e->kind == SQLSIM_N_COLLATE) return rule_affinity(c, e->kids[0]);
  if (e->kind == SQLSIM_N_CAST) return core_type_affinity(e->text);
  const sqlsim_column *col = rule_base_column(c, e);
  if (col) return core_type_affinity(col->type);
  if (e->kind == SQLSIM_N_COLUMN) return -1; /* a column of a derived table: not known here */
  return 0;
}
