/* build.c -- libpg_query's parse tree -> the sqlsim tree.
 *
 * parse_build_tree() reads PostgreSQL's parse tree as the document of the JSON
 * libpg_query writes for it (pgnodes.c reads the nodes into that document, or
 * pgjson.c the JSON itself) and converts each PostgreSQL node into a sqlsim
 * node in the query's arena. One
 * function per PostgreSQL node family; an unknown node type is an
 * SQLSIM_EUNSUPPORTED error naming the construct and its position. The first
 * error is recorded on the build context (as SQLite records on its Parse) and
 * later work stops early. Locations are mapped back to the user's text through
 * the front end's offset map, and names that PostgreSQL lowercased, truncated
 * or that the front end replaced are recovered from the original tokens. */
#include "build.h"
#include "tree.h"
#include "pgjson.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct build_ctx {
  sqlsim_arena *a;
  const fe_result *fe;
  sqlsim_error *err;
  int rc;
} build_ctx;

sqlsim_node *tree_node_new(sqlsim_arena *a, int kind, int nkids) {
  sqlsim_node *n = sqlsim_arena_alloc(a, sizeof *n);
  n->kind = (uint16_t)kind;
  n->nkids = (uint32_t)nkids;
  if (nkids) n->kids = sqlsim_arena_alloc(a, sizeof *n->kids * (size_t)nkids);
  n->start = n->end = -1;
  n->table = n->column = -1;
  return n;
}

static int build_fail(build_ctx *c, int code, int offset, const char *msg, const char *what) {
  if (!c->rc) {
    sqlsim_error_set(c->err, code, offset, "%s%s%s", msg, what ? " " : "", what ? what : "");
    c->rc = code;
  }
  return code;
}

/* ---------------------------------------------------------------- JSON access */

static inline const pj *jget(const pj *o, const char *k) { return pj_get(o, k); }
static inline const char *jstr(const pj *o, const char *k) {
  const pj *v = pj_get(o, k);
  return v && v->type == PJ_STR ? v->str : NULL;
}
static inline int jint(const pj *o, const char *k, int dflt) {
  const pj *v = pj_get(o, k);
  return v && v->type == PJ_NUM ? v->ival : dflt;
}
static inline int jbool(const pj *o, const char *k) {
  const pj *v = pj_get(o, k);
  return v && v->type == PJ_TRUE;
}
/* Is member k of o the string v? (v a literal: its length a constant) */
static inline int jis(const pj *o, const char *k, const char *v) {
  const pj *m = pj_get(o, k);
  int n = (int)strlen(v);
  return m && m->type == PJ_STR && m->ival == n && !memcmp(m->str, v, (size_t)n);
}
/* String equality that settles most unequal pairs on the first byte. */
static inline int streq(const char *a, const char *b) { return a[0] == b[0] && !strcmp(a, b); }
/* Is body b (from jtype) of the node type lit? Its name's length is known, so
 * most types are told apart without a comparison. */
#define TYPE_IS(b, lit) ((b) && (b)->klen == (int)sizeof(lit) - 1 && !memcmp((b)->key, lit, sizeof(lit) - 1))
/* A wrapped node {"Type": {...}}: its type name and body. */
static const char *jtype(const pj *w, const pj **body) {
  if (!w || w->type != PJ_OBJ || !w->child) {
    *body = NULL;
    return "";
  }
  *body = w->child;
  return w->child->key;
}
/* The sval of a {"String": {"sval": ..}} node ("" when absent). */
static const char *jsval(const pj *w) {
  const pj *b;
  jtype(w, &b);
  if (!TYPE_IS(b, "String")) return NULL;
  const char *s = jstr(b, "sval");
  return s ? s : "";
}

/* Original offset of a PostgreSQL location, or -1. */
static int loc(build_ctx *c, const pj *body) {
  int l = jint(body, "location", -1);
  return l < 0 ? -1 : fe_map(c->fe, l);
}

/* Restores an identifier from PostgreSQL's text: long-name placeholders. */
static const char *raw_name(build_ctx *c, const char *s) {
  size_t pl = strlen(FE_LONGID);
  if (c->fe->nlongids && !strncmp(s, FE_LONGID, pl)) {
    int i = atoi(s + pl);
    if (i >= 0 && i < c->fe->nlongids) return c->fe->longids[i];
  }
  return s;
}
static const char *fold(build_ctx *c, const char *s) { return core_fold_dup(c->a, s, strlen(s)); }

/* The identifier PostgreSQL calls pgname, as the user spelled it at token
 * tok: PostgreSQL folds unquoted names to lower case, SQLite keeps their case
 * (it shows in result column names). pgname when tok is not that word. */
static const char *spelled(build_ctx *c, int tok, const char *pgname) {
  if (tok < 0 || tok >= c->fe->ntoks || c->fe->toks[tok].type != FT_WORD) return pgname;
  const char *s = c->fe->orig + c->fe->toks[tok].start;
  size_t n = strlen(pgname);
  if ((size_t)c->fe->toks[tok].len != n || strncasecmp(s, pgname, n)) return pgname;
  return sqlsim_arena_strndup(c->a, s, n);
}

/* The token of a target's alias: after its start, at its depth, before the
 * next comma there or the clause that ends the select list; the token right
 * after AS when there is one (-1 if that is not the name as a word: a quoted
 * alias keeps PostgreSQL's spelling). -1 if none. */
static int alias_token(build_ctx *c, int start, const char *alias) {
  int t = start >= 0 ? fe_token_at(c->fe, start) : -1, found = -1, prev = -1;
  if (t < 0) return -1;
  int depth = c->fe->toks[t].depth;
  if (c->fe->toks[t].type == FT_LPAREN && c->fe->match[t] < c->fe->ntoks) prev = t = c->fe->match[t];
  for (int i = fe_next_sig(c->fe, t); i < c->fe->ntoks; prev = i, i = fe_next_sig(c->fe, i)) {
    const fe_tok *k = &c->fe->toks[i];
    if (k->type == FT_LPAREN && k->depth == depth && c->fe->match[i] < c->fe->ntoks) {
      i = c->fe->match[i]; /* over the group, to its ')' */
      continue;
    }
    if (k->depth < depth || (k->depth == depth && (k->type == FT_COMMA || k->type == FT_SEMI)))
      break;
    if (k->depth == depth && fe_ends_select_list(c->fe, i)) break;
    int after_as = prev >= 0 && c->fe->toks[prev].len == 2 && !strncasecmp(c->fe->orig + c->fe->toks[prev].start, "as", 2);
    int is_name = k->depth == depth && k->type == FT_WORD && (size_t)k->len == strlen(alias) &&
                  !strncasecmp(c->fe->orig + k->start, alias, (size_t)k->len);
    if (after_as && k->depth == depth) return is_name ? i : -1; /* the alias, as written ("and" quoted) */
    if (is_name && found < 0) found = i;
  }
  return found;
}

/* ---------------------------------------------------------------- lists */

static sqlsim_node *build_expr(build_ctx *c, const pj *w);
static sqlsim_node *build_select(build_ctx *c, const pj *body, int start);

typedef sqlsim_node *(*build_fn)(build_ctx *c, const pj *w);

