/* translate.c -- the front end's rewrite planner: SQLite/MySQL SQL as models
 * write it, turned into text PostgreSQL's parser (libpg_query) accepts, with
 * an offset map back.
 *
 * On the tokens of lexer.c, rewrites are planned per token (replace it, drop
 * it, add text after it, or move it, for LIMIT a, b) and emitted in one pass
 * that records, for every emitted piece,
 * which original byte it came from. Errors anywhere later (libpg_query's
 * cursor, node locations) are mapped back through fe_map(), so every position
 * a user sees is in the text the user wrote.
 *
 * Rewrites, each for a form SQLite accepts and PostgreSQL does not:
 *   `x` and [x] -> "x";  == -> =;  LIMIT a, b -> LIMIT b OFFSET a;
 *   (SELECT ..) in FROM without alias -> gets alias "#sqlsim_sqN";
 *   JOIN without ON/USING -> CROSS JOIN (LEFT/RIGHT/FULL: ON TRUE);
 *   a = b = c -> (a = b) = c;
 *   a IS b / a IS NOT b (b not NULL/TRUE/FALSE) -> IS [NOT] DISTINCT FROM;
 *   x NOT NULL -> x IS NOT NULL;  GLOB/REGEXP -> operators ~#, ~## (and !~#..);
 *   parameters ?, ?N, :name, @name, $name -> $1, $2, ...;
 *   AS 'name' -> AS "name";  0x1F -> 31;  "" -> '';  identifiers over 63 bytes -> placeholders;
 *   words PostgreSQL reserves but SQLite reads as names (user, both...) -> "..";
 *   PostgreSQL keywords with special call syntax used as plain SQLite
 *   functions (time(..), char(..), trim(..), coalesce(..)) -> quoted names. */
#include "lexer.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct plan {
  int *opens;         /* per token: '(' emitted before it (a = b = c) */
  const char **repl;  /* per token: replacement text, "" drops it, NULL keeps */
  int *closes;        /* per token: ')' emitted after it (a = b = c) */
  const char **after; /* per token: text emitted after it, after those ')' */
  int *order;         /* emission order of token indices */
} plan;

/* ---------------------------------------------------------------- planning */

static char *quoted_copy(sqlsim_arena *a, const char *text) {
  strbuf sb = {0};
  sb_ident(&sb, text);
  char *s = sqlsim_arena_strdup(a, sb.buf);
  sb_free(&sb);
  return s;
}

static void add_longid(sqlsim_arena *a, fe_result *r, int i, const char *text, plan *p) {
  int n = r->nlongids;
  const char **ids = sqlsim_arena_alloc(a, sizeof *ids * (size_t)(n + 1));
  char *q = sqlsim_arena_alloc(a, (size_t)n + 1);
  if (n) {
    memcpy(ids, r->longids, sizeof *ids * (size_t)n);
    memcpy(q, r->longquote, (size_t)n);
  }
  ids[n] = text;
  q[n] = r->toks[i].type == FT_QUOTED ? r->toks[i].quote : 0;
  r->longids = ids;
  r->longquote = q;
  r->nlongids = n + 1;
  p->repl[i] = sqlsim_arena_printf(a, "\"" FE_LONGID "%d\"", n);
}

/* End of a FROM item starting at token i (a name, or a parenthesized group,
 * with its alias): returns the index of its last token. */
static int from_item_end(const fe_result *r, int i) {
  int last = i;
  if (r->toks[i].type == FT_LPAREN) {
    last = match_paren(r, i);
  } else {
    int j = i;
    while (fe_next_sig(r, j) < r->ntoks && r->toks[fe_next_sig(r, j)].type == FT_DOT)
      j = fe_next_sig(r, fe_next_sig(r, j));
    last = j;
    int k = fe_next_sig(r, last);
    if (k < r->ntoks && r->toks[k].type == FT_LPAREN) last = match_paren(r, k);
  }
  int k = fe_next_sig(r, last);
  if (tok_is(r, k, KW_AS)) return fe_next_sig(r, k);
  if (k < r->ntoks && ((r->toks[k].type == FT_WORD && !tok_in(r, k, KF_NOT_ALIAS)) ||
                       r->toks[k].type == FT_QUOTED || r->toks[k].type == FT_STRING))
    return k;
  return last;
}

static void append(sqlsim_arena *a, const char **slot, const char *text) {
  *slot = *slot ? sqlsim_arena_printf(a, "%s%s", *slot, text) : text;
}

/* SQLite class of a comparison operator token: 1 for = == <> !=, 2 for
 * < <= > >=, 0 otherwise. */
static int cmp_class(const fe_result *r, int i) {
  if (i < 0 || i >= r->ntoks || r->toks[i].type != FT_OP) return 0;
  const char *s = r->orig + r->toks[i].start;
  int len = r->toks[i].len;
  if (len == 3) return s[0] == '<' && s[1] == '=' && s[2] == '>'; /* MySQL's <=>, on the level of = */
  if (s[0] == '=' || (len == 2 && ((s[0] == '<' && s[1] == '>') || (s[0] == '!' && s[1] == '='))))
    return 1;
  if ((s[0] == '<' || s[0] == '>') && (len == 1 || s[1] == '=')) return 2;
  return 0;
}

/* Comparison runs. SQLite's comparisons associate to the left and come in
 * two precedence levels, < <= > >= above = == <> !=: a = b = c is
 * (a = b) = c, and a = b < c is a = (b < c). PostgreSQL's comparisons share
 * one level and do not associate, so the front end writes SQLite's grouping
 * out: the left part of every run of one level in parentheses, and a run of
 * the upper level that is an operand of the lower one in parentheses.
 *
 * Per parenthesis depth: s1/n1 the first token and operator count of the
 * current run of = operators, s2/n2 those of the current run of < operators
 * (the = run's current operand), and whether an operand has just ended. A
 * comma, a keyword that ends an operand list, a word or literal right after
 * an operand (an alias, DESC), or the end of the group ends the run. A
 * parenthesized operand, (x) or f(x), is one operand of the run around it.
 * Linear at any depth. */
