/* lexer.c -- the front end's tokenizer: SQLite/MySQL SQL as models write it,
 * read into tokens the way SQLite reads it (strings, "..", `..`, [..]
 * identifiers, comments, numbers, x'..' blobs, parameters), each word
 * classified once against the keywords the rewrites look at; every '('
 * paired with its ')'; and the input budget (the length, no NUL, a bound on
 * the depth of the tree the text can make) checked in the same linear pass,
 * before PostgreSQL's parser sees the text. translate.c plans and emits the
 * rewrites on these tokens. Entry points: fe_tokenize (frontend.h),
 * tree_literal_spans (tree.h). */
#include "lexer.h"
#include "tree.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* Character classes, one table lookup each: 1 starts an identifier, 2
 * continues one, 4 is SQLite's white space. */
static const uint8_t char_class[256] = {
    ['a' ... 'z'] = 3, ['A' ... 'Z'] = 3, ['_'] = 3, [0x80 ... 0xFF] = 3, ['0' ... '9'] = 2,
    ['$'] = 2, [' '] = 4, ['\t'] = 4, ['\n'] = 4, ['\r'] = 4, ['\f'] = 4, ['\v'] = 4,
};
static inline int is_ident_start(unsigned char c) { return char_class[c] & 1; }
static inline int is_ident_char(unsigned char c) { return char_class[c] & 2; }
static inline int is_space(unsigned char c) { return char_class[c] & 4; }
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_hex(unsigned char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ---------------------------------------------------------------- keywords */

static const char *const kw_names[] = {
    "",
#define X(id, name, flags) name,
    FE_KEYWORDS(X)
#undef X
};

const unsigned fe_kw_flags[KW__COUNT] = {
    0,
#define X(id, name, flags) flags,
    FE_KEYWORDS(X)
#undef X
};

/* Keyword lookup: an open-addressing table of 512 slots over the folded
 * word, filled once; one hash and usually one comparison per word. */
#define KW_SLOTS 512
static uint8_t kw_slots[KW_SLOTS];
static uint8_t kw_len[KW__COUNT]; /* each keyword's length */
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

static unsigned kw_hash(const char *low, int len) {
  unsigned h = 2166136261u;
  for (int i = 0; i < len; i++) h = (h ^ (unsigned char)low[i]) * 16777619u;
  return h;
}

static void kw_init(void) {
  for (int k = 1; k < KW__COUNT; k++) {
    kw_len[k] = (uint8_t)strlen(kw_names[k]);
    unsigned h = kw_hash(kw_names[k], kw_len[k]) % KW_SLOTS;
    while (kw_slots[h]) h = (h + 1) % KW_SLOTS;
    kw_slots[h] = (uint8_t)k;
  }
}

static int keyword_of(const char *s, int len) {
  if (len > 15) return KW_NONE;
  char low[16];
  for (int i = 0; i < len; i++) low[i] = ascii_lower(s[i]);
  for (unsigned h = kw_hash(low, len) % KW_SLOTS; kw_slots[h]; h = (h + 1) % KW_SLOTS) {
    int k = kw_slots[h];
    if (kw_len[k] == len && !memcmp(kw_names[k], low, (size_t)len)) return k;
  }
  return KW_NONE;
}

int fe_keywords_sorted(void) {
  for (int i = 2; i < KW__COUNT; i++)
    if (strcmp(kw_names[i - 1], kw_names[i]) >= 0) return 0;
  return 1;
}

/* ---------------------------------------------------------------- tokenizer */

/* The end of a string literal starting at i (its opening quote at q):
 * doubled quotes stay inside, and with backslash a backslash escapes the
 * next byte (MySQL's strings, PostgreSQL's E'..'). -1 when it does not end. */
static int string_end(const char *s, int n, int q, int backslash) {
  char quote = s[q];
  for (int i = q + 1; i < n; i++) {
    if (backslash && s[i] == '\\' && i + 1 < n) {
      i++;
    } else if (s[i] == quote) {
      if (i + 1 < n && s[i + 1] == quote) {
        i++;
        continue;
      }
      return i + 1;
    }
  }
  return -1;
}

/* PostgreSQL's $tag$ .. $tag$ at i: its end, 0 when i starts none ($1 is a
 * parameter), -1 when it does not end. */
static int dollar_end(const char *s, int n, int i) {
  int t = i + 1;
  if (t < n && is_digit((unsigned char)s[t])) return 0;
  while (t < n && is_ident_char((unsigned char)s[t]) && s[t] != '$') t++;
  if (t >= n || s[t] != '$') return 0;
  int tag = t - i + 1;
  for (int e = t + 1; e + tag <= n; e++)
    if (s[e] == '$' && !memcmp(s + e, s + i, (size_t)tag)) return e + tag;
  return -1;
}

static int scan_tokens(sqlsim_arena *a, const char *s, int n, int dialect, fe_result *r, sqlsim_error *err) {
  pthread_once(&kw_once, kw_init);
  int pg = (dialect & FE_DIALECT) == FE_POSTGRES, my = (dialect & FE_DIALECT) == FE_MYSQL;
  int my_dq_strings = my && !(dialect & FE_ANSI_QUOTES); /* MySQL's "..." is a string */
  int cap = n / 2 + 8;
  fe_tok *toks = arena_alloc_raw(a, sizeof *toks * (size_t)cap); /* each written whole */
  int nt = 0, depth = 0, i = 0;
  while (i < n) {
    fe_tok t = {0};
    t.start = i;
    t.depth = depth;
    unsigned char c = (unsigned char)s[i];
    if (is_space(c)) {
      while (i < n && is_space((unsigned char)s[i])) i++;
      t.type = FT_WS;
    } else if ((c == '-' && i + 1 < n && s[i + 1] == '-' &&
                (!my || i + 2 >= n || is_space((unsigned char)s[i + 2]) || (unsigned char)s[i + 2] < 0x20)) ||
               (my && c == '#')) { /* MySQL: -- needs a space after it (--x is minus minus x); # too */
      while (i < n && s[i] != '\n') i++;
      t.type = FT_COMMENT;
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      i = i + 1 < n ? i + 2 : n; /* SQLite accepts an unterminated comment at the end */
      t.type = FT_COMMENT;
    } else if ((my || pg) && (c == '\'' || (c == '"' && my_dq_strings) ||
                             (pg && (c == 'E' || c == 'e') && i + 1 < n && s[i + 1] == '\''))) {
      /* MySQL's strings take backslash escapes (and "..." is one); so does
       * PostgreSQL's E'..' */
      int q = c == 'E' || c == 'e' ? i + 1 : i, backslash = my || q != i;
      int end = string_end(s, n, q, backslash);
      if (end < 0)
        return sqlsim_error_set(err, SQLSIM_ESYNTAX, t.start,
                                "unterminated string literal starting at offset %d (expected a closing %c)", t.start,
                                s[q]);
      i = end;
      t.type = FT_STRING;
      /* quote: '\'' a string as SQLite reads it, 'E' PostgreSQL's E'..', 'M'
       * MySQL's with a backslash or in double quotes (translate.c rewrites it) */
      if (pg) t.quote = q != t.start ? 'E' : '\'';
      else t.quote = c == '\'' && !memchr(s + t.start, '\\', (size_t)(end - t.start)) ? '\'' : 'M';
    } else if (pg && c == '$' && dollar_end(s, n, i) != 0) {
      int end = dollar_end(s, n, i);
      if (end < 0)
        return sqlsim_error_set(err, SQLSIM_ESYNTAX, t.start,
                                "unterminated $-quoted string starting at offset %d", t.start);
      i = end;
      t.type = FT_STRING;
      t.quote = '$';
    } else if (c == '\'' || ((c == 'x' || c == 'X') && i + 1 < n && s[i + 1] == '\'')) {
      int blob = c != '\'';
      i += blob ? 2 : 1;
      for (;;) {
        if (i >= n)
          return sqlsim_error_set(err, SQLSIM_ESYNTAX, t.start,
                                  "unterminated string literal starting at offset %d "
                                  "(expected a closing ')",
                                  t.start);
        if (s[i] == '\'') {
          if (i + 1 < n && s[i + 1] == '\'') {
            i += 2;
            continue;
          }
          i++;
          break;
        }
        i++;
      }
      t.type = blob ? FT_BLOB : FT_STRING;
    } else if (c == '`' && i + 2 < n && s[i + 1] == '`' && s[i + 2] == '`') {
      return sqlsim_error_set(err, SQLSIM_ESYNTAX, (int)i,
                              "a Markdown code fence (```) at offset %d: the model's answer was not "
                              "reduced to its SQL",
                              (int)i);
    } else if (c == '"' || c == '`' || (c == '[' && !pg && !my)) {
      char close = c == '[' ? ']' : (char)c;
      i++;
      for (;;) {
        if (i >= n)
          return sqlsim_error_set(err, SQLSIM_ESYNTAX, t.start,
                                  "unterminated quoted identifier starting at offset %d "
                                  "(expected a closing %c)",
                                  t.start, close);
        if (s[i] == close) {
          if (close != ']' && i + 1 < n && s[i + 1] == close) {
            i += 2;
            continue;
          }
          i++;
          break;
        }
        i++;
      }
      t.type = FT_QUOTED;
      t.quote = (char)c;
    } else if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X') && i + 2 < n &&
               is_hex((unsigned char)s[i + 2])) {
      i += 2;
      while (i < n && is_hex((unsigned char)s[i])) i++;
      t.type = FT_HEX;
    } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit((unsigned char)s[i + 1]))) {
      while (i < n && is_digit((unsigned char)s[i])) i++;
      if (i < n && s[i] == '.') {
        i++;
        while (i < n && is_digit((unsigned char)s[i])) i++;
      }
      if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        int j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j < n && is_digit((unsigned char)s[j])) {
          i = j;
          while (i < n && is_digit((unsigned char)s[i])) i++;
        }
      }
      t.type = FT_NUMBER;
    } else if (is_ident_start(c)) {
      while (i < n && is_ident_char((unsigned char)s[i])) i++;
      t.type = FT_WORD;
      t.kw = (uint8_t)keyword_of(s + t.start, i - t.start);
    } else if (c == '?' || ((c == ':' || c == '@' || c == '$') && i + 1 < n &&
                            is_ident_char((unsigned char)s[i + 1]) && !(c == ':' && s[i + 1] == ':'))) {
      i++;
      while (i < n && is_ident_char((unsigned char)s[i])) i++;
      t.type = FT_PARAM;
    } else if (c == '(') {
      i++;
      t.type = FT_LPAREN;
      depth++;
    } else if (c == ')') {
      i++;
      t.type = FT_RPAREN;
      if (depth > 0) depth--;
      t.depth = depth;
    } else if (c == ',') {
      i++;
      t.type = FT_COMMA;
    } else if (c == ';') {
      i++;
      t.type = FT_SEMI;
    } else if (c == '.') {
      i++;
      t.type = FT_DOT;
    } else if (c == '\0') {
      return sqlsim_error_set(err, SQLSIM_ESYNTAX, i, "NUL byte at offset %d", i);
    } else {
      /* Operators: the longest of the SQLite and PostgreSQL symbols
       * (->> -> || <= >= == != <> << >> ::), else one character. */
      char d = i + 1 < n ? s[i + 1] : '\0';
      int m = 1;
      switch (c) {
      case '-': m = d == '>' ? (i + 2 < n && s[i + 2] == '>' ? 3 : 2) : 1; break;
      case '|': m = d == '|' ? 2 : 1; break;
      case '<': m = my && d == '=' && i + 2 < n && s[i + 2] == '>' ? 3 : d == '=' || d == '>' || d == '<' ? 2 : 1; break;
      case '&': m = my && d == '&' ? 2 : 1; break;
      case '>': m = d == '=' || d == '>' ? 2 : 1; break;
      case '=': m = d == '=' ? 2 : 1; break;
      case '!': m = d == '=' ? 2 : 1; break;
      case ':': m = d == ':' ? 2 : 1; break;
      default: break;
      }
      i += m;
      t.type = FT_OP;
    }
    t.len = i - t.start;
    if (nt + 1 >= cap) {
      int ncap = cap * 2;
      fe_tok *nt2 = arena_alloc_raw(a, sizeof *toks * (size_t)ncap);
      memcpy(nt2, toks, sizeof *toks * (size_t)nt);
      toks = nt2;
      cap = ncap;
    }
    toks[nt++] = t;
  }
  fe_tok eof = {0};
  eof.type = FT_EOF;
  eof.start = n;
  toks[nt] = eof; /* sentinel, not counted */
  r->toks = toks;
  r->ntoks = nt;
  /* the token starting at each byte, for fe_token_at (the builder asks once
   * or more per node) */
  r->tok_of = arena_alloc_raw(a, sizeof *r->tok_of * (size_t)(n + 1));
  memset(r->tok_of, 0xff, sizeof *r->tok_of * (size_t)(n + 1));
  for (int k = 0; k < nt; k++) r->tok_of[toks[k].start] = k;
  return 0;
}

