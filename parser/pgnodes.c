/* pgnodes.c -- PostgreSQL's parse tree read into pj records (see pgnodes.h).
 *
 * Each node type the builder can meet has one function writing its body the
 * way libpg_query 15-4's JSON writer does (pg_query_outfuncs_defs.c): the
 * same members in the same order, a zero integer, false boolean, NULL string
 * and empty list left out, enums by name, a node in a pointer field wrapped as
 * {"Type": {...}} and a struct-typed field (withClause, over, alias, larg)
 * bare. Any other node type stops the read (NULL) and the caller asks
 * libpg_query for the JSON of the tree instead. */
#include "pgnodes.h"

#include <pg_query.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* libpg_query's own entry points behind pg_query_parse() (exported, declared
 * in its pg_query_internal.h, which needs PostgreSQL's server headers). */
typedef struct pgq_raw {
  void *tree; /* List of RawStmt, in the current memory context */
  char *stderr_buffer;
  PgQueryError *error;
} pgq_raw;
pgq_raw pg_query_raw_parse(const char *input);
void *pg_query_enter_memory_context(void);
void pg_query_exit_memory_context(void *ctx);
char *pg_query_nodes_to_json(const void *obj);
void pg_query_free_error(PgQueryError *error);

#if defined(PG_VERSION_NUM) && PG_VERSION_NUM / 10000 == 15
#define PG_NODES 1
#else
#define PG_NODES 0
#endif

#if PG_NODES

/* ---------------------------------------------------------------- PostgreSQL 15's nodes */

/* NodeTag values of PostgreSQL 15 (nodes/nodes.h), those read here. */
enum {
  T_Alias = 107, T_RangeVar = 108, T_BoolExpr = 123, T_SubLink = 124, T_CaseExpr = 134,
  T_CaseWhen = 135, T_RowExpr = 138, T_CoalesceExpr = 140, T_MinMaxExpr = 141,
  T_SQLValueFunction = 142, T_NullTest = 144, T_BooleanTest = 145, T_JoinExpr = 154,
  T_Integer = 226, T_Float = 227, T_Boolean = 228, T_String = 229, T_BitString = 230,
  T_List = 231, T_RawStmt = 235, T_SelectStmt = 242, T_A_Expr = 355, T_ColumnRef = 356,
  T_ParamRef = 357, T_A_Const = 358, T_FuncCall = 359, T_A_Star = 360, T_ResTarget = 364,
  T_TypeCast = 366, T_CollateClause = 367, T_SortBy = 368, T_WindowDef = 369,
  T_RangeSubselect = 370, T_RangeFunction = 371, T_TypeName = 375, T_WithClause = 396,
  T_CommonTableExpr = 401
};

/* The layouts, field for field (names shortened where PostgreSQL's are
 * camel-cased; the JSON names are written where the fields are read). */