typedef struct chain_level {
  int s1, n1, s2, n2;
  int after; /* an operand has just ended */
  int dead;  /* two operands side by side (an alias, DESC, or no SQL at all): the
              * rest of the run is left to PostgreSQL as written, since a '('
              * opened after a word would make it a call (ROW ($1 < 2)) */
} chain_level;

static const chain_level chain_none = {-1, 0, -1, 0, 0, 0};

static void chain_wrap(plan *p, int from, int to) {
  p->opens[from]++;
  p->closes[to]++;
}

static void chain_end(plan *p, chain_level *l, int last) {
  if (l->n1 > 0 && l->n2 > 0 && last >= l->s2) chain_wrap(p, l->s2, last); /* a = b < c */
  *l = chain_none;
}

static int rel_keyword(const fe_result *r, int i) {
  return tok_is(r, i, KW_LIKE) || tok_is(r, i, KW_GLOB) || tok_is(r, i, KW_REGEXP) || tok_is(r, i, KW_MATCH) ||
         tok_is(r, i, KW_IN) || tok_is(r, i, KW_BETWEEN);
}

static void chain_operand(chain_level *l, int i) {
  if (l->dead) return;
  if (l->s1 < 0) l->s1 = i;
  if (l->s2 < 0) l->s2 = i;
}

/* MySQL's || (without PIPES_AS_CONCAT) and &&: OR and AND, which end a run
 * of comparisons as the words do. */
static int mysql_logical(const fe_result *r, int i) {
  if ((r->dialect & FE_DIALECT) != FE_MYSQL) return 0;
  return tok_op(r, i, "&&") || (tok_op(r, i, "||") && !(r->dialect & FE_PIPES_CONCAT));
}

static void plan_comparison_chains(sqlsim_arena *a, fe_result *r, plan *p) {
  int maxd = 0;
  for (int i = 0; i < r->ntoks; i++)
    if (r->toks[i].depth > maxd) maxd = r->toks[i].depth;
  chain_level *lv = arena_alloc_raw(a, sizeof *lv * (size_t)(maxd + 2));
  for (int d = 0; d < maxd + 2; d++) lv[d] = chain_none;
  int last = -1; /* the last significant token */
  int skip = -1;
  for (int i = 0; i < r->ntoks; i++) {
    const fe_tok *t = &r->toks[i];
    if (t->type == FT_WS || t->type == FT_COMMENT) continue;
    int d = t->depth < 0 ? 0 : t->depth;
    chain_level *l = &lv[d];
    if (i == skip) { /* the LIKE of NOT LIKE: the operator is already counted */
      last = i;
      continue;
    }
    int c = cmp_class(r, i);
    /* SQLite puts LIKE, GLOB, REGEXP, MATCH, IN and BETWEEN (and their NOT
     * forms) on the level of =; PostgreSQL puts them above < */
    /* ... when they stand where an operator can (a table named match can not) */
    if (!c && l->after && rel_keyword(r, i)) c = 1;
    if (!c && l->after && tok_is(r, i, KW_NOT) && rel_keyword(r, fe_next_sig(r, i))) {
      c = 1;
      skip = fe_next_sig(r, i);
    }
    if (t->type == FT_RPAREN) { /* ends the group inside; the operand it closes goes on */
      chain_end(p, &lv[d + 1], last);
      l->after = 1;
    } else if (!c && (t->type == FT_COMMA || t->type == FT_SEMI || mysql_logical(r, i) ||
                      tok_in(r, i, KF_BOUND | KF_FROM_END | KF_NOT_ALIAS | KF_RESET) || tok_is(r, i, KW_AS))) {
      chain_end(p, l, last);
    } else if (c && l->dead) {
      l->after = 0;
    } else if (c == 2) {
      if (l->n2 > 0) chain_wrap(p, l->s2, last); /* (a < b) < c */
      l->n2++;
      l->after = 0;
    } else if (c == 1) {
      if (l->n2 > 0) chain_wrap(p, l->s2, last); /* (a < b) = c */
      if (l->n1 > 0) chain_wrap(p, l->s1, last); /* (a = b) = c */
      l->n1++;
      l->s2 = -1, l->n2 = 0;
      l->after = 0;
    } else if (t->type == FT_OP || t->type == FT_DOT || tok_is(r, i, KW_COLLATE)) {
      chain_operand(l, i); /* a prefix operator starts an operand; the others continue one */
      l->after = 0;
    } else if (t->type == FT_LPAREN) { /* a group, or a call's arguments */
      chain_operand(l, i);
      lv[d + 1] = chain_none;
    } else {
      if (l->after) {
        chain_end(p, l, last);
        l->dead = 1;
      }
      chain_operand(l, i);
      l->after = 1;
    }
    last = i;
  }
  for (int d = 0; d < maxd + 2; d++) chain_end(p, &lv[d], last);
}

/* Operator precedence where the two grammars differ. SQLite binds ||, ->
 * and ->> tighter than * and +, and a prefix ~ tighter than any binary
 * operator; PostgreSQL reads all of them as its generic operators, below +
 * and -. So '1' || 2 + 3 is ('1' || 2) + 3 in SQLite and '1' || (2 + 3) in
 * PostgreSQL, and ~1 + 1 is (~1) + 1 against ~(1 + 1). The front end puts
 * each run of || operands, and each ~ with its operand, in parentheses.
 * An operand here is what SQLite binds tighter than ||: prefix - + ~, then
 * a literal, a name (a.b), a call f(..), a group (..) or CASE .. END, then
 * COLLATE suffixes. Linear: each operand is found from its ends. */
typedef struct atom_maps {
  int *open_of; /* per ')': its '(' (-1 if none) */
  int *case_of; /* per END: its CASE; per CASE: its END (-1 if none) */
} atom_maps;

static int is_operand_end(const fe_result *r, int i) {
  if (i < 0 || i >= r->ntoks) return 0;
  switch (r->toks[i].type) {
  case FT_RPAREN: case FT_QUOTED: case FT_STRING: case FT_NUMBER: case FT_BLOB: case FT_HEX: case FT_PARAM:
    return 1;
  case FT_WORD:
    return !r->toks[i].kw || tok_is(r, i, KW_NULL_) || tok_is(r, i, KW_TRUE) || tok_is(r, i, KW_FALSE) ||
           tok_is(r, i, KW_END) || tok_in(r, i, KF_PG_RESERVED | KF_PG_FUNC); /* int, time: names or types */
  default:
    return 0;
  }
}