/* ---------------------------------------------------------------- helpers */

int fe_next_sig(const fe_result *r, int i) {
  for (i++; i < r->ntoks; i++)
    if (r->toks[i].type != FT_WS && r->toks[i].type != FT_COMMENT) return i;
  return r->ntoks; /* the EOF sentinel */
}

int fe_token_at(const fe_result *r, int off) {
  return off >= 0 && off < r->orig_len && r->tok_of ? r->tok_of[off] : -1;
}

/* Pairs every '(' with its ')' in one pass (a stack of open parentheses). */
static void pair_parens(sqlsim_arena *a, fe_result *r) {
  int n = r->ntoks;
  r->match = arena_alloc_raw(a, sizeof *r->match * (size_t)(n + 1));
  int *open = arena_alloc_raw(a, sizeof *open * (size_t)(n + 1)), nopen = 0;
  for (int i = 0; i < n; i++) {
    r->match[i] = -1;
    if (r->toks[i].type == FT_LPAREN) {
      r->match[i] = n;
      open[nopen++] = i;
    } else if (r->toks[i].type == FT_RPAREN && nopen) {
      r->match[open[--nopen]] = i;
    }
  }
  r->match[n] = -1;
}

/* ---------------------------------------------------------------- budget */

/* A bound on the depth of the tree PostgreSQL's parser (and sqlsim's tree
 * after it) can build from the tokens, in one linear pass. Depth without
 * parentheses comes from chains: a + b + c, NOT NOT x, x COLLATE a COLLATE
 * b, a BETWEEN b AND c BETWEEN ..., each operator one level; a JOIN chain and
 * a chain of UNIONs one level per link. AND and OR lists are flat in the
 * tree, and so are lists separated by commas, so they end a chain (the AND
 * of a BETWEEN does not). A group -- parentheses, or CASE ... END -- adds its
 * own chains to the deepest group inside it, plus a constant for the nodes a
 * group makes (3; 8 for a subquery). The bound of the whole text is the
 * root's: constant + longest chain + links + deepest child. */