/* A LIST node of the items of a JSON array, each built with fn. */
static sqlsim_node *build_list(build_ctx *c, const pj *arr, build_fn fn) {
  int n = pj_size(arr);
  sqlsim_node *l = tree_node_new(c->a, SQLSIM_N_LIST, n);
  int i = 0;
  const pj *it;
  pj_foreach(it, arr) {
    l->kids[i++] = fn(c, it);
    if (c->rc) return NULL;
  }
  return l;
}

/* ---------------------------------------------------------------- expressions */

/* The integer literal at an original offset ("-" and a number, or a number;
 * hex converted), or NULL if the text there is not one. */
static const char *int_from_source(build_ctx *c, int at) {
  int t = at >= 0 ? fe_token_at(c->fe, at) : -1;
  if (t < 0) return NULL;
  const fe_tok *tk = &c->fe->toks[t];
  /* PostgreSQL folds every minus before a constant into it, through
   * parentheses: -(1), - -(-1) */
  int neg = 0;
  while (tk->type == FT_LPAREN || (tk->type == FT_OP && tk->len == 1 && c->fe->orig[tk->start] == '-')) {
    if (tk->type == FT_OP) neg = !neg;
    t = fe_next_sig(c->fe, t);
    if (t >= c->fe->ntoks) return NULL;
    tk = &c->fe->toks[t];
  }
  const char *s = c->fe->orig + tk->start;
  if (tk->type == FT_HEX)
    return sqlsim_arena_printf(c->a, "%s%llu", neg ? "-" : "", strtoull(s + 2, NULL, 16));
  if (tk->type != FT_NUMBER) return NULL;
  for (int i = 0; i < tk->len; i++)
    if (s[i] < '0' || s[i] > '9') return NULL;
  /* strip leading zeros the way PostgreSQL's integer would */
  int k = 0;
  while (k + 1 < tk->len && s[k] == '0') k++;
  if (tk->len - k == 1 && s[k] == '0') return "0";
  return sqlsim_arena_printf(c->a, "%s%.*s", neg ? "-" : "", tk->len - k, s + k);
}

static sqlsim_node *build_const(build_ctx *c, const pj *b) {
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_CONST, 0);
  n->start = loc(c, b);
  const pj *v;
  if (jbool(b, "isnull")) {
    n->op = SQLSIM_CONST_NULL;
    n->text = "NULL";
  } else if ((v = jget(b, "ival"))) {
    n->op = SQLSIM_CONST_INT;
    /* libpg_query 15-4.0.0 writes a negative ival as {} (as if 0): read the
     * literal from the user's text instead. */
    const char *src = jget(v, "ival") ? NULL : int_from_source(c, n->start);
    n->text = src ? src : sqlsim_arena_printf(c->a, "%d", jint(v, "ival", 0));
  } else if ((v = jget(b, "fval"))) {
    /* Integers too big for int4 arrive as floats: keep their text. */
    const char *f = jstr(v, "fval");
    n->text = sqlsim_arena_strdup(c->a, f ? f : "0");
    n->op = strpbrk(n->text, ".eE") ? SQLSIM_CONST_FLOAT : SQLSIM_CONST_INT;
  } else if ((v = jget(b, "sval"))) {
    const char *s = jstr(v, "sval");
    n->op = SQLSIM_CONST_STRING;
    n->text = sqlsim_arena_strdup(c->a, s ? s : "");
  } else if ((v = jget(b, "boolval"))) {
    n->op = SQLSIM_CONST_BOOL;
    n->text = jbool(v, "boolval") ? "TRUE" : "FALSE";
  } else if ((v = jget(b, "bsval"))) {
    const char *s = jstr(v, "bsval");
    n->op = SQLSIM_CONST_BLOB;
    n->text = sqlsim_arena_strdup(c->a, s && *s ? s + 1 : ""); /* drop PostgreSQL's 'x' */
  } else {
    /* {"ival": {}} is PostgreSQL's way of writing 0: it omits zero fields. */
    n->op = SQLSIM_CONST_INT;
    n->text = "0";
  }
  return n;
}

static sqlsim_node *build_columnref(build_ctx *c, const pj *b) {
  const pj *fields = jget(b, "fields");
  int nf = pj_size(fields);
  int start = loc(c, b);
  const pj *last = pj_item(fields, nf - 1);
  const pj *lb;
  jtype(last, &lb);
  int star = TYPE_IS(lb, "A_Star");
  sqlsim_node *n = tree_node_new(c->a, star ? SQLSIM_N_STAR : SQLSIM_N_COLUMN, 0);
  n->start = start;
  const char *name = star ? NULL : jsval(last);
  const char *qual = nf >= 2 ? jsval(pj_item(fields, nf - 2)) : NULL;
  if (!star && !name) {
    build_fail(c, SQLSIM_EUNSUPPORTED, start, "unsupported column reference", NULL);
    return NULL;
  }
  if (name) {
    name = raw_name(c, name);
    int t = start >= 0 ? fe_token_at(c->fe, start) : -1, lastt = t;
    for (int k = 1; k < nf && lastt >= 0 && lastt < c->fe->ntoks; k++) lastt = fe_next_sig(c->fe, fe_next_sig(c->fe, lastt));
    n->raw = sqlsim_arena_strdup(c->a, spelled(c, lastt, name));
    n->text = fold(c, name);
    /* A lone "word" in double quotes may be a string (SQLite's fallback;
     * PostgreSQL and MySQL under ANSI_QUOTES have none: a name it is) */
    if (nf == 1 && t >= 0 && c->fe->toks[t].type == FT_QUOTED && c->fe->toks[t].quote == '"' &&
        (c->fe->dialect & FE_DIALECT) == FE_SQLITE)
      n->flags |= SQLSIM_F_DQSTRING;
  }
  if (qual) n->alias = fold(c, raw_name(c, qual));
  return n;
}

static int binop_code(const char *name) {
  static const struct {
    const char *s;
    int op;
  } ops[] = {{"=", SQLSIM_OP_EQ},       {"<>", SQLSIM_OP_NE},     {"<", SQLSIM_OP_LT},
             {"<=", SQLSIM_OP_LE},      {">", SQLSIM_OP_GT},      {">=", SQLSIM_OP_GE},
             {"+", SQLSIM_OP_ADD},      {"-", SQLSIM_OP_SUB},     {"*", SQLSIM_OP_MUL},
             {"/", SQLSIM_OP_DIV},      {"%", SQLSIM_OP_MOD},     {"||", SQLSIM_OP_CONCAT},
             {"&", SQLSIM_OP_BITAND},   {"|", SQLSIM_OP_BITOR},   {"<<", SQLSIM_OP_SHL},
             {">>", SQLSIM_OP_SHR},     {"~#", SQLSIM_OP_GLOB},   {"!~#", SQLSIM_OP_NOTGLOB},
             {"~##", SQLSIM_OP_REGEXP}, {"!~##", SQLSIM_OP_NOTREGEXP},
             {"~~", SQLSIM_OP_LIKE},    {"!~~", SQLSIM_OP_NOTLIKE},
             {"~~*", SQLSIM_OP_ILIKE},  {"!~~*", SQLSIM_OP_NOTILIKE}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (streq(ops[i].s, name)) return ops[i].op;
  return SQLSIM_OP_OTHER;
}

static sqlsim_node *binop(build_ctx *c, int op, sqlsim_node *l, sqlsim_node *r, int start) {
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_BINOP, 2);
  n->op = (uint16_t)op;
  n->kids[0] = l;
  n->kids[1] = r;
  n->start = start;
  return n;
}