static int is_literal(const fe_result *r, int i) {
  if (i < 0 || i >= r->ntoks) return 0;
  int t = r->toks[i].type;
  return t == FT_STRING || t == FT_NUMBER || t == FT_BLOB || t == FT_HEX || t == FT_PARAM || tok_is(r, i, KW_NULL_) ||
         tok_is(r, i, KW_TRUE) || tok_is(r, i, KW_FALSE);
}

static int is_prefix_op(const fe_result *r, int i) {
  return (tok_op(r, i, "-") || tok_op(r, i, "+") || tok_op(r, i, "~")) && !is_operand_end(r, prev_sig(r, i));
}

static int is_name(const fe_result *r, int i) {
  return i >= 0 && i < r->ntoks && (r->toks[i].type == FT_QUOTED || (r->toks[i].type == FT_WORD && !tok_in(r, i, KF_BOUND | KF_FROM_END | KF_NOT_ALIAS | KF_RESET)));
}

/* The last token of the operand that starts at i, or -1. */
static int operand_end(const fe_result *r, const atom_maps *m, int i) {
  int n = r->ntoks;
  while (i < n && is_prefix_op(r, i)) i = fe_next_sig(r, i);
  if (i >= n) return -1;
  int e;
  const fe_tok *t = &r->toks[i];
  if (t->type == FT_LPAREN) {
    e = r->match[i] < n ? r->match[i] : -1;
  } else if (tok_is(r, i, KW_CASE)) {
    e = m->case_of[i];
  } else if (is_name(r, i)) {
    e = i;
    while (fe_next_sig(r, e) < n && r->toks[fe_next_sig(r, e)].type == FT_DOT && is_name(r, fe_next_sig(r, fe_next_sig(r, e))))
      e = fe_next_sig(r, fe_next_sig(r, e));
    int k = fe_next_sig(r, e);
    if (k < n && r->toks[k].type == FT_LPAREN) e = r->match[k] < n ? r->match[k] : -1;
  } else if (is_literal(r, i)) {
    e = i;
  } else {
    return -1;
  }
  while (e >= 0 && tok_is(r, fe_next_sig(r, e), KW_COLLATE) && fe_next_sig(r, fe_next_sig(r, e)) < n) {
    int k = fe_next_sig(r, fe_next_sig(r, e));
    if (r->toks[k].type != FT_WORD && r->toks[k].type != FT_QUOTED && r->toks[k].type != FT_STRING) break;
    e = k;
  }
  return e;
}

/* The first token of the operand that ends at j, or -1. */
static int operand_start(const fe_result *r, const atom_maps *m, int j) {
  int k = j;
  while (k >= 0 && (r->toks[k].type == FT_WORD || r->toks[k].type == FT_QUOTED || r->toks[k].type == FT_STRING) &&
         tok_is(r, prev_sig(r, k), KW_COLLATE))
    k = prev_sig(r, prev_sig(r, k));
  if (k < 0) return -1;
  const fe_tok *t = &r->toks[k];
  if (t->type == FT_RPAREN) {
    k = m->open_of[k];
    if (k < 0) return -1;
    int pv = prev_sig(r, k);
    if (is_name(r, pv)) k = pv; /* a call */
    else if (tok_in(r, pv, ~0u)) return -1; /* x IN (..): the list is not an operand */
    else goto prefix;           /* a group: +(x) || y is (+(x)) || y */
  } else if (tok_is(r, k, KW_END)) {
    return m->case_of[k] < 0 ? -1 : m->case_of[k];
  } else if (!is_name(r, k) && !is_literal(r, k)) {
    return -1;
  }
  while (prev_sig(r, k) >= 0 && r->toks[prev_sig(r, k)].type == FT_DOT && is_name(r, prev_sig(r, prev_sig(r, k))))
    k = prev_sig(r, prev_sig(r, k));
prefix:
  while (prev_sig(r, k) >= 0 && is_prefix_op(r, prev_sig(r, k))) k = prev_sig(r, k);
  return k;
}

/* || concatenates (and binds tightest) in SQLite, and in MySQL only under
 * PIPES_AS_CONCAT: else it is MySQL's OR (plan_mysql). */
static int concat_op(const fe_result *r, int i) {
  return tok_op(r, i, "||") && ((r->dialect & FE_DIALECT) != FE_MYSQL || (r->dialect & FE_PIPES_CONCAT));
}

static int concat_or_bitnot(const fe_result *r, int i) {
  return concat_op(r, i) || tok_op(r, i, "->") || tok_op(r, i, "->>") || tok_op(r, i, "~");
}