typedef struct pg_node { int tag; } pg_node;
typedef union pg_cell { void *ptr; int i; unsigned oid; } pg_cell;
typedef struct pg_list { int tag; int length; int max_length; pg_cell *elements; } pg_list;
typedef struct pg_strval { int tag; char *s; } pg_strval; /* Float, String, BitString */
typedef struct pg_integer { int tag; int ival; } pg_integer;
typedef struct pg_boolean { int tag; bool boolval; } pg_boolean;
typedef struct pg_a_const {
  int tag;
  union { pg_node node; pg_integer ival; pg_strval str; pg_boolean boolval; } val;
  bool isnull;
  int location;
} pg_a_const;
typedef struct pg_alias { int tag; char *aliasname; pg_list *colnames; } pg_alias;
typedef struct pg_a_expr { int tag; int kind; pg_list *name; pg_node *lexpr, *rexpr; int location; } pg_a_expr;
typedef struct pg_column_ref { int tag; pg_list *fields; int location; } pg_column_ref;
typedef struct pg_param_ref { int tag; int number; int location; } pg_param_ref;
typedef struct pg_window_def {
  int tag;
  char *name, *refname;
  pg_list *partition, *order;
  int frame_options;
  pg_node *start_offset, *end_offset;
  int location;
} pg_window_def;
typedef struct pg_func_call {
  int tag;
  pg_list *funcname, *args, *agg_order;
  pg_node *agg_filter;
  pg_window_def *over;
  bool agg_within_group, agg_star, agg_distinct, func_variadic;
  int funcformat;
  int location;
} pg_func_call;
typedef struct pg_res_target { int tag; char *name; pg_list *indirection; pg_node *val; int location; } pg_res_target;
typedef struct pg_type_name {
  int tag;
  pg_list *names;
  unsigned type_oid;
  bool setof, pct_type;
  pg_list *typmods;
  int typemod;
  pg_list *array_bounds;
  int location;
} pg_type_name;
typedef struct pg_type_cast { int tag; pg_node *arg; pg_type_name *type_name; int location; } pg_type_cast;
typedef struct pg_collate { int tag; pg_node *arg; pg_list *collname; int location; } pg_collate;
typedef struct pg_sort_by { int tag; pg_node *node; int dir, nulls; pg_list *use_op; int location; } pg_sort_by;
typedef struct pg_range_subselect { int tag; bool lateral; pg_node *subquery; pg_alias *alias; } pg_range_subselect;
typedef struct pg_range_function {
  int tag;
  bool lateral, ordinality, is_rowsfrom;
  pg_list *functions;
  pg_alias *alias;
  pg_list *coldeflist;
} pg_range_function;
typedef struct pg_with_clause { int tag; pg_list *ctes; bool recursive; int location; } pg_with_clause;
typedef struct pg_cte {
  int tag;
  char *ctename;
  pg_list *aliascolnames;
  int materialized;
  pg_node *ctequery;
  void *search_clause, *cycle_clause;
  int location;
  bool cterecursive;
  int cterefcount;
  pg_list *colnames, *coltypes, *coltypmods, *colcollations;
} pg_cte;
typedef struct pg_raw_stmt { int tag; pg_node *stmt; int stmt_location; int stmt_len; } pg_raw_stmt;
typedef struct pg_select {
  int tag;
  pg_list *distinct;
  void *into;
  pg_list *targets, *from;
  pg_node *where;
  pg_list *group;
  bool group_distinct;
  pg_node *having;
  pg_list *window, *values, *sort;
  pg_node *limit_offset, *limit_count;
  int limit_option;
  pg_list *locking;
  pg_with_clause *with;
  int op;
  bool all;
  struct pg_select *larg, *rarg;
} pg_select;
typedef struct pg_range_var {
  int tag;
  char *catalogname, *schemaname, *relname;
  bool inh;
  char relpersistence;
  pg_alias *alias;
  int location;
} pg_range_var;
typedef struct pg_bool_expr { int tag; int boolop; pg_list *args; int location; } pg_bool_expr;
typedef struct pg_sub_link {
  int tag;
  int type, id;
  pg_node *testexpr;
  pg_list *oper_name;
  pg_node *subselect;
  int location;
} pg_sub_link;
typedef struct pg_case_expr {
  int tag;
  unsigned casetype, casecollid;
  pg_node *arg;
  pg_list *args;
  pg_node *defresult;
  int location;
} pg_case_expr;
typedef struct pg_case_when { int tag; pg_node *expr, *result; int location; } pg_case_when;
typedef struct pg_row_expr { int tag; pg_list *args; unsigned row_typeid; int row_format; pg_list *colnames; int location; } pg_row_expr;
typedef struct pg_coalesce { int tag; unsigned type, collid; pg_list *args; int location; } pg_coalesce;
typedef struct pg_min_max { int tag; unsigned type, collid, inputcollid; int op; pg_list *args; int location; } pg_min_max;
typedef struct pg_svf { int tag; int op; unsigned type; int typmod; int location; } pg_svf;
typedef struct pg_null_test { int tag; pg_node *arg; int type; bool argisrow; int location; } pg_null_test;
typedef struct pg_bool_test { int tag; pg_node *arg; int type; int location; } pg_bool_test;
typedef struct pg_join_expr {
  int tag;
  int jointype;
  bool is_natural;
  pg_node *larg, *rarg;
  pg_list *using_clause;
  pg_alias *join_using_alias;
  pg_node *quals;
  pg_alias *alias;
  int rtindex;
} pg_join_expr;

/* Enum names, in PostgreSQL's order. */
#define NAMES(...) (const char *const[]){__VA_ARGS__}, (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(char *))
#define E_LIMIT NAMES("LIMIT_OPTION_DEFAULT", "LIMIT_OPTION_COUNT", "LIMIT_OPTION_WITH_TIES")
#define E_SETOP NAMES("SETOP_NONE", "SETOP_UNION", "SETOP_INTERSECT", "SETOP_EXCEPT")
#define E_AEXPR                                                                                    \
  NAMES("AEXPR_OP", "AEXPR_OP_ANY", "AEXPR_OP_ALL", "AEXPR_DISTINCT", "AEXPR_NOT_DISTINCT",        \
        "AEXPR_NULLIF", "AEXPR_IN", "AEXPR_LIKE", "AEXPR_ILIKE", "AEXPR_SIMILAR", "AEXPR_BETWEEN", \
        "AEXPR_NOT_BETWEEN", "AEXPR_BETWEEN_SYM", "AEXPR_NOT_BETWEEN_SYM")
