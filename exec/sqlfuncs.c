/* sqlfuncs.c -- SQLite's string functions whose cost can grow faster than
 * their input, replaced on sandboxed connections.
 *
 * SQLite interrupts a statement between virtual-machine steps, never inside
 * one function call, and four built-in functions can take quadratic time in
 * one call: instr() and replace() compare the needle at every position,
 * LIKE/GLOB backtrack over every '%' or '*' position, trim() tests every
 * character against every member of its set. With 16 MiB values that is
 * hours in one call. The versions here give the same results (checked against
 * SQLite's own by tests/test_sqlfuncs.c and the fuzz target fuzz_sqlfuncs):
 * instr() and replace() find matches with memmem() (linear); LIKE, GLOB and
 * trim() keep SQLite's algorithms (LIKE and GLOB as an iterative match with
 * one backtracking point, the standard form of the same matcher) and check
 * the connection's deadline every 64K comparisons, stopping with an error the
 * executor reports as a timeout.
 *
 * printf() and format() are checked for the one call that spins (see below)
 * and otherwise run as SQLite's own.
 *
 * Registered with SQLITE_INNOCUOUS so views of an untrusted schema can still
 * use them. SQLite no longer uses an index for `col LIKE 'abc%'` on these
 * connections (docs/execution.md). */
#include "sandbox.h"

#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

/* The most arguments SQLite lets a function call have (SQLITE_MAX_FUNCTION_ARG). */
#define SQLITE_MAX_FUNCTION_ARG_HELPER 127

/* ---------------------------------------------------------------- deadline */

#define CHECK_EVERY (1u << 16)

/* Counts work; every CHECK_EVERY units reads the clock. Returns 1 when the
 * deadline has passed (and marks the guard), else 0. */
static int over_time(sbx_guard *g, unsigned long *work, unsigned long add) {
  *work += add;
  if (*work < CHECK_EVERY) return 0;
  *work = 0;
  if (!sbx_past_deadline(g)) return 0;
  g->stopped = 1;
  return 1;
}

static void stopped(sqlite3_context *ctx) {
  sqlite3_result_error(ctx, "interrupted: over the time limit", -1);
  sqlite3_result_error_code(ctx, SQLITE_INTERRUPT);
}

/* ---------------------------------------------------------------- UTF-8 as SQLite reads it */

/* sqlite3Utf8Read(): a lead byte and every continuation byte after it make one
 * character; overlong forms, surrogates and U+FFFE/F read as U+FFFD; a lone
 * continuation byte is a character of its own. */
static const unsigned char utf8_trans1[] = {
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x00, 0x01, 0x02, 0x03, 0x00, 0x01, 0x00, 0x00,
};

static uint32_t utf8_read(const unsigned char **pz) {
  uint32_t c = *((*pz)++);
  if (c >= 0xc0) {
    c = utf8_trans1[c - 0xc0];
    while ((**pz & 0xc0) == 0x80) c = (c << 6) + (0x3f & *((*pz)++));
    if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
  }
  return c;
}

static inline uint32_t next_char(const unsigned char **pz) { return **pz < 0x80 ? *((*pz)++) : utf8_read(pz); }

/* SQLITE_SKIP_UTF8 */
static inline const unsigned char *skip_char(const unsigned char *z) {
  if (*(z++) >= 0xc0)
    while ((*z & 0xc0) == 0x80) z++;
  return z;
}