static void plan_sqlite_precedence(sqlsim_arena *a, fe_result *r, plan *p) {
  int n = r->ntoks, any = 0;
  for (int i = 0; i < n && !any; i++) any = concat_or_bitnot(r, i);
  if (!any) return; /* most queries: nothing to group, nothing to allocate */
  atom_maps m;
  m.open_of = arena_alloc_raw(a, sizeof *m.open_of * (size_t)(n + 1));
  m.case_of = arena_alloc_raw(a, sizeof *m.case_of * (size_t)(n + 1));
  int *stack = arena_alloc_raw(a, sizeof *stack * (size_t)(n + 1));
  int top = 0;
  for (int i = 0; i < n; i++) m.open_of[i] = m.case_of[i] = -1;
  for (int i = 0; i < n; i++)
    if (r->toks[i].type == FT_LPAREN && r->match[i] < n) m.open_of[r->match[i]] = i;
  for (int i = 0; i < n; i++) { /* CASE .. END pairs, within their parentheses */
    if (tok_is(r, i, KW_CASE)) {
      stack[top++] = i;
    } else if (tok_is(r, i, KW_END) && top > 0 && r->toks[stack[top - 1]].depth == r->toks[i].depth) {
      int c = stack[--top];
      m.case_of[i] = c;
      m.case_of[c] = i;
    }
  }
  /* The runs of || operands still open, innermost last: a run is a chain
   * of operands at one level (its operator's left operand is the run's last
   * one); an operator inside one of its operands (a group, a call, a CASE)
   * starts a run of its own, nested in it. A run ends when an operator's
   * left operand lies outside it. */
  typedef struct run {
    int start, end, last; /* first token, last token, first token of its last operand */
    int bare;             /* not put in parentheses (below) */
  } run;
  run *runs = arena_alloc_raw(a, sizeof *runs * (size_t)(n + 1));
  int nruns = 0;
  for (int i = 0; i < n; i++) {
    if (r->toks[i].type != FT_OP) continue;
    if (tok_op(r, i, "~") && is_prefix_op(r, i)) {
      int e = operand_end(r, &m, i);
      if (e >= 0) {
        p->opens[i]++;
        p->closes[e]++;
      }
      continue;
    }
    if (!concat_op(r, i) && !tok_op(r, i, "->") && !tok_op(r, i, "->>")) continue;
    int L = operand_start(r, &m, prev_sig(r, i)), Rs = fe_next_sig(r, i), R = operand_end(r, &m, Rs);
    if (L < 0 || R < 0) continue;
    while (nruns && (L < runs[nruns - 1].start || L > runs[nruns - 1].end)) { /* ended */
      nruns--;
      if (!runs[nruns].bare) p->opens[runs[nruns].start]++, p->closes[runs[nruns].end]++;
    }
    if (nruns && runs[nruns - 1].last == L) { /* the chain goes on */
      runs[nruns - 1].end = R;
      runs[nruns - 1].last = Rs;
    } else { /* a run of its own, inside an operand of the one before. One that
              * follows another operand directly (ROW ?1 || 2, f 'a' || 'b': two
              * operands side by side, which SQLite reads as no expression) is left
              * to PostgreSQL as written: a '(' there would make the word before
              * it a call or a row constructor, and the text something it is not */
      runs[nruns++] = (run){L, R, Rs, is_operand_end(r, prev_sig(r, L))};
    }
  }
  while (nruns) {
    nruns--;
    if (!runs[nruns].bare) p->opens[runs[nruns].start]++, p->closes[runs[nruns].end]++;
  }
}

/* Is a type word between pv and nx part of a type name: after AS, ::, CAST
 * or another word of a type (double precision, timestamp with time zone),
 * before one, or before a string (a typed literal, TIME '12:00')? */
int fe_ends_select_list(const fe_result *r, int i) { return tok_is(r, i, KW_FROM) || tok_in(r, i, KF_FROM_END); }

int fe_word_in(const fe_result *r, int i, const char *const *words) {
  if (i < 0 || i >= r->ntoks || r->toks[i].type != FT_WORD) return 0;
  size_t len = (size_t)r->toks[i].len;
  for (; *words; words++)
    if (strlen(*words) == len && !strncasecmp(r->orig + r->toks[i].start, *words, len)) return 1;
  return 0;
}

static int type_word(const fe_result *r, int i) {
  static const char *const words[] = {"with", "without", "time", "zone", "double", "precision", "varying",
                                      "national", "unsigned", "big", "long", NULL};
  return tok_in(r, i, KF_PG_FUNC) || fe_word_in(r, i, words);
}

static int in_type_name(const fe_result *r, int pv, int nx) {
  return tok_is(r, pv, KW_AS) || tok_op(r, pv, "::") || tok_is(r, pv, KW_CAST) || type_word(r, pv) ||
         (pv >= 0 && r->toks[pv].type == FT_DOT) || type_word(r, nx) ||
         (nx < r->ntoks && r->toks[nx].type == FT_STRING);
}

/* Token i is the ANY (or SOME) of `x = ANY (SELECT ..)`: PostgreSQL's form
 * of IN, which models trained on it write and which is read as IN. pv and nx
 * are the tokens around it. Anywhere else ANY and SOME are SQLite names. */
static int any_subquery(const fe_result *r, int i, int pv, int nx) {
  static const char *const cmp[] = {"=", "==", "<>", "!=", "<", "<=", ">", ">="};
  if (!tok_is(r, i, KW_ANY) && !tok_is(r, i, KW_SOME)) return 0;
  int is_cmp = 0;
  for (size_t k = 0; k < sizeof cmp / sizeof *cmp && !is_cmp; k++) is_cmp = tok_op(r, pv, cmp[k]);
  if (!is_cmp || nx >= r->ntoks || r->toks[nx].type != FT_LPAREN) return 0;
  int in = fe_next_sig(r, nx);
  return tok_is(r, in, KW_SELECT) || tok_is(r, in, KW_WITH) || tok_is(r, in, KW_VALUES);
}

/* LIMIT a, b -> LIMIT b OFFSET a: the tokens of a and b swapped in the
 * emission order, for the LIMIT at token i (nx: the token after it). */
static void plan_limit(sqlsim_arena *a, fe_result *r, plan *p, int i, int nx) {
  int n = r->ntoks;
  const fe_tok *t = &r->toks[i];
  int j = nx, comma = -1;
  for (; j < n; j++) {
    const fe_tok *u = &r->toks[j];
    if (u->type == FT_LPAREN && u->depth == t->depth && r->match[j] < n) {
      j = r->match[j] - 1; /* over the group: its ')' ends the scan next */
      continue;
    }
    if (u->depth < t->depth || (u->depth == t->depth && u->type == FT_RPAREN)) break;
    if (u->depth == t->depth && (u->type == FT_SEMI)) break;
    if (u->depth == t->depth && u->type == FT_WORD &&
        (tok_is(r, j, KW_OFFSET) || tok_in(r, j, KF_FROM_END)))
      break;
    if (u->depth == t->depth && u->type == FT_COMMA) {
      if (comma >= 0) break;
      comma = j;
    }
  }
  /* The tokens it moves must not have been moved already: an earlier
   * LIMIT's range can hold this one where a '(' is never closed, and
   * two moves of one token would emit it twice (past the text's
   * counted length). Such a text is left to PostgreSQL to refuse. */
  for (int x = i + 1; comma > 0 && x < j; x++)
    if (p->order[x] != x) comma = -1;
  if (comma > 0) {
    int end = j; /* exclusive */
    /* order: LIMIT, ws, [comma+1 .. end), " OFFSET ", [nx .. comma) */
    int *o = p->order;
    int k = i + 1, w = i + 1;
    int tmp_n = end - (i + 1);
    int *tmp = malloc(sizeof(int) * (size_t)(tmp_n > 0 ? tmp_n : 1));
    int m = 0;
    for (int x = i + 1; x < nx; x++) tmp[m++] = x;
    for (int x = comma + 1; x < end; x++) tmp[m++] = x;
    int last_b = m - 1;
    for (int x = nx; x < comma; x++) tmp[m++] = x;
    tmp[m++] = comma; /* emitted as nothing */
    for (k = 0; k < m; k++) o[w + k] = tmp[k];
    if (last_b >= 0) append(a, &p->after[tmp[last_b]], " OFFSET ");
    p->repl[comma] = "";
    free(tmp);
  }
}