#define E_BOOLOP NAMES("AND_EXPR", "OR_EXPR", "NOT_EXPR")
#define E_BOOLTEST NAMES("IS_TRUE", "IS_NOT_TRUE", "IS_FALSE", "IS_NOT_FALSE", "IS_UNKNOWN", "IS_NOT_UNKNOWN")
#define E_NULLTEST NAMES("IS_NULL", "IS_NOT_NULL")
#define E_COERCE NAMES("COERCE_EXPLICIT_CALL", "COERCE_EXPLICIT_CAST", "COERCE_IMPLICIT_CAST", "COERCE_SQL_SYNTAX")
#define E_SORTDIR NAMES("SORTBY_DEFAULT", "SORTBY_ASC", "SORTBY_DESC", "SORTBY_USING")
#define E_SORTNULLS NAMES("SORTBY_NULLS_DEFAULT", "SORTBY_NULLS_FIRST", "SORTBY_NULLS_LAST")
#define E_SUBLINK                                                                                  \
  NAMES("EXISTS_SUBLINK", "ALL_SUBLINK", "ANY_SUBLINK", "ROWCOMPARE_SUBLINK", "EXPR_SUBLINK",      \
        "MULTIEXPR_SUBLINK", "ARRAY_SUBLINK", "CTE_SUBLINK")
#define E_MINMAX NAMES("IS_GREATEST", "IS_LEAST")
#define E_SVF                                                                                      \
  NAMES("SVFOP_CURRENT_DATE", "SVFOP_CURRENT_TIME", "SVFOP_CURRENT_TIME_N",                        \
        "SVFOP_CURRENT_TIMESTAMP", "SVFOP_CURRENT_TIMESTAMP_N", "SVFOP_LOCALTIME",                 \
        "SVFOP_LOCALTIME_N", "SVFOP_LOCALTIMESTAMP", "SVFOP_LOCALTIMESTAMP_N",                     \
        "SVFOP_CURRENT_ROLE", "SVFOP_CURRENT_USER", "SVFOP_USER", "SVFOP_SESSION_USER",            \
        "SVFOP_CURRENT_CATALOG", "SVFOP_CURRENT_SCHEMA")
#define E_JOIN                                                                                     \
  NAMES("JOIN_INNER", "JOIN_LEFT", "JOIN_FULL", "JOIN_RIGHT", "JOIN_SEMI", "JOIN_ANTI",            \
        "JOIN_UNIQUE_OUTER", "JOIN_UNIQUE_INNER")
#define E_CTEMAT NAMES("CTEMaterializeDefault", "CTEMaterializeAlways", "CTEMaterializeNever")

/* ---------------------------------------------------------------- writing records */

typedef struct rd {
  sqlsim_arena *a;
  pj_pool pool;
  int depth;
} rd;

/* An object or array being filled: its record and its last member. */
typedef struct ctr {
  pj *v, *last;
} ctr;

static pj *rec(rd *r, int type) {
  pj *v = pj_record(r->a, &r->pool);
  memset(v, 0, sizeof *v);
  v->type = (uint8_t)type;
  return v;
}

static void put(ctr *o, const char *key, int klen, pj *v) {
  v->key = key;
  v->klen = klen;
  if (o->last) o->last->next = v;
  else o->v->child = v;
  o->last = v;
  o->v->n++;
}

static ctr open_ctr(rd *r, int type) { return (ctr){rec(r, type), NULL}; }

/* A member name as a literal: its text and length. */
#define K(lit) lit, (int)sizeof(lit) - 1

static pj *num(rd *r, long long x) {
  pj *v = rec(r, PJ_NUM);
  v->ival = x > 2147483647LL ? 2147483647 : x < -2147483648LL ? (int)-2147483648LL : (int)x;
  return v;
}
static pj *str(rd *r, const char *s) {
  pj *v = rec(r, PJ_STR);
  v->str = s;
  v->ival = (int)strlen(s);
  return v;
}

static void f_int(rd *r, ctr *o, const char *k, int kl, long long x) {
  if (x) put(o, k, kl, num(r, x));
}
static void f_bool(rd *r, ctr *o, const char *k, int kl, bool b) {
  if (b) put(o, k, kl, rec(r, PJ_TRUE));
}
static void f_str(rd *r, ctr *o, const char *k, int kl, const char *s) {
  if (s) put(o, k, kl, str(r, s));
}
static int f_enum(rd *r, ctr *o, const char *k, int kl, const char *const *names, int n, int x) {
  if (x < 0 || x >= n) return -1;
  put(o, k, kl, str(r, names[x]));
  return 0;
}
#define F_INT(field, name) f_int(r, o, K(name), (field))
#define F_BOOL(field, name) f_bool(r, o, K(name), (field))
#define F_STR(field, name) f_str(r, o, K(name), (field))
#define F_ENUM(field, name, names) \
  if (f_enum(r, o, K(name), names, (field))) return -1
#define F_NODE(field, name) \
  if (f_node(r, o, K(name), (const pg_node *)(field))) return -1
#define F_LIST(field, name) \
  if (f_list(r, o, K(name), (field))) return -1
#define F_BODY(fn, field, name) \
  if ((field) && f_body(r, o, K(name), (body_fn)(fn), (field))) return -1
#define F_NONE(field) \
  if (field) return -1 /* a node this reader does not write: the JSON route's */

static pj *node(rd *r, const pg_node *n);