static const char *expr_opname(const pj *b) {
  const pj *names = jget(b, "name");
  const char *s = jsval(pj_item(names, pj_size(names) - 1));
  return s ? s : "";
}

/* PostgreSQL's A_Expr kinds, named once per node instead of compared in
 * turn (every kind begins AEXPR_: the byte after it tells most apart). */
enum aexpr_kind {
  AK_OP, AK_OP_ANY, AK_OP_ALL, AK_DISTINCT, AK_NOT_DISTINCT, AK_NULLIF, AK_IN, AK_LIKE, AK_ILIKE,
  AK_SIMILAR, AK_BETWEEN, AK_NOT_BETWEEN, AK_BETWEEN_SYM, AK_NOT_BETWEEN_SYM, AK_OTHER
};
static const char *const aexpr_names[AK_OTHER] = {
    "OP",  "OP_ANY", "OP_ALL",  "DISTINCT", "NOT_DISTINCT", "NULLIF",       "IN",
    "LIKE", "ILIKE", "SIMILAR", "BETWEEN",  "NOT_BETWEEN",  "BETWEEN_SYM", "NOT_BETWEEN_SYM"};
static enum aexpr_kind aexpr_kind_of(const char *kind) {
  if (strncmp(kind, "AEXPR_", 6)) return AK_OTHER;
  for (int k = 0; k < AK_OTHER; k++)
    if (streq(kind + 6, aexpr_names[k])) return (enum aexpr_kind)k;
  return AK_OTHER;
}

static sqlsim_node *build_aexpr(build_ctx *c, const pj *b) {
  const char *kind = jstr(b, "kind");
  const char *name = expr_opname(b);
  int start = loc(c, b);
  if (!kind) kind = "AEXPR_OP";
  enum aexpr_kind ak = aexpr_kind_of(kind);
  const pj *lw = jget(b, "lexpr"), *rw = jget(b, "rexpr");
  if (ak == AK_OP && !lw) {
    /* SQLite's prefix operators are - + ~ (NOT is its own node). PostgreSQL
     * reads any other operator as one too (@ -5, |/ 4), and GLOB with
     * nothing before it (the front end hands it over as ~#): refused here
     * with the position, as SQLite refuses them. */
    if (!streq(name, "-") && !streq(name, "+") && !streq(name, "~")) {
      int glob = strchr(name, '#') && strchr(name, '~');
      build_fail(c, SQLSIM_ESYNTAX, start, glob ? "GLOB or REGEXP with no left operand" : "not an SQLite prefix operator:",
                 glob ? NULL : name);
      return NULL;
    }
    sqlsim_node *x = build_expr(c, rw);
    if (c->rc) return NULL;
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_UNOP, 1);
    n->kids[0] = x;
    n->start = start;
    n->op = streq(name, "-") ? SQLSIM_OP_NEG : streq(name, "+") ? SQLSIM_OP_PLUS : SQLSIM_OP_BITNOT;
    return n;
  }
  if (ak == AK_IN) {
    sqlsim_node *x = build_expr(c, lw);
    const pj *rb;
    jtype(rw, &rb);
    sqlsim_node *list = build_list(c, jget(rb, "items"), build_expr);
    if (c->rc) return NULL;
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_IN, 2);
    n->kids[0] = x;
    n->kids[1] = list;
    list->flags |= SQLSIM_F_UNORDERED;
    if (streq(name, "<>")) n->flags |= SQLSIM_F_NOT;
    n->start = start;
    return n;
  }
  if (ak == AK_BETWEEN || ak == AK_NOT_BETWEEN || ak == AK_BETWEEN_SYM || ak == AK_NOT_BETWEEN_SYM) {
    sqlsim_node *x = build_expr(c, lw);
    const pj *rb;
    jtype(rw, &rb);
    const pj *items = jget(rb, "items");
    sqlsim_node *lo = build_expr(c, pj_item(items, 0));
    sqlsim_node *hi = build_expr(c, pj_item(items, 1));
    if (c->rc) return NULL;
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_BETWEEN, 3);
    n->kids[0] = x;
    n->kids[1] = lo;
    n->kids[2] = hi;
    if (ak == AK_NOT_BETWEEN || ak == AK_NOT_BETWEEN_SYM) n->flags |= SQLSIM_F_NOT;
    if (ak == AK_BETWEEN_SYM || ak == AK_NOT_BETWEEN_SYM) n->flags |= SQLSIM_F_DIALECT;
    n->start = start;
    return n;
  }
  sqlsim_node *l = build_expr(c, lw);
  if (c->rc) return NULL;
  /* LIKE .. ESCAPE arrives as like_escape(pattern, escape). */
  const pj *rb;
  const char *rt = jtype(rw, &rb);
  sqlsim_node *esc = NULL, *r;
  if ((ak == AK_LIKE || ak == AK_ILIKE) && streq(rt, "FuncCall")) {
    const pj *fn = jget(rb, "funcname");
    const char *f = jsval(pj_item(fn, pj_size(fn) - 1));
    if (f && streq(f, "like_escape")) {
      const pj *args = jget(rb, "args");
      r = build_expr(c, pj_item(args, 0));
      esc = build_expr(c, pj_item(args, 1));
    } else {
      r = build_expr(c, rw);
    }
  } else {
    r = build_expr(c, rw);
  }
  if (c->rc) return NULL;
  int op;
  if (ak == AK_NOT_DISTINCT) op = SQLSIM_OP_IS;
  else if (ak == AK_DISTINCT) op = SQLSIM_OP_ISNOT;
  else if (ak == AK_NULLIF) {
    sqlsim_node *f = tree_node_new(c->a, SQLSIM_N_FUNC, 3); /* args, filter, window: a call as any other */
    f->text = "nullif";
    f->kids[0] = tree_node_new(c->a, SQLSIM_N_LIST, 2);
    f->kids[0]->kids[0] = l;
    f->kids[0]->kids[1] = r;
    f->start = start;
    return f;
  } else if (ak == AK_OP || ak == AK_LIKE || ak == AK_ILIKE) {
    op = binop_code(name);
  } else {
    /* x = ANY (array), x < ALL (..), SIMILAR TO: PostgreSQL's forms, which
     * SQLite refuses and no printed SQLite form reads back as */
    const char *what = ak == AK_OP_ANY ? "ANY (..) is not SQLite's"
                       : ak == AK_OP_ALL ? "ALL (..) is not SQLite's"
                       : ak == AK_SIMILAR ? "SIMILAR TO is not SQLite's"
                                                        : NULL;
    build_fail(c, SQLSIM_ESYNTAX, start, what ? what : "not an SQLite expression:", what ? NULL : kind);
    return NULL;
  }
  sqlsim_node *n = binop(c, op, l, r, start);
  if (esc) {
    sqlsim_node *n3 = tree_node_new(c->a, SQLSIM_N_BINOP, 3);
    *n3 = *n;
    n3->nkids = 3;
    n3->kids = sqlsim_arena_alloc(c->a, sizeof *n3->kids * 3);
    n3->kids[0] = l;
    n3->kids[1] = r;
    n3->kids[2] = esc;
    n = n3;
  }
  if (op == SQLSIM_OP_OTHER) {
    n->text = sqlsim_arena_printf(c->a, "%s%s", ak != AK_OP ? kind : "", name);
    /* SQLite knows -> and ->> (JSON); everything else is another dialect. */
    if (!streq(name, "->") && !streq(name, "->>")) n->flags |= SQLSIM_F_DIALECT;
  }
  if (op == SQLSIM_OP_ILIKE || op == SQLSIM_OP_NOTILIKE) n->flags |= SQLSIM_F_DIALECT;
  return n;
}

