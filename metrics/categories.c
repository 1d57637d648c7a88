/* categories.c -- what kind of mistake a prediction makes, from its edit script.
 *
 * Each edit of the calibrated diff that carries weight (so not an equivalent
 * form, not an alias, not the order of a bag) is put in one category by where
 * it sits (clause) and what it changes (table, column, function, literal,
 * operator, clause, subquery). Join conditions are told from filters by their
 * shape: an equality between columns of two FROM items. The execution-based
 * categories (correct, execution error, empty result, dialect error) are the
 * caller's, who has the results. */
#include "core.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const sqlsim_category_names[SQLSIM_NCAT] = {
    "correct",          "correct_other_form", "unparseable",     "dialect_error",
    "execution_error",  "empty_result",       "wrong_table",     "missing_table",
    "extra_table",      "join",               "wrong_column",    "missing_column",
    "extra_column",     "wrong_aggregate",    "filter_column",   "filter_operator",
    "filter_value",     "missing_filter",     "extra_filter",    "group_having",
    "order_limit",      "distinct",           "nesting",         "other"};

static const char *clause_word(int c) {
  static const char *w[] = {"WITH", "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY",
                            "LIMIT", "OFFSET", "set operation", "set operation", "WINDOW", "VALUES"};
  return c >= 0 && c < 13 ? w[c] : "query";
}

static char *sql_of(sqlsim_arena *a, const sqlsim_node *n) {
  if (!n) return sqlsim_arena_strdup(a, "(clause)");
  char *s = sqlsim_print_sql(n, SQLSIM_PRINT_QUALIFY);
  size_t l = strlen(s);
  char *r = sqlsim_arena_strndup(a, s, l > 160 ? 160 : l);
  free(s);
  return r;
}

static const char *describe(sqlsim_arena *a, const sqlsim_edit *e) {
  const char *where = clause_word(e->clause);
  const sqlsim_node *g = e->gold ? e->gold : e->gold_content, *p = e->pred ? e->pred : e->pred_content;
  const char *whole = (!e->gold && !e->pred) ? " clause" : "";
  switch (e->action) {
  case SQLSIM_EDIT_UPDATE:
    return sqlsim_arena_printf(a, "%s: %s -> %s", where, sql_of(a, g), sql_of(a, p));
  case SQLSIM_EDIT_INSERT: return sqlsim_arena_printf(a, "%s%s added: %s", where, whole, sql_of(a, p));
  case SQLSIM_EDIT_DELETE: return sqlsim_arena_printf(a, "%s%s missing: %s", where, whole, sql_of(a, g));
  default: return sqlsim_arena_printf(a, "%s: moved %s", where, sql_of(a, g));
  }
}

static int is_aggregate(const sqlsim_node *n) {
  if (!n || n->kind != SQLSIM_N_FUNC) return 0;
  static const char *aggs[] = {"count", "sum", "avg", "min", "max", "total", "group_concat", NULL};
  for (int i = 0; aggs[i]; i++)
    if (!strcmp(n->text, aggs[i])) return 1;
  return 0;
}

/* col = col between two different FROM items: a join condition. */
static int is_join_condition(const sqlsim_node *n) {
  return n && n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_EQ && n->nkids == 2 &&
         n->kids[0]->kind == SQLSIM_N_COLUMN && n->kids[1]->kind == SQLSIM_N_COLUMN &&
         n->kids[0]->source != n->kids[1]->source;
}

static void add(sqlsim_categories *c, int cat, const char *evidence) {
  if (!(c->mask & (1u << cat))) c->evidence[cat] = evidence;
  c->mask |= 1u << cat;
}

/* Was this node added (insert) or removed (delete) itself, rather than moved? */
static int changed_itself(const sqlsim_diff *d, const sqlsim_node *n, int action) {
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->action == action && (action == SQLSIM_EDIT_INSERT ? e->pred : e->gold) == n) return 1;
  }
  return 0;
}