static int f_node(rd *r, ctr *o, const char *k, int kl, const pg_node *n) {
  if (!n) return 0;
  pj *v = node(r, n);
  if (!v) return -1;
  put(o, k, kl, v);
  return 0;
}

/* A list's elements as an array; a NULL element is written {}. */
static pj *list(rd *r, const pg_list *l) {
  if (l->tag != T_List) return NULL; /* lists of integers or OIDs: not in the builder's trees */
  ctr arr = open_ctr(r, PJ_ARR);
  for (int i = 0; i < l->length; i++) {
    const pg_node *e = l->elements[i].ptr;
    pj *v = e ? node(r, e) : rec(r, PJ_OBJ);
    if (!v) return NULL;
    put(&arr, NULL, 0, v);
  }
  return arr.v;
}

static int f_list(rd *r, ctr *o, const char *k, int kl, const pg_list *l) {
  if (!l) return 0;
  pj *v = list(r, l);
  if (!v) return -1;
  put(o, k, kl, v);
  return 0;
}

typedef int (*body_fn)(rd *r, ctr *o, const void *n);

/* A struct-typed field: its members without the node wrapper. */
static int f_body(rd *r, ctr *o, const char *k, int kl, body_fn fn, const void *n) {
  ctr b = open_ctr(r, PJ_OBJ);
  if (fn(r, &b, n)) return -1;
  put(o, k, kl, b.v);
  return 0;
}

/* ---------------------------------------------------------------- node bodies */

static int w_alias(rd *r, ctr *o, const pg_alias *n) {
  F_STR(n->aliasname, "aliasname");
  F_LIST(n->colnames, "colnames");
  return 0;
}

static int w_window(rd *r, ctr *o, const pg_window_def *n) {
  F_STR(n->name, "name");
  F_STR(n->refname, "refname");
  F_LIST(n->partition, "partitionClause");
  F_LIST(n->order, "orderClause");
  F_INT(n->frame_options, "frameOptions");
  F_NODE(n->start_offset, "startOffset");
  F_NODE(n->end_offset, "endOffset");
  F_INT(n->location, "location");
  return 0;
}

static int w_type_name(rd *r, ctr *o, const pg_type_name *n) {
  F_LIST(n->names, "names");
  F_INT(n->type_oid, "typeOid");
  F_BOOL(n->setof, "setof");
  F_BOOL(n->pct_type, "pct_type");
  F_LIST(n->typmods, "typmods");
  F_INT(n->typemod, "typemod");
  F_LIST(n->array_bounds, "arrayBounds");
  F_INT(n->location, "location");
  return 0;
}

static int w_with(rd *r, ctr *o, const pg_with_clause *n) {
  F_LIST(n->ctes, "ctes");
  F_BOOL(n->recursive, "recursive");
  F_INT(n->location, "location");
  return 0;
}

static int w_select(rd *r, ctr *o, const pg_select *n) {
  F_LIST(n->distinct, "distinctClause");
  F_NONE(n->into);
  F_LIST(n->targets, "targetList");
  F_LIST(n->from, "fromClause");
  F_NODE(n->where, "whereClause");
  F_LIST(n->group, "groupClause");
  F_BOOL(n->group_distinct, "groupDistinct");
  F_NODE(n->having, "havingClause");
  F_LIST(n->window, "windowClause");
  F_LIST(n->values, "valuesLists");
  F_LIST(n->sort, "sortClause");
  F_NODE(n->limit_offset, "limitOffset");
  F_NODE(n->limit_count, "limitCount");
  F_ENUM(n->limit_option, "limitOption", E_LIMIT);
  F_LIST(n->locking, "lockingClause");
  F_BODY(w_with, n->with, "withClause");
  F_ENUM(n->op, "op", E_SETOP);
  F_BOOL(n->all, "all");
  F_BODY(w_select, n->larg, "larg");
  F_BODY(w_select, n->rarg, "rarg");
  return 0;
}

/* The member name of a value node's one field, which is also its name
 * inside an A_Const; NULL for other nodes. */
static const char *value_key(int tag) {
  switch (tag) {
  case T_Integer: return "ival";
  case T_Float: return "fval";
  case T_Boolean: return "boolval";
  case T_String: return "sval";
  case T_BitString: return "bsval";
  default: return NULL;
  }
}

static int w_body(rd *r, ctr *o, const pg_node *nd);

/* A_Const is written by hand in libpg_query: its value's body under the
 * value's name ({"ival": {"ival": 5}}), except a Boolean's, written only
 * when true; and its location always (0 too). */
static int w_const(rd *r, ctr *o, const pg_a_const *n) {
  if (n->isnull) {
    put(o, K("isnull"), rec(r, PJ_TRUE));
  } else {
    const pg_node *val = &n->val.node;
    const char *k = value_key(val->tag);
    if (!k) return -1;
    ctr v = open_ctr(r, PJ_OBJ);
    if (val->tag == T_Boolean) {
      if (n->val.boolval.boolval) put(&v, K("boolval"), rec(r, PJ_TRUE));
    } else if (w_body(r, &v, val)) {
      return -1;
    }
    put(o, k, (int)strlen(k), v.v);
  }
  put(o, K("location"), num(r, n->location));
  return 0;
}