static sqlsim_node *build_boolexpr(build_ctx *c, const pj *b) {
  const char *op = jstr(b, "boolop");
  sqlsim_node *args = build_list(c, jget(b, "args"), build_expr);
  if (c->rc) return NULL;
  int start = loc(c, b);
  if (op && streq(op, "NOT_EXPR")) {
    sqlsim_node *x = args->nkids ? args->kids[0] : NULL;
    /* NOT IN (subquery), NOT EXISTS, NOT BETWEEN .. fold into the node. */
    if (x && x->kind == SQLSIM_N_SUBLINK &&
        (x->op == SQLSIM_SUB_IN || x->op == SQLSIM_SUB_EXISTS) && !(x->flags & SQLSIM_F_NOT)) {
      x->flags |= SQLSIM_F_NOT;
      if (start >= 0 && (x->start < 0 || start < x->start)) x->start = start;
      return x;
    }
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_NOT, 1);
    n->kids[0] = x;
    n->start = start;
    return n;
  }
  sqlsim_node *n = tree_node_new(c->a, op && streq(op, "OR_EXPR") ? SQLSIM_N_OR : SQLSIM_N_AND, 0);
  n->kids = args->kids;
  n->nkids = args->nkids;
  n->start = start;
  return n;
}

static sqlsim_node *build_funccall(build_ctx *c, const pj *b) {
  const pj *names = jget(b, "funcname");
  int nn = pj_size(names);
  const char *name = jsval(pj_item(names, nn - 1));
  const char *schema = nn > 1 ? jsval(pj_item(names, 0)) : NULL;
  int start = loc(c, b);
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_FUNC, 3);
  name = raw_name(c, name ? name : "");
  n->raw = sqlsim_arena_strdup(c->a, name);
  n->text = fold(c, name);
  n->start = start;
  if (schema && streq(schema, "pg_catalog")) n->flags |= SQLSIM_F_DIALECT; /* EXTRACT(.. FROM ..) etc. */
  n->kids[0] = build_list(c, jget(b, "args"), build_expr);
  if (c->rc) return NULL;
  if (jbool(b, "agg_star")) n->flags |= SQLSIM_F_STAR;
  if (jbool(b, "agg_distinct")) n->flags |= SQLSIM_F_DISTINCT;
  if (jget(b, "agg_filter")) {
    n->kids[1] = build_expr(c, jget(b, "agg_filter"));
    n->flags |= SQLSIM_F_FILTER;
  }
  if (jget(b, "agg_order")) {
    build_fail(c, SQLSIM_EUNSUPPORTED, start, "unsupported ORDER BY inside the arguments of",
               n->text);
    return NULL;
  }
  const pj *over = jget(b, "over");
  if (over) {
    sqlsim_node *w = tree_node_new(c->a, SQLSIM_N_WINDOW, 4);
    const char *wn = jstr(over, "refname");
    if (!wn) wn = jstr(over, "name");
    if (wn) w->text = fold(c, raw_name(c, wn));
    if (jget(over, "partitionClause"))
      w->kids[0] = build_list(c, jget(over, "partitionClause"), build_expr);
    if (jget(over, "orderClause")) w->kids[1] = build_list(c, jget(over, "orderClause"), build_expr);
    if (jget(over, "startOffset")) w->kids[2] = build_expr(c, jget(over, "startOffset"));
    if (jget(over, "endOffset")) w->kids[3] = build_expr(c, jget(over, "endOffset"));
    w->aux = jint(over, "frameOptions", 0);
    w->start = loc(c, over);
    n->kids[2] = w;
  }
  return c->rc ? NULL : n;
}

static sqlsim_node *build_sublink(build_ctx *c, const pj *b) {
  const char *t = jstr(b, "subLinkType");
  int start = loc(c, b);
  const pj *sb;
  const pj *sw = jget(b, "subselect");
  jtype(sw, &sb);
  sqlsim_node *sel = build_select(c, sb, -1);
  sqlsim_node *test = jget(b, "testexpr") ? build_expr(c, jget(b, "testexpr")) : NULL;
  if (c->rc) return NULL;
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_SUBLINK, 2);
  n->kids[0] = test;
  n->kids[1] = sel;
  n->start = start;
  const char *opn = NULL;
  if (jget(b, "operName")) {
    const pj *on = jget(b, "operName");
    opn = jsval(pj_item(on, pj_size(on) - 1));
  }
  if (!t || streq(t, "EXPR_SUBLINK")) n->op = SQLSIM_SUB_SCALAR;
  else if (streq(t, "EXISTS_SUBLINK")) n->op = SQLSIM_SUB_EXISTS;
  else if (streq(t, "ANY_SUBLINK")) {
    /* x IN (..) has no operator; x = ANY (..) is PostgreSQL's spelling. */
    if (!opn || streq(opn, "=")) {
      n->op = SQLSIM_SUB_IN;
      if (opn) n->flags |= SQLSIM_F_DIALECT;
    } else {
      n->op = SQLSIM_SUB_ANY;
      n->text = sqlsim_arena_strdup(c->a, opn);
      n->flags |= SQLSIM_F_DIALECT;
    }
  } else if (streq(t, "ALL_SUBLINK")) {
    n->op = SQLSIM_SUB_ALL;
    n->text = sqlsim_arena_strdup(c->a, opn ? opn : "=");
    n->flags |= SQLSIM_F_DIALECT;
  } else {
    build_fail(c, SQLSIM_EUNSUPPORTED, start, "unsupported subquery form", t);
    return NULL;
  }
  return n;
}

static sqlsim_node *build_case(build_ctx *c, const pj *b) {
  const pj *args = jget(b, "args");
  int nw = pj_size(args);
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_CASE, 2 + nw);
  n->start = loc(c, b);
  if (jget(b, "arg")) n->kids[0] = build_expr(c, jget(b, "arg"));
  if (jget(b, "defresult")) n->kids[1] = build_expr(c, jget(b, "defresult"));
  int i = 2;
  const pj *it;
  pj_foreach(it, args) {
    const pj *wb;
    jtype(it, &wb);
    sqlsim_node *w = tree_node_new(c->a, SQLSIM_N_WHEN, 2);
    w->kids[0] = build_expr(c, jget(wb, "expr"));
    w->kids[1] = build_expr(c, jget(wb, "result"));
    w->start = loc(c, wb);
    n->kids[i++] = w;
    if (c->rc) return NULL;
  }
  return c->rc ? NULL : n;
}

/* 1 if the word can continue a type name of several words as PostgreSQL's
 * grammar has them (double precision, character varying, timestamp with time
 * zone, interval day to second): any other word after a type is the next
 * part of the query (`a::int OR b`, `a::int alias`). */