/* A whole condition added or removed: a filter of rows, or of groups. */
static int filter_category(const sqlsim_edit *e) {
  if (e->clause == SQLSIM_SEL_HAVING) return SQLSIM_CAT_GROUP_HAVING;
  return e->action == SQLSIM_EDIT_INSERT ? SQLSIM_CAT_EXTRA_FILTER : SQLSIM_CAT_MISSING_FILTER;
}

/* Conditions added or removed (one, or an AND group of them): join conditions
 * and filters apart, counting only conditions that were themselves added or
 * removed (not ones moved from elsewhere). */
static void conditions(const sqlsim_diff *d, const sqlsim_edit *e, const sqlsim_node *n, sqlsim_arena *a,
                       sqlsim_categories *out) {
  int ins = e->action == SQLSIM_EDIT_INSERT;
  strbuf jb = {0}, fb = {0};
  int group = n->kind == SQLSIM_N_AND;
  for (uint32_t i = 0; i < (group ? n->nkids : 1); i++) {
    const sqlsim_node *x = group ? n->kids[i] : n;
    if (!changed_itself(d, x, e->action)) continue;
    strbuf *b = is_join_condition(x) ? &jb : &fb;
    if (b->len) sb_puts(b, " AND ");
    sb_puts(b, sql_of(a, x));
  }
  const char *verb = ins ? "added" : "missing";
  const char *cw = clause_word(e->clause);
  if (jb.len) add(out, SQLSIM_CAT_JOIN, sqlsim_arena_printf(a, "%s %s: %s", cw, verb, jb.buf));
  if (fb.len)
    add(out, filter_category(e),
        sqlsim_arena_printf(a, "%s %s: %s", cw, verb, fb.buf));
  sb_free(&jb);
  sb_free(&fb);
}

/* The same column name read from another table: part of a change of table. */
static int same_column_other_table(const sqlsim_diff *d, const sqlsim_edit *e) {
  return d->table_changed && e->action == SQLSIM_EDIT_UPDATE && e->gold->kind == SQLSIM_N_COLUMN &&
         e->pred->kind == SQLSIM_N_COLUMN && e->gold->text && e->pred->text &&
         !strcasecmp(e->gold->text, e->pred->text);
}