static int w_body(rd *r, ctr *o, const pg_node *nd) {
  switch (nd->tag) {
  case T_A_Const: return w_const(r, o, (const pg_a_const *)nd);
  case T_Integer: /* only when positive: 15-4.0.0's writer (the builder reads a
                   * negative literal from the user's text, build.c) */
    F_INT(((const pg_integer *)nd)->ival > 0 ? ((const pg_integer *)nd)->ival : 0, "ival");
    return 0;
  case T_Boolean:
    put(o, K("boolval"), rec(r, ((const pg_boolean *)nd)->boolval ? PJ_TRUE : PJ_FALSE));
    return 0;
  case T_Float:
  case T_String:
  case T_BitString: {
    const char *s = ((const pg_strval *)nd)->s, *k = value_key(nd->tag);
    put(o, k, (int)strlen(k), s ? str(r, s) : rec(r, PJ_NULL));
    return 0;
  }
  case T_List: {
    pj *v = list(r, (const pg_list *)nd);
    if (!v) return -1;
    put(o, K("items"), v);
    return 0;
  }
  case T_SelectStmt: return w_select(r, o, (const pg_select *)nd);
  case T_ResTarget: {
    const pg_res_target *n = (const void *)nd;
    F_STR(n->name, "name");
    F_LIST(n->indirection, "indirection");
    F_NODE(n->val, "val");
    F_INT(n->location, "location");
    return 0;
  }
  case T_ColumnRef: {
    const pg_column_ref *n = (const void *)nd;
    F_LIST(n->fields, "fields");
    F_INT(n->location, "location");
    return 0;
  }
  case T_A_Star: return 0;
  case T_A_Expr: {
    const pg_a_expr *n = (const void *)nd;
    F_ENUM(n->kind, "kind", E_AEXPR);
    F_LIST(n->name, "name");
    F_NODE(n->lexpr, "lexpr");
    F_NODE(n->rexpr, "rexpr");
    F_INT(n->location, "location");
    return 0;
  }
  case T_BoolExpr: {
    const pg_bool_expr *n = (const void *)nd;
    F_ENUM(n->boolop, "boolop", E_BOOLOP);
    F_LIST(n->args, "args");
    F_INT(n->location, "location");
    return 0;
  }
  case T_BooleanTest: {
    const pg_bool_test *n = (const void *)nd;
    F_NODE(n->arg, "arg");
    F_ENUM(n->type, "booltesttype", E_BOOLTEST);
    F_INT(n->location, "location");
    return 0;
  }
  case T_NullTest: {
    const pg_null_test *n = (const void *)nd;
    F_NODE(n->arg, "arg");
    F_ENUM(n->type, "nulltesttype", E_NULLTEST);
    F_BOOL(n->argisrow, "argisrow");
    F_INT(n->location, "location");
    return 0;
  }
  case T_FuncCall: {
    const pg_func_call *n = (const void *)nd;
    F_LIST(n->funcname, "funcname");
    F_LIST(n->args, "args");
    F_LIST(n->agg_order, "agg_order");
    F_NODE(n->agg_filter, "agg_filter");
    F_BODY(w_window, n->over, "over");
    F_BOOL(n->agg_within_group, "agg_within_group");
    F_BOOL(n->agg_star, "agg_star");
    F_BOOL(n->agg_distinct, "agg_distinct");
    F_BOOL(n->func_variadic, "func_variadic");
    F_ENUM(n->funcformat, "funcformat", E_COERCE);
    F_INT(n->location, "location");
    return 0;
  }
  case T_WindowDef: return w_window(r, o, (const pg_window_def *)nd);
  case T_SortBy: {
    const pg_sort_by *n = (const void *)nd;
    F_NODE(n->node, "node");
    F_ENUM(n->dir, "sortby_dir", E_SORTDIR);
    F_ENUM(n->nulls, "sortby_nulls", E_SORTNULLS);
    F_LIST(n->use_op, "useOp");
    F_INT(n->location, "location");
    return 0;
  }
  case T_SubLink: {
    const pg_sub_link *n = (const void *)nd;
    F_ENUM(n->type, "subLinkType", E_SUBLINK);
    F_INT(n->id, "subLinkId");
    F_NODE(n->testexpr, "testexpr");
    F_LIST(n->oper_name, "operName");
    F_NODE(n->subselect, "subselect");
    F_INT(n->location, "location");
    return 0;
  }
  case T_CaseExpr: {
    const pg_case_expr *n = (const void *)nd;
    F_INT(n->casetype, "casetype");
    F_INT(n->casecollid, "casecollid");
    F_NODE(n->arg, "arg");
    F_LIST(n->args, "args");
    F_NODE(n->defresult, "defresult");
    F_INT(n->location, "location");
    return 0;
  }
  case T_CaseWhen: {
    const pg_case_when *n = (const void *)nd;
    F_NODE(n->expr, "expr");
    F_NODE(n->result, "result");
    F_INT(n->location, "location");
    return 0;
  }
  case T_CoalesceExpr: {
    const pg_coalesce *n = (const void *)nd;
    F_INT(n->type, "coalescetype");
    F_INT(n->collid, "coalescecollid");
    F_LIST(n->args, "args");
    F_INT(n->location, "location");
    return 0;
  }
  case T_MinMaxExpr: {
    const pg_min_max *n = (const void *)nd;
    F_INT(n->type, "minmaxtype");
    F_INT(n->collid, "minmaxcollid");
    F_INT(n->inputcollid, "inputcollid");
    F_ENUM(n->op, "op", E_MINMAX);
    F_LIST(n->args, "args");
    F_INT(n->location, "location");
    return 0;
  }
  case T_TypeCast: {
    const pg_type_cast *n = (const void *)nd;
    F_NODE(n->arg, "arg");
    F_BODY(w_type_name, n->type_name, "typeName");
    F_INT(n->location, "location");
    return 0;
  }
  case T_TypeName: return w_type_name(r, o, (const pg_type_name *)nd);
  case T_CollateClause: {
    const pg_collate *n = (const void *)nd;
    F_NODE(n->arg, "arg");
    F_LIST(n->collname, "collname");
    F_INT(n->location, "location");
    return 0;
  }
  case T_ParamRef: {
    const pg_param_ref *n = (const void *)nd;
    F_INT(n->number, "number");
    F_INT(n->location, "location");
    return 0;
  }
  case T_RowExpr: {
    const pg_row_expr *n = (const void *)nd;
    F_LIST(n->args, "args");
    F_INT(n->row_typeid, "row_typeid");
    F_ENUM(n->row_format, "row_format", E_COERCE);
    F_LIST(n->colnames, "colnames");
    F_INT(n->location, "location");
    return 0;
  }
  case T_SQLValueFunction: {
    const pg_svf *n = (const void *)nd;
    F_ENUM(n->op, "op", E_SVF);
    F_INT(n->type, "type");
    F_INT(n->typmod, "typmod");
    F_INT(n->location, "location");
    return 0;
  }
  case T_RangeVar: {
    const pg_range_var *n = (const void *)nd;
    F_STR(n->catalogname, "catalogname");
    F_STR(n->schemaname, "schemaname");
    F_STR(n->relname, "relname");
    F_BOOL(n->inh, "inh");
    if (n->relpersistence) {
      char *c = arena_alloc_raw(r->a, 2);
      c[0] = n->relpersistence;
      c[1] = '\0';
      put(o, K("relpersistence"), str(r, c));
    }
    F_BODY(w_alias, n->alias, "alias");
    F_INT(n->location, "location");
    return 0;
  }
  case T_Alias: return w_alias(r, o, (const pg_alias *)nd);
  case T_RangeSubselect: {
    const pg_range_subselect *n = (const void *)nd;
    F_BOOL(n->lateral, "lateral");
    F_NODE(n->subquery, "subquery");
    F_BODY(w_alias, n->alias, "alias");
    return 0;
  }
  case T_JoinExpr: {
    const pg_join_expr *n = (const void *)nd;
    F_ENUM(n->jointype, "jointype", E_JOIN);
    F_BOOL(n->is_natural, "isNatural");
    F_NODE(n->larg, "larg");
    F_NODE(n->rarg, "rarg");
    F_LIST(n->using_clause, "usingClause");
    F_BODY(w_alias, n->join_using_alias, "join_using_alias");
    F_NODE(n->quals, "quals");
    F_BODY(w_alias, n->alias, "alias");
    F_INT(n->rtindex, "rtindex");
    return 0;
  }
  case T_RangeFunction: {
    const pg_range_function *n = (const void *)nd;
    F_BOOL(n->lateral, "lateral");
    F_BOOL(n->ordinality, "ordinality");
    F_BOOL(n->is_rowsfrom, "is_rowsfrom");
    F_LIST(n->functions, "functions");
    F_BODY(w_alias, n->alias, "alias");
    F_NONE(n->coldeflist);
    return 0;
  }
  case T_WithClause: return w_with(r, o, (const pg_with_clause *)nd);
  case T_CommonTableExpr: {
    const pg_cte *n = (const void *)nd;
    F_STR(n->ctename, "ctename");
    F_LIST(n->aliascolnames, "aliascolnames");
    F_ENUM(n->materialized, "ctematerialized", E_CTEMAT);
    F_NODE(n->ctequery, "ctequery");
    F_NONE(n->search_clause);
    F_NONE(n->cycle_clause);
    F_INT(n->location, "location");
    F_BOOL(n->cterecursive, "cterecursive");
    F_INT(n->cterefcount, "cterefcount");
    F_LIST(n->colnames, "ctecolnames");
    F_LIST(n->coltypes, "ctecoltypes");
    F_LIST(n->coltypmods, "ctecoltypmods");
    F_LIST(n->colcollations, "ctecolcollations");
    return 0;
  }
  default: return -1;
  }
}