/* The rewrites that start at a word: a long identifier, LIMIT a, b, a JOIN
 * without a condition, IS / IS NOT between values, postfix NOT NULL, GLOB
 * and REGEXP, PostgreSQL's reserved words and special-syntax functions used
 * as SQLite names. in_from: per depth, whether a FROM clause is open. */
static void plan_word(sqlsim_arena *a, fe_result *r, plan *p, int i, char *in_from) {
  int n = r->ntoks;
  fe_tok *t = &r->toks[i];
  int d = t->depth < 255 ? t->depth : 255;
  if (t->len > 63) {
    add_longid(a, r, i, core_fold_dup(a, r->orig + t->start, (size_t)t->len), p);
    return;
  }
  if (!t->kw) return; /* every rewrite below starts at a keyword */
  int nx = fe_next_sig(r, i), pv = prev_sig(r, i);
  if (tok_is(r, i, KW_FROM)) {
    in_from[d] = 1;
  } else if (tok_in(r, i, KF_FROM_END)) {
    in_from[d] = 0;
  }
  if (tok_is(r, i, KW_LIMIT)) {
    plan_limit(a, r, p, i, nx);
  } else if (tok_is(r, i, KW_JOIN)) {
    int kind = pv; /* the word before LEFT, RIGHT, FULL, INNER (OUTER): NATURAL, or not */
    if (tok_is(r, kind, KW_OUTER)) kind = prev_sig(r, kind);
    if (tok_is(r, kind, KW_LEFT) || tok_is(r, kind, KW_RIGHT) || tok_is(r, kind, KW_FULL) || tok_is(r, kind, KW_INNER))
      kind = prev_sig(r, kind);
    int natural = tok_is(r, kind, KW_NATURAL);
    int last = nx < n ? from_item_end(r, nx) : -1;
    int k = last >= 0 ? fe_next_sig(r, last) : -1;
    int cond = tok_is(r, k, KW_ON) || tok_is(r, k, KW_USING);
    if (tok_is(r, pv, KW_CROSS) && cond) {
      /* CROSS JOIN t ON c: SQLite's inner join on c (PostgreSQL's CROSS takes no condition) */
      p->repl[pv] = "";
    } else if (!tok_is(r, pv, KW_CROSS) && !natural && nx < n) {
      if (!cond) {
        int q = pv;
        if (tok_is(r, q, KW_OUTER)) q = prev_sig(r, q);
        if (tok_is(r, q, KW_LEFT) || tok_is(r, q, KW_RIGHT) || tok_is(r, q, KW_FULL)) {
          append(a, &p->after[last], " ON TRUE");
        } else {
          p->repl[i] = "CROSS JOIN";
          if (tok_is(r, pv, KW_INNER)) p->repl[pv] = "";
        }
      }
    }
  } else if (tok_is(r, i, KW_IS)) {
    int k = nx;
    int negated = tok_is(r, k, KW_NOT);
    if (negated) k = fe_next_sig(r, k);
    if (!tok_is(r, k, KW_NULL_) && !tok_is(r, k, KW_TRUE) && !tok_is(r, k, KW_FALSE) &&
        !tok_is(r, k, KW_UNKNOWN) && !tok_is(r, k, KW_DISTINCT) && !tok_is(r, k, KW_OF) &&
        !tok_is(r, k, KW_JSON) && !tok_is(r, k, KW_DOCUMENT) && !tok_is(r, k, KW_NORMALIZED)) {
      if (negated) {
        p->repl[i] = "IS DISTINCT FROM";
        p->repl[nx] = "";
      } else {
        p->repl[i] = "IS NOT DISTINCT FROM";
      }
    }
  } else if (tok_is(r, i, KW_NOT) && tok_is(r, nx, KW_NULL_) && pv >= 0 &&
             !tok_is(r, pv, KW_IS) &&
             (r->toks[pv].type == FT_RPAREN || r->toks[pv].type == FT_QUOTED ||
              r->toks[pv].type == FT_NUMBER || r->toks[pv].type == FT_STRING ||
              (r->toks[pv].type == FT_WORD && !tok_in(r, pv, KF_NOT_ALIAS) &&
               !tok_is(r, pv, KW_SELECT) && !tok_is(r, pv, KW_AND) &&
               !tok_is(r, pv, KW_OR) && !tok_is(r, pv, KW_THEN) && !tok_is(r, pv, KW_ELSE) &&
               !tok_is(r, pv, KW_WHEN) && !tok_is(r, pv, KW_CASE)))) {
    /* Postfix "x NOT NULL"; a column definition never reaches here. */
    p->repl[i] = "IS NOT";
  } else if ((tok_is(r, i, KW_GLOB) || tok_is(r, i, KW_REGEXP)) &&
             !(nx < n && r->toks[nx].type == FT_LPAREN &&
               (pv < 0 || r->toks[pv].type == FT_LPAREN || r->toks[pv].type == FT_COMMA ||
                r->toks[pv].type == FT_OP || tok_is(r, pv, KW_SELECT)))) {
    /* spaced: an operator touching `~x` would read as one (~~#) */
    int glob = tok_is(r, i, KW_GLOB);
    if (tok_is(r, pv, KW_NOT)) {
      p->repl[pv] = "";
      p->repl[i] = glob ? " !~# " : " !~## ";
    } else {
      p->repl[i] = glob ? " ~# " : " ~## ";
    }
  } else if (tok_in(r, i, KF_PG_RESERVED) && !tok_is(r, pv, KW_AS) &&
             !(pv >= 0 && r->toks[pv].type == FT_DOT) && !any_subquery(r, i, pv, nx)) {
    p->repl[i] = quoted_copy(a, core_fold_dup(a, r->orig + t->start, (size_t)t->len));
  } else if (nx < n && r->toks[nx].type == FT_LPAREN && tok_in(r, i, KF_PG_FUNC) &&
             !tok_is(r, pv, KW_AS) && !tok_op(r, pv, "::") && !tok_is(r, pv, KW_CAST)) {
    /* time(x), char(65), trim(x, 'y'): a plain function call in SQLite. Not
     * VALUES (..) rows, and not a type right after AS or ::. */
    if (!tok_is(r, i, KW_VALUES))
      p->repl[i] = quoted_copy(a, core_fold_dup(a, r->orig + t->start, (size_t)t->len));
  } else if (tok_in(r, i, KF_PG_FUNC) && !(nx < n && r->toks[nx].type == FT_LPAREN) && !in_type_name(r, pv, nx)) {
    /* int, time, real as a column name (SQLite has no such keywords):
     * PostgreSQL starts a typed literal at them (`int ~ x` fails) */
    p->repl[i] = quoted_copy(a, core_fold_dup(a, r->orig + t->start, (size_t)t->len));
  }
}