static inline uint32_t fold(uint32_t c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* ---------------------------------------------------------------- LIKE and GLOB */

typedef struct pattern_info {
  uint32_t all, one; /* '%' '_' or '*' '?'; 0 when the escape character took the role */
  int set;           /* GLOB: '[' opens a character class */
  int nocase;        /* LIKE: ASCII letters compare without case */
} pattern_info;

enum { TOK_END, TOK_ALL, TOK_ONE, TOK_CHAR, TOK_SET, TOK_FAIL };

typedef struct ptok {
  int kind;
  uint32_t c;                /* TOK_CHAR */
  const unsigned char *set;  /* TOK_SET: just past '[' */
} ptok;

/* Reads the class whose text starts at set (just past '[') as SQLite does,
 * testing character c: returns the position past its ']' with *has set, or
 * NULL when the class is not terminated. */
static const unsigned char *class_read(const unsigned char *set, uint32_t c, int *has) {
  uint32_t prior = 0;
  int seen = 0, invert = 0;
  uint32_t c2 = next_char(&set);
  if (c2 == '^') {
    invert = 1;
    c2 = next_char(&set);
  }
  if (c2 == ']') {
    if (c == ']') seen = 1;
    c2 = next_char(&set);
  }
  while (c2 && c2 != ']') {
    if (c2 == '-' && *set != ']' && *set != 0 && prior > 0) {
      c2 = next_char(&set);
      if (c >= prior && c <= c2) seen = 1;
      prior = 0;
    } else {
      if (c == c2) seen = 1;
      prior = c2;
    }
    c2 = next_char(&set);
  }
  *has = seen ^ invert;
  return c2 ? set : NULL;
}

/* Reads one element of the pattern at *pp: the end, '%'/'*', '_'/'?', a
 * literal (escaped or not), a [...] class, or something that can never match
 * (an escape at the very end, an unterminated class). */
static ptok pattern_token(const unsigned char **pp, const pattern_info *pi, uint32_t esc) {
  ptok t = {TOK_END, 0, NULL};
  if (!**pp) return t;
  uint32_t c = next_char(pp);
  if (c == pi->all) {
    t.kind = TOK_ALL;
  } else if (c == pi->one) {
    t.kind = TOK_ONE;
  } else if (c == esc && pi->set) { /* GLOB '[' */
    int has;
    t.set = *pp;
    const unsigned char *end = class_read(t.set, 0, &has);
    if (end) {
      t.kind = TOK_SET;
      *pp = end;
    } else {
      t.kind = TOK_FAIL;
      *pp += strlen((const char *)*pp); /* at the terminating NUL */
    }
  } else if (c == esc && esc) { /* LIKE escape */
    if (!**pp) {
      t.kind = TOK_FAIL;
    } else {
      t.kind = TOK_CHAR;
      t.c = next_char(pp);
    }
  } else {
    t.kind = TOK_CHAR;
    t.c = c;
  }
  return t;
}

/* Matches str against pat: 1, 0, or -1 when the deadline passed. Every
 * element but '%' matches one character, so one backtracking point (the
 * last '%') is enough: on a mismatch the string position after that '%'
 * moves one character on. O(len(pat) * len(str)) at worst. */
static int pattern_match(const unsigned char *pat, const unsigned char *str, const pattern_info *pi, uint32_t esc,
                         sbx_guard *g) {
  const unsigned char *star_p = NULL, *star_s = NULL;
  unsigned long work = 0;
  for (;;) {
    if (over_time(g, &work, 1)) return -1;
    const unsigned char *p = pat;
    ptok t = pattern_token(&p, pi, esc);
    int ok;
    if (t.kind == TOK_END) {
      if (!*str) return 1;
      ok = 0;
    } else if (t.kind == TOK_ALL) {
      /* a run of '%' and '_': each '_' takes one character */
      for (;;) {
        const unsigned char *q = p;
        ptok u = pattern_token(&q, pi, esc);
        if (u.kind == TOK_ALL) {
          p = q;
        } else if (u.kind == TOK_ONE) {
          if (!*str) return 0;
          str = skip_char(str);
          p = q;
        } else {
          break;
        }
      }
      if (!*p) return 1;
      star_p = pat = p;
      star_s = str;
      continue;
    } else if (!*str || t.kind == TOK_FAIL) {
      ok = 0;
    } else {
      const unsigned char *s = str;
      uint32_t c2 = next_char(&s);
      if (t.kind == TOK_ONE) ok = 1;
      else if (t.kind == TOK_SET) class_read(t.set, c2, &ok);
      else ok = t.c == c2 || (pi->nocase && t.c < 0x80 && c2 < 0x80 && fold(t.c) == fold(c2));
      if (ok) {
        pat = p;
        str = s;
        continue;
      }
    }
    if (!star_p || !*star_s) return 0;
    star_s = skip_char(star_s);
    pat = star_p;
    str = star_s;
  }
}

static void like_func(sqlite3_context *ctx, int argc, sqlite3_value **argv, pattern_info pi) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  sbx_guard *g = sqlite3_user_data(ctx);
  /* this SQLite is built with LIKE_DOESNT_MATCH_BLOBS */
  if (sqlite3_value_type(argv[0]) == SQLITE_BLOB || sqlite3_value_type(argv[1]) == SQLITE_BLOB) {
    sqlite3_result_int(ctx, 0);
    return;
  }
  if (sqlite3_value_bytes(argv[0]) > sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, -1)) {
    sqlite3_result_error(ctx, "LIKE or GLOB pattern too complex", -1);
    return;
  }
  uint32_t esc;
  if (argc == 3) {
    const unsigned char *e = sqlite3_value_text(argv[2]);
    if (!e) return;
    const unsigned char *after = e;
    int nchars = 0;
    while (*after) {
      after = skip_char(after);
      nchars++;
    }
    if (nchars != 1) {
      sqlite3_result_error(ctx, "ESCAPE expression must be a single character", -1);
      return;
    }
    esc = utf8_read(&e);
    if (esc == pi.all) pi.all = 0;
    if (esc == pi.one) pi.one = 0;
  } else {
    esc = pi.set ? '[' : 0;
  }
  const unsigned char *pat = sqlite3_value_text(argv[0]);
  const unsigned char *str = sqlite3_value_text(argv[1]);
  if (!pat || !str) return;
  int m = pattern_match(pat, str, &pi, esc, g);
  if (m < 0) stopped(ctx);
  else sqlite3_result_int(ctx, m);
}