typedef struct nest_frame {
  int value;      /* constant + longest chain + links so far */
  int run, maxrun, links, child;
  int between;    /* a BETWEEN waits for its AND */
  int is_case, first;
  int start;      /* offset where the group opens */
} nest_frame;

static int frame_total(const nest_frame *f) { return f->value + f->maxrun + f->links + f->child; }

static int nesting_check(sqlsim_arena *a, fe_result *r, sqlsim_error *err) {
  int cap = FE_MAX_NESTING / 3 + 2, top = 0;
  /* a frame per group open at once: never more than the tokens */
  int room = r->ntoks + 2 < cap ? r->ntoks + 2 : cap;
  nest_frame *st = arena_alloc_raw(a, sizeof *st * (size_t)room);
  memset(&st[0], 0, sizeof *st);
  st[0].value = 8;
  for (int i = 0; i < r->ntoks; i++) {
    const fe_tok *t = &r->toks[i];
    if (t->type == FT_WS || t->type == FT_COMMENT) continue;
    nest_frame *f = &st[top];
    int kw = t->type == FT_WORD ? t->kw : 0;
    if (f->first) { /* the first word inside a group says whether it is a subquery */
      f->first = 0;
      if (kw == KW_SELECT || kw == KW_WITH || kw == KW_VALUES) f->value = 8;
    }
    if (t->type == FT_LPAREN || kw == KW_CASE) {
      if (top + 1 >= cap)
        return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, t->start,
                                "nesting deeper than %d at offset %d (sqlsim's limit for one query)", FE_MAX_NESTING,
                                t->start);
      if (kw == KW_CASE) f->run++, f->maxrun = f->run > f->maxrun ? f->run : f->maxrun;
      nest_frame *g = &st[++top];
      memset(g, 0, sizeof *g);
      g->value = 3;
      g->is_case = kw == KW_CASE;
      g->first = !g->is_case;
      g->start = t->start;
      continue;
    }
    if (t->type == FT_RPAREN || (kw == KW_END && f->is_case)) {
      /* a ')' also closes any CASE left open inside its parentheses */
      int closes_paren = t->type == FT_RPAREN;
      if (closes_paren) {
        int k = top;
        while (k > 0 && st[k].is_case) k--;
        if (k == 0) continue; /* a ')' with no '(' */
      }
      do {
        int v = frame_total(&st[top]);
        if (v > FE_MAX_NESTING)
          return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, st[top].start,
                                  "nesting deeper than %d at offset %d (sqlsim's limit for one query)",
                                  FE_MAX_NESTING, st[top].start);
        int was_case = st[top].is_case;
        top--;
        if (v > st[top].child) st[top].child = v;
        if (!closes_paren || !was_case) break;
      } while (top > 0);
      continue;
    }
    if (t->type == FT_COMMA || t->type == FT_SEMI) {
      f->run = 0;
      f->between = 0;
    } else if (kw == KW_AND || kw == KW_OR) {
      if (f->between && kw == KW_AND) f->between = 0;
      else f->run = 0;
    } else if (kw == KW_UNION || kw == KW_INTERSECT || kw == KW_EXCEPT || kw == KW_JOIN) {
      f->links++;
      f->run = 0;
    } else if (kw && (fe_kw_flags[kw] & KF_RESET)) {
      f->run = 0;
    } else if (t->type == FT_OP || (kw && (fe_kw_flags[kw] & KF_NEST))) {
      if (kw == KW_BETWEEN) f->between = 1;
      if (++f->run > f->maxrun) f->maxrun = f->run;
    }
    if (frame_total(f) > FE_MAX_NESTING)
      return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, t->start,
                              "nesting deeper than %d at offset %d (sqlsim's limit for one query)", FE_MAX_NESTING,
                              t->start);
  }
  /* groups left open at the end fold into the root */
  while (top > 0) {
    int v = frame_total(&st[top]);
    top--;
    if (v > st[top].child) st[top].child = v;
  }
  r->nesting = frame_total(&st[0]);
  if (r->nesting > FE_MAX_NESTING)
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, 0,
                            "nesting deeper than %d (sqlsim's limit for one query)", FE_MAX_NESTING);
  return 0;
}

