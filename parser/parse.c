/* parse.c -- sqlsim_parse(): front end, libpg_query, tree, normalization.
 *
 * The query's arena holds a copy of the text, the front end's tokens and map,
 * and the sqlsim tree; sqlsim_query_free() releases all of it at once.
 * libpg_query's parse tree is read (pgnodes.c) into records in a per-thread
 * scratch arena. */
#include "build.h"
#include "tree.h"
#include "pgnodes.h"

#include <pg_query.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* Per-thread scratch arena for the document of libpg_query's parse tree,
 * which is garbage once the tree is built: reset after every query, freed at
 * thread exit. */
static pthread_key_t scratch_key;
static _Thread_local int pg_used; /* libpg_query set up its memory in this thread */
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static void scratch_free(void *p) { sqlsim_arena_free(p); }
static void scratch_init(void) { pthread_key_create(&scratch_key, scratch_free); }
static sqlsim_arena *scratch_arena(void) {
  pthread_once(&scratch_once, scratch_init);
  sqlsim_arena *s = pthread_getspecific(scratch_key);
  if (!s) {
    s = arena_new_sized(256 * 1024);
    pthread_setspecific(scratch_key, s);
  }
  return s;
}

/* Frees the calling thread's scratch arena now (for leak checkers; it is
 * also freed when the thread exits). */
void parse_thread_cleanup(void) {
  pthread_once(&scratch_once, scratch_init);
  sqlsim_arena *s = pthread_getspecific(scratch_key);
  if (s) {
    sqlsim_arena_free(s);
    pthread_setspecific(scratch_key, NULL);
  }
  /* libpg_query frees its memory when a thread other than the main one
   * exits, and would free it twice after pg_query_exit; it crashes in a
   * thread where it never ran. */
  if (pg_used && gettid() == getpid()) pg_query_exit();
  pg_used = 0;
}

/* Byte offset of the 1-based character position pos in s (UTF-8). */
static int char_to_byte(const char *s, int len, int pos) {
  int chars = 0;
  for (int i = 0; i < len; i++) {
    if (((unsigned char)s[i] & 0xC0) != 0x80) {
      if (++chars == pos) return i;
    }
  }
  return len;
}

/* Words read again as names, at most, before libpg_query's first error stands. */
#define MAX_REQUOTES 8

/* Where libpg_query stopped at byte orig of the text: the word there, or the
 * word just before (`SELECT name for FROM t` stops at FROM), when it is one
 * SQLite reads as a name and PostgreSQL may read as a keyword (DO, END, DESC,
 * FOR ...), not quoted yet: its offset, to be quoted; else -1. */
static int name_at(const fe_result *fe, int orig, const int *quoted, int nquoted) {
  int i = orig >= 0 && orig < fe->orig_len ? fe->tok_of[orig] : -1;
  int cand[2] = {i, -1};
  for (int k = (i >= 0 ? i : fe->ntoks) - 1; k >= 0; k--) /* the token before */
    if (fe->toks[k].type != FT_WS && fe->toks[k].type != FT_COMMENT && fe->toks[k].type != FT_EOF) {
      cand[1] = k;
      break;
    }
  for (int c = 0; c < 2; c++) {
    int t = cand[c];
    if (t < 0 || fe->toks[t].type != FT_WORD) continue;
    const fe_tok *w = &fe->toks[t];
    if (!fe_sqlite_name_word(fe->orig + w->start, w->len)) continue;
    int seen = 0;
    for (int k = 0; k < nquoted; k++) seen |= quoted[k] == w->start;
    if (!seen) return w->start;
  }
  return -1;
}

/* ---------------------------------------------------------------- DuckDB's functions */

/* DuckDB's grammar is PostgreSQL's; where its functions differ from
 * SQLite's, the tree holds the SQLite form they mean, so that the query is
 * compared with others by what it computes and printed as SQLite runs it
 * (synthetic execution without the engine): strftime(d, fmt) is SQLite's
 * strftime(fmt, d); year(d) .. second(d), date_part('year', d) and
 * extract('year', d) are the field as an integer, CAST(strftime('%Y', d)
 * AS INTEGER); date_diff('day', a, b) (datediff) is CAST(julianday(b) -
 * julianday(a) AS INTEGER); today() is date('now'). */
static const struct {
  const char *part, *fmt;
} duck_parts[] = {{"year", "%Y"}, {"month", "%m"}, {"day", "%d"}, {"hour", "%H"}, {"minute", "%M"}, {"second", "%S"}};