/* ---------------------------------------------------------------- MySQL */

/* MySQL's string at token i (backslash escapes, or in double quotes) as a
 * PostgreSQL standard string. \% and \_ keep their backslash, as MySQL
 * does (they are LIKE's escapes); \0, a NUL no text holds, stays \0. */
static const char *mysql_string(sqlsim_arena *a, const fe_result *r, int i) {
  const fe_tok *t = &r->toks[i];
  const char *s = r->orig + t->start;
  char q = s[0];
  strbuf sb = {0};
  sb_putc(&sb, '\'');
  for (int k = 1; k < t->len - 1; k++) {
    char c = s[k];
    if (c == '\\' && k + 1 < t->len - 1) {
      char e = s[++k];
      switch (e) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'Z': c = 26; break;
      case '0': sb_puts(&sb, "\\0"); continue;
      case '%': case '_': sb_putc(&sb, '\\'); c = e; break;
      default: c = e;
      }
    } else if (c == q && s[k + 1] == q) {
      k++; /* a doubled quote */
    }
    if (c == '\'') sb_putc(&sb, '\'');
    sb_putc(&sb, c);
  }
  sb_putc(&sb, '\'');
  char *out = sqlsim_arena_strdup(a, sb.buf);
  sb_free(&sb);
  return out;
}

/* The '(' whose group holds token i, and the word before it (the function
 * or CAST it belongs to): that word's index, or -1. */
static int enclosing_call(const fe_result *r, int i) {
  int d = r->toks[i].depth;
  for (int k = i - 1; k >= 0; k--)
    if (r->toks[k].type == FT_LPAREN && r->toks[k].depth == d - 1) {
      int w = prev_sig(r, k);
      return w >= 0 && r->toks[w].type == FT_WORD ? w : -1;
    }
  return -1;
}

/* MySQL's forms PostgreSQL's parser does not read, as their PostgreSQL
 * equals: strings with backslashes or in double quotes; || as OR (unless
 * PIPES_AS_CONCAT), && as AND, <=> as IS NOT DISTINCT FROM; the DIV and MOD
 * operators; CURRENT_TIMESTAMP() and its kin without the parentheses;
 * INTERVAL 1 DAY with its number quoted; CAST's SIGNED, UNSIGNED, DOUBLE,
 * DATETIME; GROUP_CONCAT's SEPARATOR as its second argument. */
static void plan_mysql(sqlsim_arena *a, fe_result *r, plan *p) {
  static const char *const clock[] = {"current_timestamp", "current_date", "current_time", "localtime",
                                      "localtimestamp", "current_user", NULL};
  static const char *const units[] = {"microsecond", "second", "minute", "hour", "day", "week", "month",
                                      "quarter", "year", NULL};
  int n = r->ntoks, pipes = r->dialect & FE_PIPES_CONCAT;
  for (int i = 0; i < n; i++) {
    const fe_tok *t = &r->toks[i];
    int nx = fe_next_sig(r, i), pv = prev_sig(r, i);
    if (t->type == FT_STRING && t->quote == 'M') {
      p->repl[i] = mysql_string(a, r, i);
      if (tok_is(r, pv, KW_AS)) { /* AS "name": an alias, as MySQL (and SQLite) read it */
        strbuf sb = {0};
        const char *lit = p->repl[i];
        for (size_t k = 1; lit[k + 1]; k++) { /* the literal's text, its '' undoubled */
          sb_putc(&sb, lit[k]);
          if (lit[k] == '\'' && lit[k + 1] == '\'') k++;
        }
        if (sb.len > 63) add_longid(a, r, i, sqlsim_arena_strdup(a, sb.buf ? sb.buf : ""), p);
        else p->repl[i] = quoted_copy(a, sb.buf ? sb.buf : "");
        sb_free(&sb);
      }
    } else if (t->type == FT_COMMENT && r->orig[t->start] == '#') {
      p->repl[i] = " "; /* MySQL's # comment, which PostgreSQL reads as an operator */
    } else if (t->type == FT_OP) {
      if (!pipes && tok_op(r, i, "||")) p->repl[i] = " OR ";
      else if (tok_op(r, i, "&&")) p->repl[i] = " AND ";
      else if (tok_op(r, i, "<=>")) p->repl[i] = " IS NOT DISTINCT FROM ";
    } else if (t->type == FT_WORD) {
      static const char *const div[] = {"div", NULL}, *const mod[] = {"mod", NULL}, *const interval[] = {"interval", NULL};
      int infix = is_operand_end(r, pv) && nx < n && r->toks[nx].type != FT_LPAREN;
      if (fe_word_in(r, i, div) && is_operand_end(r, pv)) {
        p->repl[i] = " / ";
      } else if (fe_word_in(r, i, mod) && infix) {
        p->repl[i] = " % ";
      } else if (fe_word_in(r, i, clock) && nx < n && r->toks[nx].type == FT_LPAREN &&
                 fe_next_sig(r, nx) == match_paren(r, nx)) {
        p->repl[nx] = "";
        p->repl[match_paren(r, nx)] = "";
      } else if (fe_word_in(r, i, interval) && nx < n && r->toks[nx].type == FT_NUMBER &&
                 fe_word_in(r, fe_next_sig(r, nx), units)) {
        p->repl[nx] = sqlsim_arena_printf(a, "'%.*s'", r->toks[nx].len, r->orig + r->toks[nx].start);
      } else if (tok_is(r, pv, KW_AS)) { /* a type of CAST(x AS type) */
        static const char *const cast[] = {"cast", "convert", NULL}, *const dbl[] = {"double", NULL},
                                 *const sign[] = {"signed", "unsigned", NULL}, *const dt[] = {"datetime", NULL},
                                 *const integer[] = {"int", "integer", NULL}, *const prec[] = {"precision", NULL};
        int call = enclosing_call(r, i);
        if (call < 0 || !fe_word_in(r, call, cast)) continue;
        if (fe_word_in(r, i, dbl) && !fe_word_in(r, nx, prec)) {
          p->repl[i] = "double precision";
        } else if (fe_word_in(r, i, sign)) {
          p->repl[i] = "bigint";
          if (fe_word_in(r, nx, integer)) p->repl[nx] = "";
        } else if (fe_word_in(r, i, dt)) {
          p->repl[i] = "timestamp";
        }
      } else {
        static const char *const sep[] = {"separator", NULL}, *const gc[] = {"group_concat", NULL};
        int call = fe_word_in(r, i, sep) ? enclosing_call(r, i) : -1;
        if (call >= 0 && fe_word_in(r, call, gc)) p->repl[i] = ",";
      }
    }
  }
}