static int type_word_continues(const fe_result *fe, int k) {
  static const char *const words[] = {"precision", "varying", "with", "without", "time", "zone", "char",
                                      "character", "year", "month", "day", "hour", "minute", "second", "to", NULL};
  return fe_word_in(fe, k, words);
}

/* The type name as the user wrote it: words from the TypeName's location
 * (a quoted name is one word), plus one parenthesized modifier list. */
static const char *type_text(build_ctx *c, const pj *tn) {
  int at = loc(c, tn);
  int t = at >= 0 ? fe_token_at(c->fe, at) : -1;
  if (t >= 0 && (c->fe->toks[t].type == FT_WORD || c->fe->toks[t].type == FT_QUOTED)) {
    int first = t, last = t;
    int k = fe_next_sig(c->fe, t);
    while (c->fe->toks[t].type == FT_WORD && k < c->fe->ntoks && c->fe->toks[k].type == FT_WORD &&
           type_word_continues(c->fe, k)) {
      last = k;
      k = fe_next_sig(c->fe, k);
    }
    if (k < c->fe->ntoks && c->fe->toks[k].type == FT_LPAREN && c->fe->match[k] < c->fe->ntoks)
      last = c->fe->match[k];
    const fe_tok *a = &c->fe->toks[first], *z = &c->fe->toks[last];
    return sqlsim_arena_strndup(c->a, c->fe->orig + a->start, (size_t)(z->start + z->len - a->start));
  }
  const pj *names = jget(tn, "names");
  const char *s = jsval(pj_item(names, pj_size(names) - 1));
  return sqlsim_arena_strdup(c->a, s ? s : "");
}

static sqlsim_node *build_typecast(build_ctx *c, const pj *b) {
  sqlsim_node *x = build_expr(c, jget(b, "arg"));
  if (c->rc) return NULL;
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_CAST, 1);
  n->kids[0] = x;
  n->start = loc(c, b);
  n->text = type_text(c, jget(b, "typeName"));
  int t = n->start >= 0 ? fe_token_at(c->fe, n->start) : -1;
  const fe_tok *tk = t >= 0 ? &c->fe->toks[t] : NULL;
  if (tk && tk->type == FT_OP) {
    n->flags |= SQLSIM_F_DIALECT; /* x::type */
  } else if (!(tk && tk->type == FT_WORD && tk->len == 4 && !strncasecmp(c->fe->orig + tk->start, "cast", 4))) {
    /* Neither CAST nor ::, so a typed literal (DATE '..'): a type name before
     * a string. PostgreSQL also takes a name before a parameter ("nullif"
     * $1), which no printed form reads back as. */
    if (x->kind != SQLSIM_N_CONST || x->op != SQLSIM_CONST_STRING) {
      build_fail(c, SQLSIM_ESYNTAX, n->start >= 0 ? n->start : x->start, "a name before a value: not SQLite syntax", NULL);
      return NULL;
    }
    n->flags |= SQLSIM_F_DIALECT;
  }
  return n;
}

static sqlsim_node *build_expr(build_ctx *c, const pj *w) {
  if (c->rc) return NULL;
  if (!w) return NULL;
  const pj *b;
  const char *t = jtype(w, &b);
  switch (t[0]) {
  case 'A':
    if (TYPE_IS(b, "A_Const")) return build_const(c, b);
    if (TYPE_IS(b, "A_Expr")) return build_aexpr(c, b);
    if (TYPE_IS(b, "A_Star")) return tree_node_new(c->a, SQLSIM_N_STAR, 0);
    break;
  case 'B':
    if (TYPE_IS(b, "BoolExpr")) return build_boolexpr(c, b);
    if (TYPE_IS(b, "BooleanTest")) {
      static const char *tests[] = {"IS_TRUE", "IS_NOT_TRUE", "IS_FALSE",
                                    "IS_NOT_FALSE", "IS_UNKNOWN", "IS_NOT_UNKNOWN"};
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_BOOLTEST, 1);
      n->kids[0] = build_expr(c, jget(b, "arg"));
      for (int i = 0; i < 6; i++)
        if (jis(b, "booltesttype", tests[i])) n->op = (uint16_t)i;
      n->start = loc(c, b);
      return c->rc ? NULL : n;
    }
    break;
  case 'C':
    if (TYPE_IS(b, "ColumnRef")) return build_columnref(c, b);
    if (TYPE_IS(b, "CaseExpr")) return build_case(c, b);
    if (TYPE_IS(b, "CollateClause")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_COLLATE, 1);
      n->kids[0] = build_expr(c, jget(b, "arg"));
      const pj *cn = jget(b, "collname");
      const char *s = jsval(pj_item(cn, pj_size(cn) - 1));
      n->text = fold(c, s ? s : "");
      n->start = loc(c, b);
      return c->rc ? NULL : n;
    }
    if (TYPE_IS(b, "CoalesceExpr")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_FUNC, 3);
      n->text = "coalesce";
      n->kids[0] = build_list(c, jget(b, "args"), build_expr);
      n->start = loc(c, b);
      return c->rc ? NULL : n;
    }
    break;
  case 'F':
    if (TYPE_IS(b, "FuncCall")) return build_funccall(c, b);
    break;
  case 'M':
    if (TYPE_IS(b, "MinMaxExpr")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_FUNC, 3);
      n->text = jis(b, "op", "IS_GREATEST") ? "greatest" : "least";
      n->kids[0] = build_list(c, jget(b, "args"), build_expr);
      n->flags |= SQLSIM_F_DIALECT;
      n->start = loc(c, b);
      return c->rc ? NULL : n;
    }
    break;
  case 'N':
    if (TYPE_IS(b, "NullTest")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_ISNULL, 1);
      n->kids[0] = build_expr(c, jget(b, "arg"));
      n->op = jis(b, "nulltesttype", "IS_NOT_NULL") ? SQLSIM_NOTNULL : SQLSIM_ISNULL;
      n->start = loc(c, b);
      return c->rc ? NULL : n;
    }
    break;
  case 'P':
    if (TYPE_IS(b, "ParamRef")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_PARAM, 0);
      n->start = loc(c, b);
      int tk = n->start >= 0 ? fe_token_at(c->fe, n->start) : -1;
      n->text = tk >= 0 ? fe_ident_text(c->a, c->fe, tk)
                        : sqlsim_arena_printf(c->a, "$%d", jint(b, "number", 0));
      return n;
    }
    break;
  case 'R':
    if (TYPE_IS(b, "RowExpr")) {
      sqlsim_node *l = build_list(c, jget(b, "args"), build_expr);
      if (c->rc) return NULL;
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_ROW, 0);
      n->kids = l->kids;
      n->nkids = l->nkids;
      n->start = loc(c, b);
      return n;
    }
    if (TYPE_IS(b, "ResTarget")) break;
    break;
  case 'S':
    if (TYPE_IS(b, "SubLink")) return build_sublink(c, b);
    if (TYPE_IS(b, "SortBy")) {
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_SORT, 1);
      n->kids[0] = build_expr(c, jget(b, "node"));
      if (jis(b, "sortby_dir", "SORTBY_ASC")) n->op = SQLSIM_SORT_ASC;
      else if (jis(b, "sortby_dir", "SORTBY_DESC")) n->op = SQLSIM_SORT_DESC;
      else if (jis(b, "sortby_dir", "SORTBY_USING")) n->flags |= SQLSIM_F_DIALECT;
      if (jis(b, "sortby_nulls", "SORTBY_NULLS_FIRST")) n->aux = SQLSIM_NULLS_FIRST;
      else if (jis(b, "sortby_nulls", "SORTBY_NULLS_LAST")) n->aux = SQLSIM_NULLS_LAST;
      n->start = n->kids[0] ? n->kids[0]->start : -1;
      return c->rc ? NULL : n;
    }
    if (TYPE_IS(b, "SQLValueFunction")) {
      static const char *ops[][2] = {
          {"SVFOP_CURRENT_DATE", "current_date"}, {"SVFOP_CURRENT_TIME", "current_time"},
          {"SVFOP_CURRENT_TIMESTAMP", "current_timestamp"}};
      sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_FUNC, 3);
      n->aux = 1; /* keyword form: no parentheses */
      n->start = loc(c, b);
      n->flags |= SQLSIM_F_DIALECT;
      for (int i = 0; i < 3; i++)
        if (jis(b, "op", ops[i][0])) {
          n->text = ops[i][1];
          n->flags &= ~(uint32_t)SQLSIM_F_DIALECT;
        }
      if (!n->text) {
        const char *o = jstr(b, "op");
        n->text = fold(c, o && strlen(o) > 6 ? o + 6 : "?");
      }
      return n;
    }
    if (TYPE_IS(b, "SelectStmt")) {
      build_fail(c, SQLSIM_EUNSUPPORTED, loc(c, b), "unsupported bare SELECT in expression", NULL);
      return NULL;
    }
    break;
  case 'T':
    if (TYPE_IS(b, "TypeCast")) return build_typecast(c, b);
    break;
  default:
    break;
  }
  build_fail(c, SQLSIM_EUNSUPPORTED, loc(c, b), "unsupported construct", t);
  return NULL;
}