static sqlsim_node *duck_string(sqlsim_arena *a, const char *text) {
  sqlsim_node *n = tree_node_new(a, SQLSIM_N_CONST, 0);
  n->op = SQLSIM_CONST_STRING;
  n->text = sqlsim_arena_strdup(a, text);
  return n;
}

/* A call of name with the given arguments. */
static sqlsim_node *duck_call(sqlsim_arena *a, const char *name, sqlsim_node *x, sqlsim_node *y) {
  sqlsim_node *f = tree_node_new(a, SQLSIM_N_FUNC, 3), *args = tree_node_new(a, SQLSIM_N_LIST, y ? 2 : 1); /* args, filter, window */
  f->text = sqlsim_arena_strdup(a, name);
  args->kids[0] = x;
  if (y) args->kids[1] = y;
  f->kids[0] = args;
  return f;
}

static sqlsim_node *duck_int(sqlsim_arena *a, sqlsim_node *e) {
  sqlsim_node *c = tree_node_new(a, SQLSIM_N_CAST, 1);
  c->text = sqlsim_arena_strdup(a, "INTEGER");
  c->kids[0] = e;
  return c;
}

/* The strftime format of a part's name ('year'), NULL for another. */
static const char *duck_fmt(const char *part) {
  for (size_t i = 0; part && i < sizeof duck_parts / sizeof duck_parts[0]; i++)
    if (!strcasecmp(part, duck_parts[i].part)) return duck_parts[i].fmt;
  return NULL;
}

static int is_string(const sqlsim_node *n) { return n && n->kind == SQLSIM_N_CONST && n->op == SQLSIM_CONST_STRING; }

/* n's SQLite form, or n itself. */
static sqlsim_node *duck_form(sqlsim_arena *a, sqlsim_node *n) {
  if (n->kind != SQLSIM_N_FUNC || !n->text || !n->nkids || !n->kids[0] || n->kids[0]->kind != SQLSIM_N_LIST) return n;
  sqlsim_node *args = n->kids[0];
  uint32_t k = args->nkids;
  sqlsim_node *x = k > 0 ? args->kids[0] : NULL, *y = k > 1 ? args->kids[1] : NULL;
  const char *f = n->text, *fmt;
  if (!strcasecmp(f, "strftime") && k == 2 && is_string(y) && !is_string(x)) {
    args->kids[0] = y, args->kids[1] = x;
    return n;
  }
  if (k == 1 && (fmt = duck_fmt(f))) return duck_int(a, duck_call(a, "strftime", duck_string(a, fmt), x));
  if (k == 2 && (!strcasecmp(f, "date_part") || !strcasecmp(f, "datepart") || !strcasecmp(f, "extract")) &&
      is_string(x) && (fmt = duck_fmt(x->text)))
    return duck_int(a, duck_call(a, "strftime", duck_string(a, fmt), y));
  if (k == 3 && (!strcasecmp(f, "date_diff") || !strcasecmp(f, "datediff")) && is_string(x) &&
      !strcasecmp(x->text, "day")) {
    sqlsim_node *d = tree_node_new(a, SQLSIM_N_BINOP, 2);
    d->op = SQLSIM_OP_SUB;
    d->kids[0] = duck_call(a, "julianday", args->kids[2], NULL);
    d->kids[1] = duck_call(a, "julianday", y, NULL);
    return duck_int(a, d);
  }
  if (k == 0 && !strcasecmp(f, "today")) return duck_call(a, "date", duck_string(a, "now"), NULL);
  return n;
}

static int duck_pre(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  sqlsim_arena *a = ctx;
  for (uint32_t i = 0; i < n->nkids; i++)
    if (n->kids[i]) n->kids[i] = duck_form(a, n->kids[i]);
  return SQLSIM_WALK_CONTINUE;
}