void sqlsim_categorize_diff(const sqlsim_diff *d, sqlsim_arena *a, sqlsim_categories *out) {
  memset(out, 0, sizeof *out);
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (e->weight <= 0) continue;
    const sqlsim_node *n = e->gold ? e->gold : e->pred;
    const char *ev = describe(a, e);
    int cl = e->clause;
    int ins = e->action == SQLSIM_EDIT_INSERT, del = e->action == SQLSIM_EDIT_DELETE;
    int upd = e->action == SQLSIM_EDIT_UPDATE;
    if (e->table) {
      add(out, upd ? SQLSIM_CAT_WRONG_TABLE : del ? SQLSIM_CAT_MISSING_TABLE : SQLSIM_CAT_EXTRA_TABLE, ev);
      continue;
    }
    if (e->action == SQLSIM_EDIT_MOVE) {
      int pc = e->pred_clause;
      if (cl == SQLSIM_SEL_ORDER || pc == SQLSIM_SEL_ORDER) add(out, SQLSIM_CAT_ORDER_LIMIT, ev);
      else if ((cl == SQLSIM_SEL_WHERE && (pc == SQLSIM_SEL_HAVING || pc == SQLSIM_SEL_GROUP)) ||
               (pc == SQLSIM_SEL_WHERE && (cl == SQLSIM_SEL_HAVING || cl == SQLSIM_SEL_GROUP)))
        add(out, SQLSIM_CAT_GROUP_HAVING, ev);
      else add(out, SQLSIM_CAT_NESTING, ev); /* moved into or out of another query block */
      continue;
    }
    if (!n) { /* a whole clause added or removed */
      int slot = cl;
      const sqlsim_node *content = ins ? e->pred_content : e->gold_content;
      if ((slot == SQLSIM_SEL_WHERE || slot == SQLSIM_SEL_HAVING) && content) conditions(d, e, content, a, out);
      else if (slot == SQLSIM_SEL_WHERE) add(out, ins ? SQLSIM_CAT_EXTRA_FILTER : SQLSIM_CAT_MISSING_FILTER, ev);
      else if (slot == SQLSIM_SEL_GROUP || slot == SQLSIM_SEL_HAVING) add(out, SQLSIM_CAT_GROUP_HAVING, ev);
      else if (slot == SQLSIM_SEL_ORDER || slot == SQLSIM_SEL_LIMIT || slot == SQLSIM_SEL_OFFSET)
        add(out, SQLSIM_CAT_ORDER_LIMIT, ev);
      else if (slot == SQLSIM_SEL_TARGETS) add(out, ins ? SQLSIM_CAT_EXTRA_COLUMN : SQLSIM_CAT_MISSING_COLUMN, ev);
      else if (slot == SQLSIM_SEL_FROM) add(out, ins ? SQLSIM_CAT_EXTRA_TABLE : SQLSIM_CAT_MISSING_TABLE, ev);
      else add(out, SQLSIM_CAT_NESTING, ev);
      continue;
    }
    if (n->kind == SQLSIM_N_SELECT && upd) {
      int setop = n->op != SQLSIM_SET_NONE || (e->pred && e->pred->op != SQLSIM_SET_NONE);
      add(out, setop ? SQLSIM_CAT_NESTING : SQLSIM_CAT_DISTINCT, ev);
      continue;
    }
    if ((ins || del) && (n->kind == SQLSIM_N_SUBLINK || n->kind == SQLSIM_N_SUBQUERY ||
                         n->kind == SQLSIM_N_SELECT)) {
      add(out, SQLSIM_CAT_NESTING, ev);
      continue;
    }
    if (same_column_other_table(d, e)) continue;
    switch (cl) {
    case SQLSIM_SEL_TARGETS:
      if (ins && n->kind == SQLSIM_N_TARGET) add(out, SQLSIM_CAT_EXTRA_COLUMN, ev);
      else if (del && n->kind == SQLSIM_N_TARGET) add(out, SQLSIM_CAT_MISSING_COLUMN, ev);
      else if (is_aggregate(n) || (upd && is_aggregate(e->pred))) add(out, SQLSIM_CAT_AGGREGATE, ev);
      else add(out, SQLSIM_CAT_WRONG_COLUMN, ev);
      break;
    case SQLSIM_SEL_FROM:
      add(out, SQLSIM_CAT_JOIN, ev);
      break;
    case SQLSIM_SEL_WHERE:
    case SQLSIM_SEL_HAVING:
      if ((ins || del) && e->whole && (n->kind == SQLSIM_N_AND || is_join_condition(n)))
        conditions(d, e, n, a, out);
      else if (is_join_condition(e->gold_parent) || is_join_condition(e->pred_parent))
        add(out, SQLSIM_CAT_JOIN, ev); /* a join key */
      else if ((ins || del) && e->whole) add(out, filter_category(e), ev);
      /* part of a condition: an operand (what is filtered, or the value) or the operator */
      else if (is_aggregate(n) || (upd && is_aggregate(e->pred))) add(out, SQLSIM_CAT_AGGREGATE, ev);
      else if (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR || n->kind == SQLSIM_N_FUNC ||
               n->kind == SQLSIM_N_CAST || n->kind == SQLSIM_N_CASE ||
               (n->kind == SQLSIM_N_BINOP && n->op >= SQLSIM_OP_ADD && n->op <= SQLSIM_OP_SHR))
        add(out, SQLSIM_CAT_FILTER_COLUMN, ev);
      else if (n->kind == SQLSIM_N_CONST) add(out, SQLSIM_CAT_FILTER_VALUE, ev);
      else add(out, SQLSIM_CAT_FILTER_OPERATOR, ev);
      break;
    case SQLSIM_SEL_GROUP:
      add(out, SQLSIM_CAT_GROUP_HAVING, ev);
      break;
    case SQLSIM_SEL_ORDER:
    case SQLSIM_SEL_LIMIT:
    case SQLSIM_SEL_OFFSET:
      add(out, SQLSIM_CAT_ORDER_LIMIT, ev);
      break;
    default: /* WITH, WINDOW, VALUES, the sides of a set operation */
      add(out, SQLSIM_CAT_NESTING, ev);
    }
  }
}