static void like2(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  like_func(ctx, argc, argv, (pattern_info){'%', '_', 0, 1});
}

static void glob2(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  like_func(ctx, argc, argv, (pattern_info){'*', '?', 1, 0});
}

/* ---------------------------------------------------------------- instr */

/* instr(haystack, needle): 1 + the characters before the first occurrence,
 * 0 when none; bytes when both are BLOBs. A text match starts where SQLite's
 * scan can stand: at the start, or at a byte that does not continue a
 * character -- which memmem() can only find there unless the needle itself
 * starts with a continuation byte, and then only the start can match. */
static void instr_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  int th = sqlite3_value_type(argv[0]), tn = sqlite3_value_type(argv[1]);
  if (th == SQLITE_NULL || tn == SQLITE_NULL) return;
  int nh = sqlite3_value_bytes(argv[0]), nn = sqlite3_value_bytes(argv[1]);
  if (nn <= 0) {
    sqlite3_result_int(ctx, 1);
    return;
  }
  const unsigned char *h, *n;
  sqlite3_value *c1 = NULL, *c2 = NULL;
  int text;
  if (th == SQLITE_BLOB && tn == SQLITE_BLOB) {
    h = sqlite3_value_blob(argv[0]);
    n = sqlite3_value_blob(argv[1]);
    text = 0;
  } else if (th != SQLITE_BLOB && tn != SQLITE_BLOB) {
    h = sqlite3_value_text(argv[0]);
    n = sqlite3_value_text(argv[1]);
    text = 1;
  } else {
    c1 = sqlite3_value_dup(argv[0]);
    c2 = sqlite3_value_dup(argv[1]);
    h = c1 ? sqlite3_value_text(c1) : NULL;
    nh = c1 ? sqlite3_value_bytes(c1) : 0;
    n = c2 ? sqlite3_value_text(c2) : NULL;
    nn = c2 ? sqlite3_value_bytes(c2) : 0;
    text = 1;
  }
  if (!n || (nh && !h)) {
    sqlite3_result_error_nomem(ctx);
  } else {
    long at = -1;
    if (nn <= nh) {
      if (text && (n[0] & 0xc0) == 0x80) {
        if (!memcmp(h, n, (size_t)nn)) at = 0;
      } else {
        const unsigned char *m = memmem(h, (size_t)nh, n, (size_t)nn);
        if (m) at = (long)(m - h);
      }
    }
    long pos = 0;
    if (at == 0) pos = 1;
    else if (at > 0 && !text) pos = at + 1;
    else if (at > 0) {
      pos = 1; /* position 0, plus every character start in (0, at] */
      for (long i = 1; i <= at; i++) pos += (h[i] & 0xc0) != 0x80;
    }
    sqlite3_result_int64(ctx, pos);
  }
  sqlite3_value_free(c1);
  sqlite3_value_free(c2);
}

