/* frontend.h -- the SQLite/MySQL dialect front end: the tokenizer and the
 * input budget (parser/lexer.c), and the rewrite of the text into what
 * PostgreSQL's parser reads, with an offset map back (parser/translate.c).
 * Internal to the parser module: parse.c and build.c read it; other modules
 * use parser/tree.h. */
#ifndef SQLSIM_FRONTEND_H
#define SQLSIM_FRONTEND_H

#include "core.h"

typedef enum fe_toktype {
  FT_EOF, FT_WS, FT_COMMENT, FT_WORD, FT_QUOTED, FT_STRING, FT_BLOB, FT_NUMBER, FT_HEX,
  FT_PARAM, FT_OP, FT_LPAREN, FT_RPAREN, FT_COMMA, FT_SEMI, FT_DOT
} fe_toktype;

typedef struct fe_tok {
  uint8_t type;  /* fe_toktype */
  char quote;    /* FT_QUOTED: '"', '`' or '[' */
  uint8_t kw;    /* FT_WORD: keyword id in lexer.c, 0 for other words */
  int32_t depth; /* parenthesis depth before the token */
  int start, len;
} fe_tok;

typedef struct fe_seg {
  int out, orig, len;
  int verbatim; /* out text equals the original: offsets map one to one */
} fe_seg;

/* The dialect a text is read in (fe_result.dialect): SQLite's (with MySQL's
 * backticks and LIMIT a, b, as models write it), PostgreSQL's (passed to
 * libpg_query as written), MySQL's; for MySQL, flags of its sql_mode. */
enum {
  FE_SQLITE = 0, FE_POSTGRES = 1, FE_MYSQL = 2, FE_DIALECT = 3,
  FE_PIPES_CONCAT = 4, /* MySQL: || concatenates (PIPES_AS_CONCAT), else it is OR */
  FE_ANSI_QUOTES = 8   /* MySQL: "x" is a name (ANSI_QUOTES), else a string */
};

typedef struct fe_result {
  int dialect;  /* FE_* */
  const char *orig;
  int orig_len;
  char *out; /* text handed to libpg_query */
  int out_len;
  fe_seg *segs;
  int nsegs;
  fe_tok *toks; /* tokens of the original text, in order */
  int ntoks;
  int *match;   /* per token: for '(' the index of its ')' (ntoks if none), else -1 */
  int *tok_of;  /* per byte of orig: the token starting there, else -1 */
  int nesting;  /* the bound on the tree's depth the budget checked (fe_translate) */
  /* Identifiers longer than PostgreSQL's 63 bytes travel as placeholders
   * "#sqlsim_idN"; longids[N] is the unescaped original, longquote[N] its quote. */
  const char **longids;
  char *longquote;
  int nlongids;
} fe_result;

/* Prefix of aliases the front end adds to FROM subqueries that have none. */
#define FE_SYNTH_ALIAS "#sqlsim_sq"
#define FE_LONGID "#sqlsim_id"

/* The input budget every parse is held to before libpg_query sees the text:
 * its length, and a bound on the depth of the tree it can make (parentheses,
 * CASE ... END and chains of operators, each counted; see lexer.c). No query
 * of the Spider, BIRD or BIS corpora comes within a tenth of either. */
#define FE_MAX_BYTES 1000000
#define FE_MAX_NESTING 1000

/* Tokenizes sql (parser/lexer.c): the budget (length, no NUL, the depth
 * bound) checked, tokens, parentheses paired. Returns 0 or the error
 * fe_translate would give for those. r->out is not set. */
int fe_tokenize(sqlsim_arena *a, const char *sql, int len, fe_result *r, sqlsim_error *err);
/* The same in a dialect (FE_*): its strings (MySQL's backslashes and "..",
 * PostgreSQL's E'..' and $tag$..$tag$), comments (MySQL's # and -- only
 * before a space) and operators (MySQL's <=> and &&). */
int fe_tokenize_dialect(sqlsim_arena *a, const char *sql, int len, int dialect, fe_result *r, sqlsim_error *err);
/* Tokenizes sql and rewrites the SQLite/MySQL forms libpg_query does not
 * accept (parser/translate.c). Returns 0, or SQLSIM_ESYNTAX with err at the original offset
 * (unterminated literal or comment), or SQLSIM_EUNSUPPORTED when the text is
 * over the budget ("nesting deeper than 1000 at offset N"). Everything lives
 * in the arena; the work is linear in the length of sql. */
int fe_translate(sqlsim_arena *a, const char *sql, int len, fe_result *r, sqlsim_error *err);
/* The same, with the words starting at the byte offsets quote_at[0..nquote)
 * written as quoted (lower-case) names: a word SQLite reads as a name where
 * PostgreSQL reads a keyword (parse.c finds them where libpg_query stops). */
int fe_translate_quoting(sqlsim_arena *a, const char *sql, int len, const int *quote_at, int nquote, fe_result *r,
                         sqlsim_error *err);
/* The same in a dialect (FE_*): PostgreSQL's text goes to libpg_query as it
 * is (tokenized, for the budget and the map); MySQL's gets SQLite's rewrites
 * and its own (strings with backslashes, || as OR, <=>, &&, DIV, MOD,
 * CURRENT_TIMESTAMP(), INTERVAL 1 DAY, CAST(x AS SIGNED | DOUBLE | DATETIME),
 * GROUP_CONCAT(.. SEPARATOR s)). */
int fe_translate_dialect(sqlsim_arena *a, const char *sql, int len, int dialect, const int *quote_at, int nquote,
                         fe_result *r, sqlsim_error *err);
/* Whether SQLite can read the word (len bytes) as a name: not one of its
 * keywords, or one its grammar falls back to a name (END, DO, CROSS...). */
int fe_sqlite_name_word(const char *w, int len);
/* 1 if token i is a word equal, ignoring case, to one of the NULL-ended words. */
int fe_word_in(const fe_result *r, int i, const char *const *words);
/* Is token i a keyword that ends a select list (FROM, WHERE, GROUP, ORDER,
 * LIMIT, UNION, ...: FROM and the words that end a FROM clause)? */
int fe_ends_select_list(const fe_result *r, int i);

/* 1 if the keyword table is in the order its binary search needs. */
int fe_keywords_sorted(void);

/* Maps a byte offset in r->out to a byte offset in the original text. */
int fe_map(const fe_result *r, int out_offset);

/* Returns the index of the original token starting at orig_offset, or -1. */
int fe_token_at(const fe_result *r, int orig_offset);

/* Index of the next token after i that is not white space or a comment. */
int fe_next_sig(const fe_result *r, int i);

/* Unescaped text of an identifier token (bare, "..", `..` or [..]). */
char *fe_ident_text(sqlsim_arena *a, const fe_result *r, int tok);

#endif