/* ---------------------------------------------------------------- dialect */

/* Functions of other SQL dialects; flagged when this SQLite does not have them. */
static const char *const foreign_functions[] = {
    "year", "month", "day", "hour", "minute", "second", "dayofweek", "dayofyear", "weekday", "week",
    "date_format", "datediff", "date_add", "date_sub", "dateadd", "datepart", "datename", "now",
    "curdate", "curtime", "getdate", "sysdate", "to_char", "to_date", "to_number", "str_to_date",
    "timestampdiff", "timestampadd", "extract", "isnull", "nvl", "if", "concat", "concat_ws",
    "left", "right", "len", "locate", "position", "substring_index", "split_part", "datetime2",
    "date_trunc", "age", "greatest", "least", "array_agg", "string_agg", "listagg", "median",
    "stddev", "variance", "convert", "regexp_like", "regexp_replace", "ceiling", "ceil", "floor",
    "truncate", "format", "space", "char_length", "character_length", NULL};

/* The functions this SQLite has (PRAGMA function_list), read once. */
static char **sqlite_funcs;
static int nsqlite_funcs;
static pthread_once_t funcs_once = PTHREAD_ONCE_INIT;

static void load_funcs(void) {
  sqlite3 *db;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return;
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, "SELECT DISTINCT name FROM pragma_function_list", -1, &st, NULL) == SQLITE_OK) {
    int cap = 512;
    sqlite_funcs = malloc(sizeof *sqlite_funcs * (size_t)cap);
    while (sqlite3_step(st) == SQLITE_ROW) {
      if (nsqlite_funcs == cap) sqlite_funcs = realloc(sqlite_funcs, sizeof *sqlite_funcs * (size_t)(cap *= 2));
      const char *nm = (const char *)sqlite3_column_text(st, 0);
      size_t l = strlen(nm);
      char *c = malloc(l + 1);
      for (size_t i = 0; i <= l; i++) c[i] = ascii_lower(nm[i]);
      sqlite_funcs[nsqlite_funcs++] = c;
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
}

static int sqlite_has(const char *name) {
  pthread_once(&funcs_once, load_funcs);
  for (int i = 0; i < nsqlite_funcs; i++)
    if (!strcmp(sqlite_funcs[i], name)) return 1;
  return 0;
}

typedef struct dialect_ctx {
  const sqlsim_node *found;
  const char *what;
} dialect_ctx;

static int dialect_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  dialect_ctx *c = ctx;
  if (n->flags & SQLSIM_F_DIALECT) {
    c->found = n;
    return SQLSIM_WALK_ABORT;
  }
  if (n->kind == SQLSIM_N_FUNC && n->aux != 1)
    for (int i = 0; foreign_functions[i]; i++)
      if (!strcmp(n->text, foreign_functions[i]) && !sqlite_has(n->text)) {
        c->found = n;
        c->what = foreign_functions[i];
        return SQLSIM_WALK_ABORT;
      }
  return SQLSIM_WALK_CONTINUE;
}

int sqlsim_dialect_construct(const sqlsim_query *q, sqlsim_arena *a, const char **what) {
  dialect_ctx c = {NULL, NULL};
  sqlsim_walk(q->root, dialect_pre, NULL, &c);
  if (!c.found) return 0;
  char *s = sqlsim_print_sql(c.found, 0);
  if (c.what) *what = sqlsim_arena_printf(a, "%s() is not a SQLite function: %.120s", c.what, s);
  else *what = sqlsim_arena_printf(a, "not SQLite syntax: %.120s", s);
  free(s);
  return 1;
}