/* ---------------------------------------------------------------- replace */

static void replace_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  const unsigned char *str = sqlite3_value_text(argv[0]);
  if (!str) return;
  sqlite3_int64 ns = sqlite3_value_bytes(argv[0]);
  const unsigned char *pat = sqlite3_value_text(argv[1]);
  if (!pat) return;
  if (!pat[0]) { /* an empty pattern (or one starting with NUL) leaves X as it is, type and all */
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  sqlite3_int64 np = sqlite3_value_bytes(argv[1]);
  const unsigned char *rep = sqlite3_value_text(argv[2]);
  if (!rep) return;
  sqlite3_int64 nr = sqlite3_value_bytes(argv[2]);
  sqlite3_int64 limit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
  if (ns + 1 > limit) {
    sqlite3_result_error_toobig(ctx);
    return;
  }
  sbx_guard *g = sqlite3_user_data(ctx);
  unsigned long work = 0;
  sqlite3_int64 cap = ns + 1, len = 0, i = 0;
  unsigned char *out = sqlite3_malloc64((sqlite3_uint64)cap);
  if (!out) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  while (i <= ns - np) {
    const unsigned char *m = memmem(str + i, (size_t)(ns - i), pat, (size_t)np);
    if (!m) break;
    sqlite3_int64 at = (sqlite3_int64)(m - str);
    /* linear in all, but a memmem() that checks its whole haystack per call
     * (a sanitizer's) is not: the clock is read every thousand matches */
    if (over_time(g, &work, (unsigned long)(at - i + np + nr) + 64)) {
      sqlite3_free(out);
      stopped(ctx);
      return;
    }
    sqlite3_int64 need = len + (at - i) + nr + (ns - at - np) + 1;
    if (need - 1 > limit && nr > np) {
      sqlite3_free(out);
      sqlite3_result_error_toobig(ctx);
      return;
    }
    if (need > cap) {
      sqlite3_int64 ncap = cap * 2 > need ? cap * 2 : need;
      unsigned char *o = sqlite3_realloc64(out, (sqlite3_uint64)ncap);
      if (!o) {
        sqlite3_free(out);
        sqlite3_result_error_nomem(ctx);
        return;
      }
      out = o;
      cap = ncap;
    }
    memcpy(out + len, str + i, (size_t)(at - i));
    len += at - i;
    memcpy(out + len, rep, (size_t)nr);
    len += nr;
    i = at + np;
  }
  memcpy(out + len, str + i, (size_t)(ns - i));
  len += ns - i;
  out[len] = 0;
  sqlite3_result_text64(ctx, (const char *)out, (sqlite3_uint64)len, sqlite3_free, SQLITE_UTF8);
}

/* ---------------------------------------------------------------- trim */

/* trim(X, Y), ltrim, rtrim: the characters of Y (as SQLite splits them) are
 * removed from the ends of X, the first member of Y whose bytes match taking
 * precedence. user data bit 1: left, bit 2: right. */