/* The type names of the nodes above, as the wrapper's member name: the tag's
 * own name, with its length. */
#define TYPE(t) [T_##t] = {#t, (int)sizeof(#t) - 1}
static const struct {
  const char *name;
  int len;
} types[T_CommonTableExpr + 1] = {
    TYPE(Alias),          TYPE(RangeVar),       TYPE(BoolExpr),         TYPE(SubLink),
    TYPE(CaseExpr),       TYPE(CaseWhen),       TYPE(RowExpr),          TYPE(CoalesceExpr),
    TYPE(MinMaxExpr),     TYPE(SQLValueFunction), TYPE(NullTest),       TYPE(BooleanTest),
    TYPE(JoinExpr),       TYPE(Integer),        TYPE(Float),            TYPE(Boolean),
    TYPE(String),         TYPE(BitString),      TYPE(List),             TYPE(SelectStmt),
    TYPE(A_Expr),         TYPE(ColumnRef),      TYPE(ParamRef),         TYPE(A_Const),
    TYPE(FuncCall),       TYPE(A_Star),         TYPE(ResTarget),        TYPE(TypeCast),
    TYPE(CollateClause),  TYPE(SortBy),         TYPE(WindowDef),        TYPE(RangeSubselect),
    TYPE(RangeFunction),  TYPE(TypeName),       TYPE(WithClause),       TYPE(CommonTableExpr)};