/* ---------------------------------------------------------------- FROM */

static sqlsim_node *build_from(build_ctx *c, const pj *w);

static const char *alias_of(build_ctx *c, const pj *b, uint32_t *flags) {
  const pj *al = jget(b, "alias");
  const char *s = jstr(al, "aliasname");
  if (!s) return NULL;
  if (!strncmp(s, FE_SYNTH_ALIAS, strlen(FE_SYNTH_ALIAS))) {
    *flags |= SQLSIM_F_SYNTHETIC;
    return NULL;
  }
  return fold(c, raw_name(c, s));
}

/* (a JOIN b ON ..) AS x: SQLite reads it as a subquery, SELECT * FROM the
 * join, named x (its columns those of both tables, the first of two of one
 * name answering x.name). */
static sqlsim_node *join_as_subquery(build_ctx *c, const pj *b, sqlsim_node *join) {
  sqlsim_node *sel = tree_node_new(c->a, SQLSIM_N_SELECT, SQLSIM_SEL__COUNT);
  sqlsim_node *targets = tree_node_new(c->a, SQLSIM_N_LIST, 1), *from = tree_node_new(c->a, SQLSIM_N_LIST, 1);
  targets->kids[0] = tree_node_new(c->a, SQLSIM_N_TARGET, 1);
  targets->kids[0]->kids[0] = tree_node_new(c->a, SQLSIM_N_STAR, 0);
  targets->flags |= SQLSIM_F_UNORDERED;
  from->kids[0] = join;
  sel->kids[SQLSIM_SEL_TARGETS] = targets;
  sel->kids[SQLSIM_SEL_FROM] = from;
  sel->start = join->start;
  sqlsim_node *sq = tree_node_new(c->a, SQLSIM_N_SUBQUERY, 1);
  sq->kids[0] = sel;
  sq->start = join->start;
  sq->alias = alias_of(c, b, &sq->flags);
  return sq;
}

static sqlsim_node *build_from(build_ctx *c, const pj *w) {
  if (c->rc || !w) return NULL;
  const pj *b;
  const char *t = jtype(w, &b);
  if (TYPE_IS(b, "RangeVar")) {
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_TABLE, 0);
    const char *rel = raw_name(c, jstr(b, "relname") ? jstr(b, "relname") : "");
    n->start = loc(c, b);
    int tok = n->start >= 0 ? fe_token_at(c->fe, n->start) : -1;
    if (jstr(b, "schemaname") && tok >= 0) tok = fe_next_sig(c->fe, fe_next_sig(c->fe, tok));
    n->raw = sqlsim_arena_strdup(c->a, spelled(c, tok, rel));
    n->text = fold(c, rel);
    n->alias = alias_of(c, b, &n->flags);
    return n;
  }
  if (TYPE_IS(b, "RangeSubselect")) {
    const pj *sb;
    jtype(jget(b, "subquery"), &sb);
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_SUBQUERY, 1);
    n->kids[0] = build_select(c, sb, -1);
    n->alias = alias_of(c, b, &n->flags);
    if (n->kids[0]) n->start = n->kids[0]->start;
    return c->rc ? NULL : n;
  }
  if (TYPE_IS(b, "JoinExpr")) {
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_JOIN, 4);
    n->kids[0] = build_from(c, jget(b, "larg"));
    n->kids[1] = build_from(c, jget(b, "rarg"));
    if (jget(b, "quals")) n->kids[2] = build_expr(c, jget(b, "quals"));
    if (jget(b, "usingClause")) {
      const pj *u = jget(b, "usingClause"), *it;
      sqlsim_node *l = tree_node_new(c->a, SQLSIM_N_LIST, pj_size(u));
      int i = 0;
      pj_foreach(it, u) {
        sqlsim_node *col = tree_node_new(c->a, SQLSIM_N_COLUMN, 0);
        const char *s = raw_name(c, jsval(it) ? jsval(it) : "");
        col->raw = sqlsim_arena_strdup(c->a, s);
        col->text = fold(c, s);
        l->kids[i++] = col;
      }
      n->kids[3] = l;
    }
    const char *jt = jstr(b, "jointype");
    if (!jt || streq(jt, "JOIN_INNER"))
      n->op = (n->kids[2] || n->kids[3] || jbool(b, "isNatural")) ? SQLSIM_JOIN_INNER : SQLSIM_JOIN_CROSS;
    else if (streq(jt, "JOIN_LEFT")) n->op = SQLSIM_JOIN_LEFT;
    else if (streq(jt, "JOIN_RIGHT")) n->op = SQLSIM_JOIN_RIGHT;
    else if (streq(jt, "JOIN_FULL")) n->op = SQLSIM_JOIN_FULL;
    if (jbool(b, "isNatural")) n->flags |= SQLSIM_F_NATURAL;
    if (n->kids[0]) n->start = n->kids[0]->start;
    if (c->rc) return NULL;
    if (jget(b, "alias")) return join_as_subquery(c, b, n);
    return n;
  }
  if (TYPE_IS(b, "RangeFunction")) {
    const pj *fl = jget(b, "functions");
    const pj *pair = pj_item(fl, 0);
    const pj *pb;
    jtype(pair, &pb);
    const pj *fw = pj_item(jget(pb, "items"), 0);
    sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_FUNCTABLE, 1);
    n->kids[0] = build_expr(c, fw);
    n->alias = alias_of(c, b, &n->flags);
    if (n->kids[0]) n->start = n->kids[0]->start;
    return c->rc ? NULL : n;
  }
  build_fail(c, SQLSIM_EUNSUPPORTED, loc(c, b), "unsupported FROM item", t);
  return NULL;
}