static void trim_func(sqlite3_context *ctx, int argc, sqlite3_value **argv, int flags) {
  (void)argc;
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  const unsigned char *in = sqlite3_value_text(argv[0]);
  if (!in) return;
  sqlite3_int64 nin = sqlite3_value_bytes(argv[0]);
  const unsigned char *set = sqlite3_value_text(argv[1]);
  if (!set) return;
  sqlite3_int64 nchar = 0;
  for (const unsigned char *z = set; *z; nchar++) z = skip_char(z);
  sbx_guard *g = sqlite3_user_data(ctx);
  if (nchar > 0) {
    sqlite3_uint64 bytes = (sqlite3_uint64)nchar * (sizeof(char *) + sizeof(unsigned));
    if (bytes > (sqlite3_uint64)sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1)) { /* as SQLite's own allocation does */
      sqlite3_result_error_toobig(ctx);
      return;
    }
    const unsigned char **chars = sqlite3_malloc64((sqlite3_uint64)nchar * (sizeof *chars + sizeof(unsigned)));
    if (!chars) {
      sqlite3_result_error_nomem(ctx);
      return;
    }
    unsigned *lens = (unsigned *)(chars + nchar);
    sqlite3_int64 k = 0;
    for (const unsigned char *z = set; *z; k++) {
      chars[k] = z;
      z = skip_char(z);
      lens[k] = (unsigned)(z - chars[k]);
    }
    unsigned long work = 0;
    for (int side = 1; side <= 2; side++) {
      if (!(flags & side)) continue;
      while (nin > 0) {
        sqlite3_int64 i;
        unsigned len = 0;
        for (i = 0; i < nchar; i++) {
          len = lens[i];
          const unsigned char *at = side == 1 ? in : in + nin - len;
          if (len <= nin && !memcmp(at, chars[i], len)) break;
        }
        if (over_time(g, &work, (unsigned long)i + 1)) {
          sqlite3_free(chars);
          stopped(ctx);
          return;
        }
        if (i >= nchar) break;
        if (side == 1) in += len;
        nin -= len;
      }
    }
    sqlite3_free(chars);
  }
  sqlite3_result_text64(ctx, (const char *)in, (sqlite3_uint64)nin, SQLITE_TRANSIENT, SQLITE_UTF8);
}

static void trim_both(sqlite3_context *c, int n, sqlite3_value **v) { trim_func(c, n, v, 3); }
static void trim_left(sqlite3_context *c, int n, sqlite3_value **v) { trim_func(c, n, v, 1); }
static void trim_right(sqlite3_context *c, int n, sqlite3_value **v) { trim_func(c, n, v, 2); }

/* ---------------------------------------------------------------- printf */

/* printf()/format(): one call with `%.*c` repeats a character once per unit
 * of precision whatever the result limit, so printf('%.*c', 999999999, 'x')
 * spins for seconds inside one call. The override checks the format for a
 * %c whose precision passes the value limit (the result could only be "too
 * big") and otherwise hands the call, arguments bound as they are, to the
 * built-in printf on a plain in-memory connection of the thread's own. */
static _Thread_local sqlite3 *helper;
static _Thread_local sqlite3_stmt *helper_stmt[SQLITE_MAX_FUNCTION_ARG_HELPER];
/* A thread that made a helper closes it when it exits (threads of a batch,
 * a caller's threads in Python), or earlier through sqlsim_thread_cleanup. */
static pthread_key_t helper_key;
static pthread_once_t helper_once = PTHREAD_ONCE_INIT;
static void helper_exit(void *unused) { sqlfuncs_thread_cleanup(); }
static void helper_key_init(void) { pthread_key_create(&helper_key, helper_exit); }

/* The precision of every %c in fmt, as SQLite's printf reads its
 * conversions; 1 when one passes limit. */