int sqlsim_parse(const char *sql, size_t len, const sqlsim_schema *schema, unsigned options,
                 sqlsim_query **out, sqlsim_error *err) {
  *out = NULL;
  if (len > (size_t)1 << 30)
    return sqlsim_error_set(err, SQLSIM_EUNSUPPORTED, 0, "query longer than 1 GiB");
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_query *q = sqlsim_arena_alloc(a, sizeof *q);
  q->arena = a;
  q->schema = schema;
  q->sql = sqlsim_arena_strndup(a, sql, len);
  q->sql_len = len;
  fe_result fe;
  int quote_at[MAX_REQUOTES], nquote = 0;
  sqlsim_error first = {0}; /* libpg_query's first error: the one reported when it stands */
  int rc, pg_failed = 0;
  int dialect = (options & SQLSIM_PARSE_POSTGRES) ? FE_POSTGRES
                : (options & SQLSIM_PARSE_MYSQL)
                    ? FE_MYSQL | ((options & SQLSIM_PARSE_PIPES_AS_CONCAT) ? FE_PIPES_CONCAT : 0) |
                          ((options & SQLSIM_PARSE_ANSI_QUOTES) ? FE_ANSI_QUOTES : 0)
                    : FE_SQLITE;
  for (;;) {
    if ((rc = fe_translate_dialect(a, q->sql, (int)len, dialect, quote_at, nquote, &fe, err))) goto fail;
    pg_used = 1;
    sqlsim_arena *scratch = scratch_arena();
    pg_doc doc;
    int requote = -1;
    if (pg_parse_doc(scratch, fe.out, &doc)) {
      rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "libpg_query returned unreadable JSON");
    } else if (!doc.root) {
      int at = doc.error_cursor > 0 ? char_to_byte(fe.out, fe.out_len, doc.error_cursor) : 0;
      int orig = fe_map(&fe, at);
      if (at >= fe.out_len) orig = (int)len;
      rc = sqlsim_error_set(nquote ? NULL : &first, SQLSIM_ESYNTAX, orig, "%s (at offset %d)", doc.error, orig);
      pg_failed = 1;
      /* PostgreSQL's own text is not read again: its keywords are its own */
      if (nquote < MAX_REQUOTES && dialect != FE_POSTGRES) requote = name_at(&fe, orig, quote_at, nquote);
    } else {
      pg_failed = 0;
      rc = parse_build_tree(a, &fe, doc.root, &q->root, err);
    }
    pg_doc_done(&doc);
    arena_reset(scratch);
    if (requote < 0) break;
    quote_at[nquote++] = requote; /* read that word as SQLite does, a name, and try again */
  }
  if ((pg_failed || (rc && nquote)) && err) *err = first; /* the text as written failed there */
  if (rc && nquote) rc = SQLSIM_ESYNTAX;
  if (rc) goto fail;
  if (options & SQLSIM_PARSE_DUCKDB) sqlsim_walk(q->root, duck_pre, NULL, a);
  if (!(options & SQLSIM_PARSE_NO_NORMALIZE) && (rc = parse_normalize(q, err))) goto fail;
  *out = q;
  return 0;
fail:
  sqlsim_arena_free(a);
  return rc;
}

unsigned sqlsim_dialect_parse_options(int dialect) {
  return dialect == SQLSIM_DIALECT_POSTGRES ? SQLSIM_PARSE_POSTGRES
         : dialect == SQLSIM_DIALECT_DUCKDB ? SQLSIM_PARSE_POSTGRES | SQLSIM_PARSE_DUCKDB
         : dialect == SQLSIM_DIALECT_MYSQL  ? SQLSIM_PARSE_MYSQL
                                            : 0;
}

/* The dialects' names: the first of each is its own. */
static const struct {
  const char *name;
  int dialect;
} dialect_names[] = {{"engine", SQLSIM_DIALECT_ENGINE},     {"sqlite", SQLSIM_DIALECT_SQLITE},
                     {"postgres", SQLSIM_DIALECT_POSTGRES}, {"postgresql", SQLSIM_DIALECT_POSTGRES},
                     {"mysql", SQLSIM_DIALECT_MYSQL},       {"mariadb", SQLSIM_DIALECT_MYSQL},
                     {"duckdb", SQLSIM_DIALECT_DUCKDB}};

int sqlsim_dialect_parse(const char *name, int *out, sqlsim_error *err) {
  for (size_t i = 0; name && i < sizeof dialect_names / sizeof dialect_names[0]; i++)
    if (!strcasecmp(name, dialect_names[i].name)) {
      *out = dialect_names[i].dialect;
      return 0;
    }
  return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                          "dialect '%.40s': sqlite, postgres, mysql, duckdb (or engine: the engine's)", name ? name : "");
}

const char *sqlsim_dialect_name(int dialect) {
  for (size_t i = 0; i < sizeof dialect_names / sizeof dialect_names[0]; i++)
    if (dialect_names[i].dialect == dialect) return dialect_names[i].name;
  return NULL;
}

void sqlsim_query_free(sqlsim_query *q) {
  if (q) sqlsim_arena_free(q->arena);
}