static void plan_rewrites(sqlsim_arena *a, fe_result *r, plan *p) {
  plan_comparison_chains(a, r, p);
  plan_sqlite_precedence(a, r, p);
  int n = r->ntoks;
  int nsynth = 0, nparams = 0;
  /* FROM-clause state per depth (parentheses rarely nest past 64). */
  char in_from[256] = {0};
  for (int i = 0; i < n; i++) {
    fe_tok *t = &r->toks[i];
    int d = t->depth < 255 ? t->depth : 255;
    switch (t->type) {
    case FT_QUOTED: {
      const char *text = fe_ident_text(a, r, i);
      size_t l = strlen(text);
      if (l > 63) {
        add_longid(a, r, i, text, p);
      } else if (l == 0 && t->quote == '"') {
        p->repl[i] = "''"; /* "" names nothing: SQLite reads an empty string */
      } else if (t->quote != '"') {
        p->repl[i] = quoted_copy(a, text);
      }
      break;
    }
    case FT_WORD:
      plan_word(a, r, p, i, in_from);
      break;
    case FT_OP:
      if (tok_op(r, i, "==")) p->repl[i] = "=";
      /* PostgreSQL reads a run of operator characters as one operator
       * (`>>>>`, `||-`, `<=-` trimmed by its own rules); SQLite reads its
       * tokens. A space between two operators that touch keeps SQLite's. */
      if (i + 1 < n && r->toks[i + 1].type == FT_OP && r->toks[i + 1].start == t->start + t->len)
        append(a, &p->after[i], " ");
      break;
    case FT_PARAM:
      /* SQLite's ?, ?N, :name, @name and $name: PostgreSQL knows only $N */
      p->repl[i] = sqlsim_arena_printf(a, " $%d ", ++nparams); /* spaced: PostgreSQL names may contain $ */
      break;
    case FT_STRING:
      /* AS 'name': SQLite takes a string as an alias (MySQL too). */
      if (tok_is(r, prev_sig(r, i), KW_AS) && t->quote != 'M') {
        char *text = sqlsim_arena_alloc(a, (size_t)t->len);
        int o = 0;
        for (int k = t->start + 1; k < t->start + t->len - 1; k++) {
          text[o++] = r->orig[k];
          if (r->orig[k] == '\'' && r->orig[k + 1] == '\'') k++;
        }
        text[o] = '\0';
        if (o > 63) add_longid(a, r, i, text, p);
        else p->repl[i] = quoted_copy(a, text);
      }
      break;
    case FT_HEX: {
      unsigned long long v = strtoull(r->orig + t->start + 2, NULL, 16);
      p->repl[i] = sqlsim_arena_printf(a, "%llu", v);
      break;
    }
    case FT_LPAREN: {
      /* A subquery as a FROM item without an alias gets a synthetic one. */
      int pv = prev_sig(r, i), nx = fe_next_sig(r, i);
      int from_pos = tok_is(r, pv, KW_FROM) || tok_is(r, pv, KW_JOIN) ||
                     (pv >= 0 && r->toks[pv].type == FT_COMMA && in_from[d]);
      int k = nx;
      while (k < n && r->toks[k].type == FT_LPAREN) k = fe_next_sig(r, k);
      if (from_pos && (tok_is(r, k, KW_SELECT) || tok_is(r, k, KW_WITH) || tok_is(r, k, KW_VALUES))) {
        int close = match_paren(r, i);
        int after = fe_next_sig(r, close);
        int has_alias = tok_is(r, after, KW_AS) ||
                        (after < n && ((r->toks[after].type == FT_WORD &&
                                        !tok_in(r, after, KF_NOT_ALIAS)) ||
                                       r->toks[after].type == FT_QUOTED));
        if (!has_alias && close < n)
          append(a, &p->after[close],
                 sqlsim_arena_printf(a, " AS \"" FE_SYNTH_ALIAS "%d\"", ++nsynth));
      }
      break;
    }
    case FT_RPAREN:
      if (t->depth + 1 < 255) in_from[t->depth + 1] = 0;
      break;
    case FT_COMMA:
      break;
    default:
      break;
    }
  }
  if ((r->dialect & FE_DIALECT) == FE_MYSQL) plan_mysql(a, r, p); /* last: its forms win */
}

/* ---------------------------------------------------------------- emission */