static int char_precision_over(const unsigned char *f, int argc, sqlite3_value **argv, sqlite3_int64 limit) {
  int arg = 1;
  while (*f) {
    if (*f++ != '%') continue;
    int dot = 0;
    sqlite3_int64 prec = -1;
    uint32_t digits = 0;
    for (; *f; f++) {
      unsigned char c = *f;
      if (c == '.') {
        dot = 1;
        prec = 0;
        digits = 0;
      } else if (c == '*') {
        sqlite3_int64 v = arg < argc ? sqlite3_value_int64(argv[arg]) : 0;
        arg++;
        if (dot) {
          int p = (int)v;
          prec = p < 0 ? (p >= -2147483647 ? -(sqlite3_int64)p : -1) : p;
        }
      } else if (c >= '0' && c <= '9') {
        /* SQLite 3.40 reads digits into a 32-bit unsigned that wraps, then
         * keeps 31 bits: '%.4294967297c' is one character */
        if (dot) {
          digits = digits * 10u + (unsigned)(c - '0');
          prec = digits & 0x7fffffff;
        }
      } else if (!strchr("-+ #!,l", c)) {
        break;
      }
    }
    if (!*f) break;
    unsigned char conv = *f++;
    if (conv == 'c' && prec > limit) return 1;
    if (conv != '%' && conv != 'n') arg++;
  }
  return 0;
}

static void printf_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  sqlite3 *db = sqlite3_context_db_handle(ctx);
  const unsigned char *fmt = argc >= 1 ? sqlite3_value_text(argv[0]) : NULL;
  if (!fmt) return;
  sqlite3_int64 limit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
  if (char_precision_over(fmt, argc, argv, limit)) {
    sqlite3_result_error_toobig(ctx);
    return;
  }
  if (argc > SQLITE_MAX_FUNCTION_ARG_HELPER) {
    sqlite3_result_error(ctx, "too many arguments to printf()", -1);
    return;
  }
  sbx_account *prev = sbx_enter(NULL); /* the helper's own memory is nobody's query */
  if (!helper) {
    pthread_once(&helper_once, helper_key_init);
    pthread_setspecific(helper_key, (void *)1);
  }
  if (!helper && sqlite3_open_v2(":memory:", &helper, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    sqlite3_close(helper);
    helper = NULL;
  }
  sqlite3_stmt *st = helper ? helper_stmt[argc - 1] : NULL;
  if (helper && !st) {
    strbuf sb = {0};
    sb_puts(&sb, "SELECT printf(");
    for (int i = 0; i < argc; i++) sb_printf(&sb, "%s?%d", i ? "," : "", i + 1);
    sb_puts(&sb, ")");
    if (sqlite3_prepare_v3(helper, sb.buf, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) st = NULL;
    helper_stmt[argc - 1] = st;
    sb_free(&sb);
  }
  sbx_leave(prev);
  if (!st) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_limit(helper, SQLITE_LIMIT_LENGTH, (int)limit);
  for (int i = 0; i < argc; i++) sqlite3_bind_value(st, i + 1, argv[i]);
  if (sqlite3_step(st) == SQLITE_ROW) sqlite3_result_value(ctx, sqlite3_column_value(st, 0));
  else sqlite3_result_error(ctx, sqlite3_errmsg(helper), -1);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
}

void sqlfuncs_thread_cleanup(void) {
  for (int i = 0; i < SQLITE_MAX_FUNCTION_ARG_HELPER; i++) {
    sqlite3_finalize(helper_stmt[i]);
    helper_stmt[i] = NULL;
  }
  sqlite3_close(helper);
  helper = NULL;
}

/* ---------------------------------------------------------------- registration */

int sqlfuncs_register(sqlite3 *db, sbx_guard *g) {
  static const struct {
    const char *name;
    int nargs;
    void (*fn)(sqlite3_context *, int, sqlite3_value **);
  } funcs[] = {
      {"like", 2, like2},     {"like", 3, like2},      {"glob", 2, glob2},       {"instr", 2, instr_func},
      {"replace", 3, replace_func}, {"trim", 2, trim_both}, {"ltrim", 2, trim_left}, {"rtrim", 2, trim_right},
      {"printf", -1, printf_func}, {"format", -1, printf_func},
  };
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
    int rc = sqlite3_create_function_v2(db, funcs[i].name, funcs[i].nargs, flags, g, funcs[i].fn, NULL, NULL, NULL);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}