char *fe_ident_text(sqlsim_arena *a, const fe_result *r, int i) {
  const fe_tok *t = &r->toks[i];
  const char *s = r->orig + t->start;
  if (t->type != FT_QUOTED) return sqlsim_arena_strndup(a, s, (size_t)t->len);
  char close = t->quote == '[' ? ']' : t->quote;
  char *out = sqlsim_arena_alloc(a, (size_t)t->len);
  int o = 0;
  for (int k = 1; k < t->len - 1; k++) {
    out[o++] = s[k];
    if (close != ']' && s[k] == close && s[k + 1] == close) k++;
  }
  out[o] = '\0';
  return out;
}

/* ---------------------------------------------------------------- entry points */

int fe_tokenize(sqlsim_arena *a, const char *sql, int len, fe_result *r, sqlsim_error *err) {
  return fe_tokenize_dialect(a, sql, len, FE_SQLITE, r, err);
}

int fe_tokenize_dialect(sqlsim_arena *a, const char *sql, int len, int dialect, fe_result *r, sqlsim_error *err) {
  memset(r, 0, sizeof *r);
  r->dialect = dialect;
  r->orig = sql;
  r->orig_len = len;
  if (len > FE_MAX_BYTES)
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, FE_MAX_BYTES,
                            "query of %d bytes: longer than %d (sqlsim's limit for one query)", len, FE_MAX_BYTES);
  /* SQLite stops reading at a NUL, and a NUL inside a quoted name or string
   * would cut every printed form short: refused wherever it stands */
  const char *nul = memchr(sql, 0, (size_t)len);
  if (nul) return sqlsim_error_set(err, SQLSIM_ESYNTAX, (int)(nul - sql), "NUL byte at offset %d", (int)(nul - sql));
  int rc = scan_tokens(a, sql, len, dialect, r, err);
  if (rc) return rc;
  pair_parens(a, r);
  return nesting_check(a, r, err);
}