/* A node as {"Type": {body}}, or NULL for a node not read here. Depth is
 * bounded by the front end's budget (FE_MAX_NESTING); the guard is for a
 * tree that did not come through it. */
static pj *node(rd *r, const pg_node *n) {
  if (n->tag <= 0 || n->tag > T_CommonTableExpr || !types[n->tag].name || r->depth > 4 * 1000) return NULL;
  r->depth++;
  ctr w = open_ctr(r, PJ_OBJ), b = open_ctr(r, PJ_OBJ);
  int rc = w_body(r, &b, n);
  r->depth--;
  if (rc) return NULL;
  put(&w, types[n->tag].name, types[n->tag].len, b.v);
  return w.v;
}

/* The document pg_query_nodes_to_json() writes for tree (a List of RawStmt,
 * or NULL for an empty text), or NULL if it holds a node not read here. */
static const pj *read_nodes(sqlsim_arena *a, const void *tree) {
  rd r = {a, {NULL, 0}, 0};
  ctr doc = open_ctr(&r, PJ_OBJ);
  put(&doc, K("version"), num(&r, PG_VERSION_NUM));
  ctr stmts = open_ctr(&r, PJ_ARR);
  put(&doc, K("stmts"), stmts.v);
  const pg_list *l = tree;
  if (l) {
    if (l->tag != T_List) return NULL;
    for (int i = 0; i < l->length; i++) {
      const pg_raw_stmt *s = l->elements[i].ptr;
      if (!s || s->tag != T_RawStmt) return NULL;
      ctr o = open_ctr(&r, PJ_OBJ);
      if (f_node(&r, &o, K("stmt"), s->stmt)) return NULL;
      f_int(&r, &o, K("stmt_location"), s->stmt_location);
      f_int(&r, &o, K("stmt_len"), s->stmt_len);
      put(&stmts, NULL, 0, o.v);
    }
  }
  return doc.v;
}

#endif /* PG_NODES */

/* ---------------------------------------------------------------- routes */

int pj_same(const pj *a, const pj *b) {
  if (!a || !b) return a == b;
  if (a->type != b->type || a->klen != b->klen || (a->klen && memcmp(a->key, b->key, (size_t)a->klen)))
    return 0;
  switch (a->type) {
  case PJ_STR: return a->ival == b->ival && !memcmp(a->str, b->str, (size_t)a->ival);
  case PJ_NUM: return a->ival == b->ival;
  case PJ_ARR:
  case PJ_OBJ:
    if (a->n != b->n) return 0;
    for (const pj *x = a->child, *y = b->child; x || y; x = x->next, y = y->next)
      if (!pj_same(x, y)) return 0;
    return 1;
  default: return 1;
  }
}

#if PG_NODES
/* The JSON route: libpg_query's writer, read in place. */
static const pj *read_json(sqlsim_arena *scratch, const void *tree) {
  char *json = pg_query_nodes_to_json(tree); /* in libpg_query's memory context */
  size_t at;
  return json ? pj_parse(scratch, json, strlen(json), &at) : NULL;
}

/* Enters libpg_query's memory and parses; 0, or -1 with d->error set. */
static int raw_parse(const char *text, pg_doc *d, void **tree) {
  memset(d, 0, sizeof *d);
  d->pg_memory = pg_query_enter_memory_context();
  pgq_raw raw = pg_query_raw_parse(text);
  free(raw.stderr_buffer);
  *tree = raw.tree;
  if (raw.error) {
    d->error = strdup(raw.error->message ? raw.error->message : "syntax error");
    d->error_cursor = raw.error->cursorpos;
    pg_query_free_error(raw.error);
    return -1;
  }
  return 0;
}