/* ---------------------------------------------------------------- SELECT */

static sqlsim_node *build_target(build_ctx *c, const pj *w) {
  const pj *b;
  jtype(w, &b);
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_TARGET, 1);
  n->kids[0] = build_expr(c, jget(b, "val"));
  const char *name = jstr(b, "name");
  n->start = loc(c, b);
  if (name) {
    name = raw_name(c, name);
    n->raw = sqlsim_arena_strdup(c->a, spelled(c, alias_token(c, n->start, name), name));
    n->text = fold(c, name);
  }
  return c->rc ? NULL : n;
}

static sqlsim_node *build_cte(build_ctx *c, const pj *w) {
  const pj *b;
  jtype(w, &b);
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_CTE, 2);
  const char *name = raw_name(c, jstr(b, "ctename") ? jstr(b, "ctename") : "");
  n->raw = sqlsim_arena_strdup(c->a, name);
  n->text = fold(c, name);
  const pj *qb;
  jtype(jget(b, "ctequery"), &qb);
  n->kids[0] = build_select(c, qb, -1);
  if (jget(b, "aliascolnames")) {
    const pj *u = jget(b, "aliascolnames"), *it;
    sqlsim_node *l = tree_node_new(c->a, SQLSIM_N_LIST, pj_size(u));
    int i = 0;
    pj_foreach(it, u) {
      sqlsim_node *col = tree_node_new(c->a, SQLSIM_N_COLUMN, 0);
      const char *s = raw_name(c, jsval(it) ? jsval(it) : "");
      col->raw = sqlsim_arena_strdup(c->a, s);
      col->text = fold(c, s);
      l->kids[i++] = col;
    }
    n->kids[1] = l;
  }
  n->start = loc(c, b);
  return c->rc ? NULL : n;
}

/* PostgreSQL binds INTERSECT tighter than UNION and EXCEPT; SQLite gives every
 * compound operator the same precedence, left to right. Rebuild a chain of
 * compound operators left-deep from its members in written order. Members
 * with their own ORDER BY/LIMIT/WITH (parenthesized, PostgreSQL only) stay
 * whole. */
static int setop_bare(const sqlsim_node *n) {
  return n->op != SQLSIM_SET_NONE && !n->kids[SQLSIM_SEL_ORDER] && !n->kids[SQLSIM_SEL_LIMIT] &&
         !n->kids[SQLSIM_SEL_OFFSET] && !n->kids[SQLSIM_SEL_WITH];
}

static void setop_collect(sqlsim_node *n, int top, sqlsim_node **m, int *nm, sqlsim_node **ops,
                          int *no) {
  if (n && n->op != SQLSIM_SET_NONE && (top || setop_bare(n))) {
    setop_collect(n->kids[SQLSIM_SEL_LARG], 0, m, nm, ops, no);
    ops[(*no)++] = n;
    setop_collect(n->kids[SQLSIM_SEL_RARG], 0, m, nm, ops, no);
  } else {
    m[(*nm)++] = n;
  }
}

static int setop_count(const sqlsim_node *n, int top) {
  if (n && n->op != SQLSIM_SET_NONE && (top || setop_bare(n)))
    return 1 + setop_count(n->kids[SQLSIM_SEL_LARG], 0) + setop_count(n->kids[SQLSIM_SEL_RARG], 0);
  return 0;
}

static sqlsim_node *setop_left_deep(build_ctx *c, sqlsim_node *top) {
  int k = setop_count(top, 1);
  if (k < 2) return top;
  sqlsim_node **m = sqlsim_arena_alloc(c->a, sizeof *m * (size_t)(k + 1));
  sqlsim_node **ops = sqlsim_arena_alloc(c->a, sizeof *ops * (size_t)k);
  int nm = 0, no = 0;
  setop_collect(top, 1, m, &nm, ops, &no);
  sqlsim_node *acc = m[0];
  for (int i = 0; i < no; i++) {
    ops[i]->kids[SQLSIM_SEL_LARG] = acc;
    ops[i]->kids[SQLSIM_SEL_RARG] = m[i + 1];
    acc = ops[i];
  }
  if (acc != top) { /* the whole chain's ORDER BY, LIMIT and WITH move to its new root */
    static const int slots[] = {SQLSIM_SEL_ORDER, SQLSIM_SEL_LIMIT, SQLSIM_SEL_OFFSET,
                                SQLSIM_SEL_WITH};
    for (int i = 0; i < 4; i++) {
      acc->kids[slots[i]] = top->kids[slots[i]];
      top->kids[slots[i]] = NULL;
    }
    acc->start = top->start;
  }
  return acc;
}