int tree_literal_spans(sqlsim_arena *a, const char *sql, int **spans) {
  fe_result fr;
  sqlsim_error err = {0};
  *spans = NULL;
  if (fe_tokenize(a, sql, (int)strlen(sql), &fr, &err)) return -1;
  int n = 0;
  for (int k = 0; k < fr.ntoks; k++) n += fr.toks[k].type == FT_STRING || fr.toks[k].type == FT_NUMBER;
  int *v = sqlsim_arena_alloc(a, sizeof *v * (size_t)(2 * n + 1)), j = 0;
  for (int k = 0; k < fr.ntoks; k++)
    if (fr.toks[k].type == FT_STRING || fr.toks[k].type == FT_NUMBER) {
      v[j++] = fr.toks[k].start;
      v[j++] = fr.toks[k].len;
    }
  *spans = v;
  return n;
}

/* ---------------------------------------------------------------- names SQLite reads */

/* SQLite's keywords that its grammar reads as a name where one fits: the
 * %fallback ID list of its parse.y (LIKE_KW is LIKE, GLOB, REGEXP; COLUMNKW is
 * COLUMN; CTIME_KW is CURRENT_DATE/TIME/TIMESTAMP), the join words (a name in
 * a name's place, nm ::= JOIN_KW), INDEXED (of the id class), and FILTER, OVER,
 * WINDOW, which its tokenizer reads as names unless a window clause follows. */