void pg_doc_done(pg_doc *d) {
  if (d->pg_memory) pg_query_exit_memory_context(d->pg_memory);
  free(d->error);
  memset(d, 0, sizeof *d);
}

/* A query holding every node type read here (and a negative integer, a
 * NULL list element, a schema-qualified name), for the check below. */
static const char *const check_sql =
    "WITH c (x) AS (SELECT 1) SELECT DISTINCT a.b AS n, -1, 2, 1.5, 'x', TRUE, FALSE, B'01', NULL, "
    "count(*) FILTER (WHERE a > 1) OVER (PARTITION BY b ORDER BY c DESC NULLS LAST ROWS BETWEEN 1 "
    "PRECEDING AND CURRENT ROW), sum(DISTINCT a) OVER w, CASE a WHEN 1 THEN 2 ELSE 3 END, "
    "COALESCE(a, b), GREATEST(a, b), CAST(a AS varchar(10)), a::int[3], a COLLATE \"C\", $1, "
    "ROW(1, 2), CURRENT_DATE, a IS NOT TRUE, a IS NULL, a IN (1, 2), a NOT BETWEEN 1 AND 2, "
    "NOT a LIKE 'x' ESCAPE '!', a ILIKE 'y', EXISTS (SELECT 1), a = ANY (SELECT 1), "
    "a IS DISTINCT FROM b, NULLIF(a, b), (SELECT 1 OFFSET 0) FROM s.t AS a JOIN u USING (k) "
    "LEFT JOIN (SELECT 1 UNION ALL SELECT 2 INTERSECT SELECT 3) AS q ON TRUE NATURAL JOIN v "
    "CROSS JOIN generate_series(1, 2) AS g, (VALUES (1), (2)) AS vv (z) WHERE a.* IS NOT NULL AND "
    "(a OR b) GROUP BY 1 HAVING count(*) > 1 WINDOW w AS (ORDER BY a) ORDER BY 1 ASC LIMIT 2";

static int nodes_ok; /* the check passed in this process */
static pthread_once_t check_once = PTHREAD_ONCE_INIT;

static void check_nodes(void) {
  sqlsim_arena *a = sqlsim_arena_new();
  pg_doc d;
  const pj *nodes, *json;
  if (!pg_parse_both(a, check_sql, &nodes, &json, &d) && nodes && json && pj_same(nodes, json))
    nodes_ok = 1;
  pg_doc_done(&d);
  sqlsim_arena_free(a);
}

int pg_nodes_in_use(void) {
  pthread_once(&check_once, check_nodes);
  return nodes_ok;
}

int pg_parse_both(sqlsim_arena *scratch, const char *text, const pj **nodes, const pj **json, pg_doc *d) {
  void *tree;
  *nodes = *json = NULL;
  if (raw_parse(text, d, &tree)) return -1;
  *nodes = read_nodes(scratch, tree);
  *json = read_json(scratch, tree);
  return *json ? 0 : -1;
}

int pg_parse_doc(sqlsim_arena *scratch, const char *text, pg_doc *d) {
  int fast = pg_nodes_in_use(); /* before entering libpg_query's memory: the check parses too */
  void *tree;
  if (raw_parse(text, d, &tree)) return 0;
  if (fast) d->root = read_nodes(scratch, tree);
  if (!d->root) {
    if (!(d->root = read_json(scratch, tree))) return -1;
  }
  return 0;
}

#else /* another PostgreSQL than 15: libpg_query's public JSON route only */

void pg_doc_done(pg_doc *d) {
  free(d->pg_memory); /* the JSON text */
  free(d->error);
  memset(d, 0, sizeof *d);
}

int pg_nodes_in_use(void) { return 0; }

int pg_parse_doc(sqlsim_arena *scratch, const char *text, pg_doc *d) {
  memset(d, 0, sizeof *d);
  PgQueryParseResult pr = pg_query_parse(text);
  if (pr.error) {
    d->error = strdup(pr.error->message ? pr.error->message : "syntax error");
    d->error_cursor = pr.error->cursorpos;
    pg_query_free_parse_result(pr);
    return 0;
  }
  d->pg_memory = pr.parse_tree;
  pr.parse_tree = NULL;
  pg_query_free_parse_result(pr);
  size_t at;
  d->root = d->pg_memory ? pj_parse(scratch, d->pg_memory, strlen(d->pg_memory), &at) : NULL;
  return d->root ? 0 : -1;
}

int pg_parse_both(sqlsim_arena *scratch, const char *text, const pj **nodes, const pj **json, pg_doc *d) {
  *nodes = NULL;
  if (pg_parse_doc(scratch, text, d) || !d->root) return -1;
  *json = d->root;
  return 0;
}
#endif