static sqlsim_node *build_select(build_ctx *c, const pj *b, int start) {
  if (c->rc) return NULL;
  if (!b) {
    build_fail(c, SQLSIM_EUNSUPPORTED, start, "missing SELECT", NULL);
    return NULL;
  }
  sqlsim_node *n = tree_node_new(c->a, SQLSIM_N_SELECT, SQLSIM_SEL__COUNT);
  n->start = start;
  const char *op = jstr(b, "op");
  if (op && !streq(op, "SETOP_NONE")) {
    n->op = streq(op, "SETOP_UNION") ? SQLSIM_SET_UNION
            : streq(op, "SETOP_INTERSECT") ? SQLSIM_SET_INTERSECT
                                             : SQLSIM_SET_EXCEPT;
    if (jbool(b, "all")) n->flags |= SQLSIM_F_ALL;
    n->kids[SQLSIM_SEL_LARG] = build_select(c, jget(b, "larg"), -1);
    n->kids[SQLSIM_SEL_RARG] = build_select(c, jget(b, "rarg"), -1);
    if (n->kids[SQLSIM_SEL_LARG]) n->start = n->kids[SQLSIM_SEL_LARG]->start;
  }
  const pj *dc = jget(b, "distinctClause");
  if (dc) {
    n->flags |= SQLSIM_F_DISTINCT;
    const pj *first = pj_item(dc, 0);
    if (pj_size(dc) > 1 || (first && first->child)) { /* DISTINCT ON (..): PostgreSQL's */
      n->kids[SQLSIM_SEL_DISTINCT_ON] = build_list(c, dc, build_expr);
      if (c->rc) return NULL;
    }
  }
  if (jget(b, "intoClause") || jget(b, "lockingClause")) {
    build_fail(c, SQLSIM_EUNSUPPORTED, start, "unsupported SELECT INTO / FOR UPDATE", NULL);
    return NULL;
  }
  if (jget(b, "withClause")) {
    const pj *wc = jget(b, "withClause");
    sqlsim_node *l = build_list(c, jget(wc, "ctes"), build_cte);
    if (c->rc) return NULL;
    if (jbool(wc, "recursive")) l->flags |= SQLSIM_F_RECURSIVE;
    n->kids[SQLSIM_SEL_WITH] = l;
  }
  if (jget(b, "targetList")) {
    n->kids[SQLSIM_SEL_TARGETS] = build_list(c, jget(b, "targetList"), build_target);
    if (c->rc) return NULL;
    n->kids[SQLSIM_SEL_TARGETS]->flags |= SQLSIM_F_UNORDERED;
    if (n->start < 0 && n->kids[SQLSIM_SEL_TARGETS]->nkids)
      n->start = n->kids[SQLSIM_SEL_TARGETS]->kids[0]->start;
  }
  if (n->op == SQLSIM_SET_NONE && !n->kids[SQLSIM_SEL_TARGETS] && !jget(b, "valuesLists")) {
    /* PostgreSQL reads "SELECT" alone (or "SELECT FROM t") as a query of no
     * columns; SQLite and MySQL refuse it */
    if ((c->fe->dialect & FE_DIALECT) != FE_POSTGRES) {
      build_fail(c, SQLSIM_ESYNTAX, start, "a SELECT with no columns: not SQLite syntax", NULL);
      return NULL;
    }
    n->kids[SQLSIM_SEL_TARGETS] = tree_node_new(c->a, SQLSIM_N_LIST, 0);
    n->kids[SQLSIM_SEL_TARGETS]->start = start;
  }
  if (jget(b, "fromClause"))
    n->kids[SQLSIM_SEL_FROM] = build_list(c, jget(b, "fromClause"), build_from);
  if (jget(b, "whereClause")) n->kids[SQLSIM_SEL_WHERE] = build_expr(c, jget(b, "whereClause"));
  if (jget(b, "groupClause")) {
    n->kids[SQLSIM_SEL_GROUP] = build_list(c, jget(b, "groupClause"), build_expr);
    if (n->kids[SQLSIM_SEL_GROUP]) n->kids[SQLSIM_SEL_GROUP]->flags |= SQLSIM_F_UNORDERED;
  }
  if (jget(b, "havingClause")) n->kids[SQLSIM_SEL_HAVING] = build_expr(c, jget(b, "havingClause"));
  if (jget(b, "sortClause")) n->kids[SQLSIM_SEL_ORDER] = build_list(c, jget(b, "sortClause"), build_expr);
  if (jget(b, "limitCount")) {
    sqlsim_node *l = build_expr(c, jget(b, "limitCount"));
    /* PostgreSQL's LIMIT ALL (and LIMIT NULL): no limit */
    if ((c->fe->dialect & FE_DIALECT) == FE_POSTGRES && l && l->kind == SQLSIM_N_CONST && l->op == SQLSIM_CONST_NULL)
      l = NULL;
    n->kids[SQLSIM_SEL_LIMIT] = l;
  }
  if (jget(b, "limitOffset")) n->kids[SQLSIM_SEL_OFFSET] = build_expr(c, jget(b, "limitOffset"));
  if (jget(b, "valuesLists")) {
    const pj *vl = jget(b, "valuesLists"), *it;
    sqlsim_node *v = tree_node_new(c->a, SQLSIM_N_VALUES, pj_size(vl));
    int i = 0;
    pj_foreach(it, vl) {
      const pj *lb;
      jtype(it, &lb);
      sqlsim_node *row = build_list(c, jget(lb, "items"), build_expr);
      if (c->rc) return NULL;
      row->kind = SQLSIM_N_ROW;
      v->kids[i++] = row;
    }
    n->kids[SQLSIM_SEL_VALUES] = v;
  }
  if (jget(b, "windowClause")) {
    const pj *wl = jget(b, "windowClause"), *it;
    sqlsim_node *l = tree_node_new(c->a, SQLSIM_N_LIST, pj_size(wl));
    int i = 0;
    pj_foreach(it, wl) {
      const pj *wb;
      jtype(it, &wb);
      sqlsim_node *w = tree_node_new(c->a, SQLSIM_N_WINDOW, 4);
      const char *nm = jstr(wb, "name");
      w->alias = nm ? fold(c, raw_name(c, nm)) : NULL; /* the window's own name */
      if (jstr(wb, "refname")) w->text = fold(c, raw_name(c, jstr(wb, "refname")));
      if (jget(wb, "partitionClause"))
        w->kids[0] = build_list(c, jget(wb, "partitionClause"), build_expr);
      if (jget(wb, "orderClause")) w->kids[1] = build_list(c, jget(wb, "orderClause"), build_expr);
      if (jget(wb, "startOffset")) w->kids[2] = build_expr(c, jget(wb, "startOffset"));
      if (jget(wb, "endOffset")) w->kids[3] = build_expr(c, jget(wb, "endOffset"));
      w->aux = jint(wb, "frameOptions", 0);
      l->kids[i++] = w;
    }
    n->kids[SQLSIM_SEL_WINDOW] = l;
  }
  if (c->rc) return NULL;
  return n->op != SQLSIM_SET_NONE ? setop_left_deep(c, n) : n;
}

/* ---------------------------------------------------------------- entry */

/* Fills node ends: a leaf ends where its token ends, any node no earlier
 * than its last child. */
static int span_post(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  const fe_result *fe = ctx;
  int end = -1;
  if (n->start >= 0) {
    int t = fe_token_at(fe, n->start);
    if (t >= 0) {
      end = fe->toks[t].start + fe->toks[t].len;
      /* a.b.c: a column or star reference runs through its dotted parts */
      for (int d = fe_next_sig(fe, t); d < fe->ntoks && fe->toks[d].type == FT_DOT;
           d = fe_next_sig(fe, t)) {
        t = fe_next_sig(fe, d);
        if (t >= fe->ntoks) break;
        end = fe->toks[t].start + fe->toks[t].len;
      }
    }
  }
  for (uint32_t i = 0; i < n->nkids; i++) {
    const sqlsim_node *k = n->kids[i];
    if (!k) continue;
    if (k->end > end) end = k->end;
    if (k->start >= 0 && (n->start < 0 || k->start < n->start)) n->start = k->start;
  }
  n->end = end;
  return SQLSIM_WALK_CONTINUE;
}

int parse_build_tree(sqlsim_arena *a, const fe_result *fe, const pj *doc, sqlsim_node **root,
               sqlsim_error *err) {
  build_ctx c = {a, fe, err, 0};
  *root = NULL;
  const pj *stmts = jget(doc, "stmts");
  int ns = pj_size(stmts);
  if (ns == 0) return sqlsim_error_set(err, SQLSIM_ESYNTAX, 0, "empty query: no statement found");
  if (ns > 1) {
    const pj *second = pj_item(stmts, 1);
    int off = fe_map(fe, jint(second, "stmt_location", 0));
    /* skip the white space PostgreSQL counts into the statement */
    while (off < fe->orig_len && strchr(" \t\r\n", fe->orig[off])) off++;
    return sqlsim_error_set(err, SQLSIM_EMULTI, off,
                            "more than one statement: the second starts at offset %d", off);
  }
  const pj *st = jget(pj_item(stmts, 0), "stmt");
  const pj *b;
  const char *t = jtype(st, &b);
  if (!streq(t, "SelectStmt")) {
    int off = fe_map(fe, jint(pj_item(stmts, 0), "stmt_location", 0));
    while (off < fe->orig_len && strchr(" \t\r\n", fe->orig[off])) off++;
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, off,
                            "only SELECT statements are read (this is a %.*s)",
                            (int)(strlen(t) > 4 ? strlen(t) - 4 : strlen(t)), t);
  }
  sqlsim_node *n = build_select(&c, b, 0);
  if (c.rc) return c.rc;
  sqlsim_walk(n, NULL, span_post, (void *)fe);
  *root = n;
  return 0;
}