static const char *const sqlite_name_keywords[] = {
    "abort", "action", "after", "always", "analyze", "asc", "attach", "before", "begin", "by", "cascade", "cast",
    "column", "conflict", "cross", "current", "current_date", "current_time", "current_timestamp", "database",
    "deferred", "desc", "detach", "do", "each", "end", "exclude", "exclusive", "explain", "fail", "filter", "first",
    "following", "for", "full", "generated", "glob", "groups", "if", "ignore", "immediate", "indexed", "initially",
    "inner", "instead", "key", "last", "left", "like", "match", "materialized", "natural", "no", "nulls", "of",
    "offset", "others", "outer", "over", "partition", "plan", "pragma", "preceding", "query", "raise", "range",
    "recursive", "regexp", "reindex", "release", "rename", "replace", "restrict", "right", "rollback", "row", "rows",
    "savepoint", "temp", "temporary", "ties", "trigger", "unbounded", "vacuum", "view", "virtual", "window", "with",
    "without", NULL};

int fe_sqlite_name_word(const char *w, int len) {
  if (len <= 0 || len > 40) return len > 0;
  if (!sqlite3_keyword_check(w, len)) return 1;
  char low[41];
  for (int i = 0; i < len; i++) low[i] = (char)((w[i] >= 'A' && w[i] <= 'Z') ? w[i] + 32 : w[i]);
  low[len] = '\0';
  for (const char *const *k = sqlite_name_keywords; *k; k++)
    if (!strcmp(*k, low)) return 1;
  return 0;
}