/* The text for libpg_query, written once into the arena at its exact length
 * (counted before), and its segments: a run of original text is one segment
 * however many tokens it spans; each inserted or replaced piece is its own. */
typedef struct emitter {
  char *out;
  int len;
  fe_seg *segs;
  int nsegs, cap;
  sqlsim_arena *a;
} emitter;

static void emit(emitter *e, const char *text, int len, int orig, int verbatim) {
  if (len <= 0) return;
  fe_seg *last = e->nsegs ? &e->segs[e->nsegs - 1] : NULL;
  if (verbatim && last && last->verbatim && last->orig + last->len == orig &&
      last->out + last->len == e->len) {
    last->len += len;
  } else {
    if (e->nsegs == e->cap) e->segs = arena_array_grow(e->a, e->segs, e->nsegs, &e->cap, sizeof *e->segs, 16);
    fe_seg *s = &e->segs[e->nsegs++];
    s->out = e->len;
    s->orig = orig;
    s->len = len;
    s->verbatim = verbatim;
  }
  memcpy(e->out + e->len, text, (size_t)len);
  e->len += len;
}

/* Emits one parenthesis n times, mapped to orig. */
static void emit_repeat(emitter *e, char ch, int n, int orig) {
  static const char opens[] = "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((";
  static const char closes[] = "))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))";
  const int chunk = (int)sizeof opens - 1;
  for (; n > 0; n -= chunk) emit(e, ch == '(' ? opens : closes, n < chunk ? n : chunk, orig, 0);
}

int fe_translate(sqlsim_arena *a, const char *sql, int len, fe_result *r, sqlsim_error *err) {
  return fe_translate_dialect(a, sql, len, FE_SQLITE, NULL, 0, r, err);
}

int fe_translate_quoting(sqlsim_arena *a, const char *sql, int len, const int *quote_at, int nquote, fe_result *r,
                         sqlsim_error *err) {
  return fe_translate_dialect(a, sql, len, FE_SQLITE, quote_at, nquote, r, err);
}

int fe_translate_dialect(sqlsim_arena *a, const char *sql, int len, int dialect, const int *quote_at, int nquote,
                         fe_result *r, sqlsim_error *err) {
  int rc = fe_tokenize_dialect(a, sql, len, dialect, r, err);
  if (rc) return rc;
  if ((dialect & FE_DIALECT) == FE_POSTGRES) { /* PostgreSQL's own text: as written */
    r->out = arena_alloc_raw(a, (size_t)len + 1);
    memcpy(r->out, sql, (size_t)len);
    r->out[len] = '\0';
    r->out_len = len;
    r->segs = sqlsim_arena_alloc(a, sizeof *r->segs);
    r->segs[0] = (fe_seg){0, 0, len, 1};
    r->nsegs = len > 0;
    return 0;
  }
  int n = r->ntoks;
  plan p;
  p.opens = sqlsim_arena_alloc(a, sizeof *p.opens * (size_t)(n + 1));
  p.repl = sqlsim_arena_alloc(a, sizeof *p.repl * (size_t)(n + 1));
  p.closes = sqlsim_arena_alloc(a, sizeof *p.closes * (size_t)(n + 1));
  p.after = sqlsim_arena_alloc(a, sizeof *p.after * (size_t)(n + 1));
  p.order = arena_alloc_raw(a, sizeof *p.order * (size_t)(n + 1));
  for (int i = 0; i < n; i++) p.order[i] = i;
  plan_rewrites(a, r, &p);
  for (int q = 0; q < nquote; q++) { /* words PostgreSQL read as keywords where SQLite reads names */
    int i = quote_at[q] >= 0 && quote_at[q] < len ? r->tok_of[quote_at[q]] : -1;
    if (i >= 0 && r->toks[i].type == FT_WORD)
      p.repl[i] = quoted_copy(a, core_fold_dup(a, sql + r->toks[i].start, (size_t)r->toks[i].len));
  }

  long total = 0;
  for (int i = 0; i < n; i++)
    total += p.opens[i] + p.closes[i] + (p.repl[i] ? (long)strlen(p.repl[i]) : r->toks[i].len) +
             (p.after[i] ? (long)strlen(p.after[i]) : 0);
  if (total > INT_MAX / 2)
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, 0, "query too long once rewritten for libpg_query");
  emitter e = {arena_alloc_raw(a, (size_t)total + 1), 0, NULL, 0, 0, a};
  for (int k = 0; k < n;) {
    int i = p.order[k];
    const fe_tok *t = &r->toks[i];
    if (!p.opens[i] && !p.repl[i] && !p.closes[i] && !p.after[i]) {
      /* a run of tokens kept as written, in written order: one copy */
      int j = i, kk = k + 1;
      while (kk < n && p.order[kk] == j + 1 && !p.opens[j + 1] && !p.repl[j + 1] && !p.closes[j + 1] &&
             !p.after[j + 1])
        j++, kk++;
      emit(&e, sql + t->start, r->toks[j].start + r->toks[j].len - t->start, t->start, 1);
      k = kk;
      continue;
    }
    if (p.opens[i]) emit_repeat(&e, '(', p.opens[i], t->start);
    if (p.repl[i]) emit(&e, p.repl[i], (int)strlen(p.repl[i]), t->start, 0);
    else emit(&e, sql + t->start, t->len, t->start, 1);
    if (p.closes[i]) emit_repeat(&e, ')', p.closes[i], t->start + t->len);
    if (p.after[i]) emit(&e, p.after[i], (int)strlen(p.after[i]), t->start + t->len, 0);
    k++;
  }
  e.out[e.len] = '\0';
  r->out = e.out;
  r->out_len = e.len;
  r->segs = e.segs;
  r->nsegs = e.nsegs;
  return 0;
}

int fe_map(const fe_result *r, int o) {
  if (o < 0) return -1;
  int lo = 0, hi = r->nsegs - 1, best = -1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (r->segs[mid].out <= o) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (best < 0) return 0;
  const fe_seg *s = &r->segs[best];
  if (o >= s->out + s->len) return best + 1 < r->nsegs ? r->segs[best + 1].orig : r->orig_len;
  return s->verbatim ? s->orig + (o - s->out) : s->orig;
}
