/* lexer.h -- the tokens' keywords and the token predicates the tokenizer
 * (lexer.c) and the rewrite planner (translate.c) share; internal to the
 * front end. */
#ifndef SQLSIM_LEXER_H
#define SQLSIM_LEXER_H

#include "frontend.h"

/* Words the rewrites look at, each classified once per token. Flags:
 * FROM_END ends a FROM clause at its depth; NOT_ALIAS cannot be a bare alias
 * after a FROM item; PG_RESERVED is reserved in PostgreSQL but an ordinary
 * name in SQLite; PG_FUNC has special call syntax in PostgreSQL but is a plain
 * function in SQLite; BOUND ends a run of comparisons (a = b = c); NEST can
 * put one expression inside another without parentheses (NOT x, x IS y, x
 * COLLATE c); RESET starts a new expression (a clause, WHEN, THEN). */
enum { KF_FROM_END = 1, KF_NOT_ALIAS = 2, KF_PG_RESERVED = 4, KF_PG_FUNC = 8, KF_BOUND = 16, KF_NEST = 32,
       KF_RESET = 64 };
#define FE_KEYWORDS(X)                                                        \
  X(ALL, "all", 0) X(ANALYSE, "analyse", KF_PG_RESERVED) X(AND, "and", KF_BOUND) \
  X(ANY, "any", KF_PG_RESERVED)                                               \
  X(ARRAY, "array", KF_PG_RESERVED) X(AS, "as", 0)                            \
  X(ASYMMETRIC, "asymmetric", KF_PG_RESERVED)                                 \
  X(AUTHORIZATION, "authorization", KF_PG_RESERVED)                           \
  X(BETWEEN, "between", KF_BOUND | KF_NEST) X(BIGINT, "bigint", KF_PG_FUNC)             \
  X(BINARY, "binary", KF_PG_RESERVED) X(BIT, "bit", KF_PG_FUNC)               \
  X(BOOLEAN, "boolean", KF_PG_FUNC) X(BOTH, "both", KF_PG_RESERVED)           \
  X(BY, "by", KF_BOUND) X(CASE, "case", KF_BOUND) X(CAST, "cast", 0)          \
  X(CHAR, "char", KF_PG_FUNC) X(CHARACTER, "character", KF_PG_FUNC)           \
  X(COALESCE, "coalesce", KF_PG_FUNC) X(COLLATE, "collate", KF_NEST)                 \
  X(COLLATION, "collation", KF_PG_RESERVED) \
  X(CONCURRENTLY, "concurrently", KF_PG_RESERVED) X(CROSS, "cross", KF_NOT_ALIAS) \
  X(CURRENT_CATALOG, "current_catalog", KF_PG_RESERVED)                       \
  X(CURRENT_ROLE, "current_role", KF_PG_RESERVED)                             \
  X(CURRENT_SCHEMA, "current_schema", KF_PG_RESERVED)                         \
  X(CURRENT_USER, "current_user", KF_PG_RESERVED) X(DEC, "dec", KF_PG_FUNC)   \
  X(DECIMAL, "decimal", KF_PG_FUNC) X(DISTINCT, "distinct", 0)                \
  X(DOCUMENT, "document", 0) X(ELSE, "else", KF_BOUND | KF_RESET) X(END, "end", KF_BOUND) \
  X(ESCAPE, "escape", KF_BOUND | KF_NEST)                                     \
  X(EXCEPT, "except", KF_FROM_END | KF_NOT_ALIAS) X(EXISTS, "exists", KF_NEST) \
  X(FALSE, "false", 0) X(FETCH, "fetch", KF_PG_RESERVED)                      \
  X(FLOAT, "float", KF_PG_FUNC) X(FREEZE, "freeze", KF_PG_RESERVED)           \
  X(FROM, "from", KF_BOUND | KF_RESET) X(FULL, "full", KF_NOT_ALIAS)                     \
  X(GLOB, "glob", KF_BOUND | KF_NEST) X(GRANT, "grant", KF_PG_RESERVED)                 \
  X(GREATEST, "greatest", KF_PG_FUNC)                                         \
  X(GROUP, "group", KF_FROM_END | KF_NOT_ALIAS | KF_RESET)                               \
  X(HAVING, "having", KF_FROM_END | KF_NOT_ALIAS | KF_BOUND | KF_RESET)        \
  X(IN, "in", KF_BOUND | KF_NEST) \
  X(INDEXED, "indexed", KF_NOT_ALIAS) X(INNER, "inner", KF_NOT_ALIAS)         \
  X(INT, "int", KF_PG_FUNC) X(INTEGER, "integer", KF_PG_FUNC)                 \
  X(INTERSECT, "intersect", KF_FROM_END | KF_NOT_ALIAS) X(IS, "is", KF_BOUND | KF_NEST) \
  X(ISNULL, "isnull", KF_NEST) \
  X(JOIN, "join", KF_NOT_ALIAS) X(JSON, "json", 0)                            \
  X(LATERAL, "lateral", KF_PG_RESERVED) X(LEADING, "leading", KF_PG_RESERVED) \
  X(LEAST, "least", KF_PG_FUNC) X(LEFT, "left", KF_NOT_ALIAS)                 \
  X(LIKE, "like", KF_BOUND | KF_NEST)                                         \
  X(LIMIT, "limit", KF_FROM_END | KF_NOT_ALIAS | KF_BOUND | KF_RESET) \
  X(LOCALTIME, "localtime", KF_PG_RESERVED)                                   \
  X(LOCALTIMESTAMP, "localtimestamp", KF_PG_RESERVED) X(MATCH, "match", KF_BOUND | KF_NEST) \
  X(NATIONAL, "national", KF_PG_FUNC) X(NATURAL, "natural", KF_NOT_ALIAS)     \
  X(NCHAR, "nchar", KF_PG_FUNC) X(NORMALIZED, "normalized", 0)                \
  X(NOT, "not", KF_NOT_ALIAS | KF_BOUND | KF_NEST)                            \
  X(NOTNULL, "notnull", KF_NEST) X(NULL_, "null", 0)                  \
  X(NULLIF, "nullif", KF_PG_FUNC) X(NUMERIC, "numeric", KF_PG_FUNC)           \
  X(OF, "of", 0) X(OFFSET, "offset", KF_FROM_END | KF_NOT_ALIAS | KF_BOUND | KF_RESET)   \
  X(ON, "on", KF_NOT_ALIAS | KF_BOUND | KF_RESET) X(ONLY, "only", KF_PG_RESERVED)        \
  X(OR, "or", KF_BOUND) X(ORDER, "order", KF_FROM_END | KF_NOT_ALIAS | KF_RESET)         \
  X(OUTER, "outer", KF_NOT_ALIAS) X(OVERLAPS, "overlaps", KF_PG_RESERVED)     \
  X(PLACING, "placing", KF_PG_RESERVED) X(REAL, "real", KF_PG_FUNC)           \
  X(REGEXP, "regexp", KF_BOUND | KF_NEST)                                               \
  X(RETURNING, "returning", KF_FROM_END | KF_NOT_ALIAS)                       \
  X(RIGHT, "right", KF_NOT_ALIAS) X(SELECT, "select", KF_BOUND | KF_RESET)               \
  X(SESSION_USER, "session_user", KF_PG_RESERVED) X(SET, "set", KF_BOUND)     \
  X(SMALLINT, "smallint", KF_PG_FUNC) X(SOME, "some", KF_PG_RESERVED)        \
  X(SUBSTRING, "substring", KF_PG_FUNC)                                       \
  X(SYMMETRIC, "symmetric", KF_PG_RESERVED)                                   \
  X(TABLESAMPLE, "tablesample", KF_PG_RESERVED) X(THEN, "then", KF_BOUND | KF_RESET)     \
  X(TIME, "time", KF_PG_FUNC) X(TIMESTAMP, "timestamp", KF_PG_FUNC)           \
  X(TRAILING, "trailing", KF_PG_RESERVED) X(TRIM, "trim", KF_PG_FUNC)         \
  X(TRUE, "true", 0) X(UNION, "union", KF_FROM_END | KF_NOT_ALIAS)            \
  X(UNKNOWN, "unknown", 0) X(USER, "user", KF_PG_RESERVED)                    \
  X(USING, "using", KF_NOT_ALIAS) X(VALUES, "values", KF_BOUND | KF_RESET)               \
  X(VARCHAR, "varchar", KF_PG_FUNC) X(VARIADIC, "variadic", KF_PG_RESERVED)   \
  X(VERBOSE, "verbose", KF_PG_RESERVED) X(WHEN, "when", KF_BOUND | KF_RESET)             \
  X(WHERE, "where", KF_FROM_END | KF_NOT_ALIAS | KF_BOUND | KF_RESET)                    \
  X(WINDOW, "window", KF_FROM_END | KF_NOT_ALIAS | KF_RESET) X(WITH, "with", KF_RESET)

enum {
  KW_NONE,
#define X(id, name, flags) KW_##id,
  FE_KEYWORDS(X)
#undef X
  KW__COUNT
};

/* Each keyword's KF_* flags, by KW_* id (lexer.c). */
extern const unsigned fe_kw_flags[KW__COUNT];

/* Is token i the keyword kw? */
static inline int tok_is(const fe_result *r, int i, int kw) {
  return i >= 0 && i < r->ntoks && r->toks[i].type == FT_WORD && r->toks[i].kw == kw;
}

/* Is token i a keyword with one of the flags? */
static inline int tok_in(const fe_result *r, int i, unsigned flags) {
  return i >= 0 && i < r->ntoks && r->toks[i].type == FT_WORD && r->toks[i].kw && (fe_kw_flags[r->toks[i].kw] & flags);
}

/* Is token i the operator op? */
static inline int tok_op(const fe_result *r, int i, const char *op) {
  if (i < 0 || i >= r->ntoks || r->toks[i].type != FT_OP) return 0;
  int l = (int)strlen(op); /* op is a literal: folded where this is inlined */
  return r->toks[i].len == l && !memcmp(r->orig + r->toks[i].start, op, (size_t)l);
}

/* Index of the previous token before i that is not white space or a comment, or -1. */
static inline int prev_sig(const fe_result *r, int i) {
  for (i--; i >= 0; i--)
    if (r->toks[i].type != FT_WS && r->toks[i].type != FT_COMMENT) return i;
  return -1;
}

/* Index of the ')' matching the '(' at i, or ntoks. */
static inline int match_paren(const fe_result *r, int i) { return r->match[i]; }

#endif
