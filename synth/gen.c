/* gen.c -- one small database from a schema and a pair's facts.
 *
 * Only the tables the queries read, and the tables their foreign keys point
 * at, get rows; every other table stays empty (no query can see it). Per
 * table, rows come in three kinds:
 *   planned rows: for each SELECT of either query, one row holding all its
 *     literals on that table (several literals in one row); for each literal,
 *     a row with it alone and rows with near misses (a number +-1, the other
 *     case of a word, a word that extends it, a LIKE pattern matched and
 *     almost matched);
 *   linked rows: for each planned parent row, a child row in every generated
 *     table that references it (literals pushed down the foreign keys), two
 *     for the first one;
 *   free rows: values by declared type (Spider's coarse text/number/time/
 *     boolean/others read as SQLite reads declared types), mostly unique.
 * Keys: primary keys and UNIQUE columns never repeat; a foreign key always
 * holds a value its parent has (no dangling keys); no NULLs. Group sizes are
 * skewed: one parent gets T+1 children and another T (T+1 when the shape asks
 * for ties), where T is the largest number a COUNT is compared with, and one
 * parent gets none. Sorted columns are distinct, or have their extremes
 * repeated when the shape asks for ties. Everything comes from a seeded
 * splitmix64 stream: the same facts and shape give the same rows.
 *
 * A realistic shape (the audit's databases) makes data as a real database
 * holds it rather than data made to refute: every table gets rows; a
 * literal's near misses are values on both sides of it, but not its other
 * case nor a word that extends it (a real column holds a name one way); a
 * child row's keys to one parent table name one parent row (a player's
 * api id and fifa api id are the same player's); a column holding times
 * holds them after its dates. */
#include "synth.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PLANNED 40  /* planned and linked rows per table */
#define MAX_ROWS 120    /* rows per table in all */

enum { C_INT, C_REAL, C_TEXT, C_DATE, C_BOOL, C_NUMTEXT };

typedef synth_val val;

typedef struct grow {
  int group;        /* the SELECT whose literals it holds, -1 */
  int link_fk;      /* a linked row: the foreign key (index in schema->fkeys) it follows, -1 */
  int link_row;     /* ... and the parent row */
  int shared;       /* a linked row: its other foreign keys go to the parents' first row */
  int up;           /* a near miss copied from SELECT up's row: its foreign keys go to that
                       SELECT's parents (it is no parent of that SELECT's rows), -1 */
} grow;

typedef struct gtab {
  int on;           /* generated */
  int nrows, nplanned;
  val *cells;       /* nrows x ncolumns of the table */
  grow *meta;       /* nrows */
  int cls_first;    /* index of the table's first column */
  int ncols;
} gtab;

typedef struct gen {
  const synth_facts *f;
  const sqlsim_schema *s;
  const synth_shape *sh;
  uint64_t rng;
  gtab *t;
  unsigned char *cls;
  double *lo, *hi;  /* numeric range of each column's literals (NaN when none) */
  sqlsim_arena *a;
} gen;

/* ---------------------------------------------------------------- randomness */

static uint64_t next(gen *g) {
  uint64_t z = (g->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static int below(gen *g, int n) { return n > 0 ? (int)(next(g) % (uint64_t)n) : 0; }
static double unit(gen *g) { return (double)(next(g) >> 11) / 9007199254740992.0; }

/* ---------------------------------------------------------------- column classes */

static int has(const char *type, const char *what) { return strstr(type, what) != NULL; }

/* SQLite's affinity rules on the declared type, with Spider's coarse names
 * (number, time, boolean, others), then what the literals say. */
static int column_class(const sqlsim_column *c, unsigned role, int num_facts, int text_facts, int real_facts) {
  char t[64];
  size_t n = 0;
  for (const char *p = c->type ? c->type : ""; *p && n + 1 < sizeof t; p++) t[n++] = ascii_lower(*p);
  t[n] = '\0';
  int cls;
  if (has(t, "int")) cls = C_INT;
  else if (has(t, "char") || has(t, "clob") || has(t, "text")) cls = C_TEXT;
  else if (has(t, "real") || has(t, "floa") || has(t, "doub") || has(t, "dec")) cls = C_REAL;
  else if (has(t, "number") || has(t, "numeric")) cls = real_facts ? C_REAL : C_INT; /* Spider's "number" */
  else if (has(t, "time") || has(t, "date") || has(t, "year")) cls = C_DATE;
  else if (has(t, "bool") || has(t, "bit")) cls = C_BOOL;
  else cls = C_TEXT;
  /* numbers stored as text: compared with numbers, or summed and averaged (text that
   * is no number averages to 0, and every AVG would agree on it) */
  if (cls == C_TEXT && (num_facts || (role & SYNTH_AGG)) && !text_facts) cls = C_NUMTEXT;
  if (cls == C_DATE && num_facts && !text_facts) cls = C_INT;      /* years */
  if (cls == C_BOOL && (num_facts || text_facts)) cls = text_facts ? C_TEXT : C_INT;
  /* the gold reads it with a date function: dates, whatever its declared text type */
  if ((role & SYNTH_DATE) && !has(t, "int") && !has(t, "real") && !has(t, "floa") && !has(t, "doub")) cls = C_DATE;
  return cls;
}

/* A column that names the things of an entity table (name, title in a table
 * with a primary key of one column): its values are unique, as such names
 * mostly are, even where a query groups by it or a literal is planted. In a
 * table of events (no such key: matches, visits) names repeat. */
static int name_like(const gen *g, const sqlsim_column *c) {
  const char *k = c->key ? c->key : "";
  if (c->pk || !(strstr(k, "name") || strstr(k, "title"))) return 0;
  const sqlsim_table *t = &g->s->tables[c->table];
  int npk = 0;
  for (int i = 0; i < t->ncolumns; i++) npk += g->s->columns[t->first_column + i].pk;
  return npk == 1;
}

/* ---------------------------------------------------------------- values */

static val v_int(long long i) { return (val){.kind = 'i', .i = i}; }
static val v_real(double r) { return (val){.kind = 'r', .r = r}; }
static val v_text(const char *t) { return (val){.kind = 't', .t = t}; }
static val v_null(void) { return (val){.kind = 'n'}; }

static double val_num(const val *v) {
  return v->kind == 'i' ? (double)v->i : v->kind == 'r' ? v->r : v->kind == 't' ? atof(v->t) : 0;
}

/* A literal as a value of its own kind. */
static val literal_value(const synth_fact *x) {
  if (!x->num) return v_text(x->text);
  if (!strpbrk(x->text, ".eE")) {
    char *end;
    errno = 0;
    long long i = strtoll(x->text, &end, 10);
    if (!*end && errno != ERANGE) return v_int(i); /* past 64 bits: a real, as SQLite reads it */
  }
  return v_real(atof(x->text));
}

static int all_digits(const char *s) {
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

/* The literal shifted by d: a number +-d, text with its last character moved
 * by d (dates and codes: '2010-01-05' -> '2010-01-06'); the digits of a date
 * field as a number of the same width ('2010' -> '2009'). */
static val shifted(gen *g, const synth_fact *x, int d) {
  if ((x->fmt || x->sub) && all_digits(x->text) && strlen(x->text) < 10) {
    long long n = atoll(x->text) + d;
    if (n >= 0) return v_text(sqlsim_arena_printf(g->a, "%0*lld", (int)strlen(x->text), n));
  }
  val v = literal_value(x);
  if (v.kind == 'i') /* at the ends of the integers, a real */
    return (d > 0 && v.i > LLONG_MAX - d) || (d < 0 && v.i < LLONG_MIN - d) ? v_real((double)v.i + d) : v_int(v.i + d);
  if (v.kind == 'r') return v_real(v.r + d);
  size_t n = strlen(x->text);
  if (!n) return v_text(d > 0 ? "a" : "");
  char *s = sqlsim_arena_strdup(g->a, x->text);
  unsigned char c = (unsigned char)s[n - 1];
  if ((d > 0 && c < 126) || (d < 0 && c > 33)) s[n - 1] = (char)(c + d);
  else s = sqlsim_arena_printf(g->a, "%s%s", x->text, d > 0 ? "0" : "");
  return v_text(s);
}

/* The other case of a word: 'France' -> 'france', 'cat' -> 'Cat'; NULL when it has no letter. */
static const char *other_case(gen *g, const char *t) {
  char *s = sqlsim_arena_strdup(g->a, t);
  for (char *p = s; *p; p++)
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
      *p = (char)(*p ^ 0x20);
      return s;
    }
  return NULL;
}

/* A text a LIKE/GLOB pattern matches: each wildcard run by a word when wide,
 * by nothing (or one letter for _ and ?) when not. */
static const char *pattern_text(gen *g, const char *p, int glob, int wide) {
  strbuf sb = {0};
  for (; *p; p++) {
    if (*p == (glob ? '*' : '%')) sb_puts(&sb, wide ? (sb.len ? " zq " : "Qz ") : "");
    else if (*p == (glob ? '?' : '_')) sb_putc(&sb, 'x');
    else sb_putc(&sb, *p);
  }
  char *s = sb_take(&sb);
  /* trim the spaces a wide match may leave at the ends */
  char *b = s;
  while (*b == ' ') b++;
  size_t n = strlen(b);
  while (n && b[n - 1] == ' ') b[--n] = '\0';
  const char *out = sqlsim_arena_strdup(g->a, b);
  free(s);
  return out;
}

/* Almost a match: the pattern's fixed text with its last character dropped. */
static const char *pattern_miss(gen *g, const char *p, int glob) {
  const char *m = pattern_text(g, p, glob, 0);
  size_t n = strlen(m);
  return n > 1 ? sqlsim_arena_strndup(g->a, m, n - 1) : "zz";
}

static int is_like(int op) {
  return op == SQLSIM_OP_LIKE || op == SQLSIM_OP_NOTLIKE || op == SQLSIM_OP_ILIKE || op == SQLSIM_OP_NOTILIKE;
}
static int is_glob(int op) { return op == SQLSIM_OP_GLOB || op == SQLSIM_OP_NOTGLOB; }

/* Whether column c holds a time of day too: its declared type says so, or the
 * gold reads the date alone out of it (SYNTH_TIME). */
static int holds_time(const gen *g, int c) {
  const char *type = g->s->columns[c].type;
  return (g->f->role[c] & SYNTH_TIME) || (type && (strstr(type, "time") || strstr(type, "TIME")));
}

/* A date or date-time text: the template 2000-06-15 12:30:45 with the
 * fields that fields[] sets (Y, m, d, H, M, S as 4/2 digits). */
static const char *date_text(gen *g, char f[6][5], int with_time) {
  if (with_time) return sqlsim_arena_printf(g->a, "%s-%s-%s %s:%s:%s", f[0], f[1], f[2], f[3], f[4], f[5]);
  return sqlsim_arena_printf(g->a, "%s-%s-%s", f[0], f[1], f[2]);
}

/* A value compared through strftime(fmt, col) or substr(col, k, ..), made the
 * date the column holds: strftime('%Y', d) = '2012' plants '2012-06-15';
 * substr(d, 6, 2) = '05' plants '2000-05-15'. Only on a date column (declared
 * so, or read by the gold with a date function: yearmonth's '201201' is text
 * the gold reads with substr, and stays as it is). v itself when it does not
 * fit the format. */
static val dated(gen *g, const synth_fact *x, val v) {
  if ((!x->fmt && !x->sub) || g->cls[x->column] != C_DATE || (v.kind != 't' && v.kind != 'i')) return v;
  const char *l = v.kind == 't' ? v.t : sqlsim_arena_printf(g->a, "%lld", v.i);
  char f[6][5] = {"2000", "06", "15", "12", "30", "45"};
  int with_time = holds_time(g, x->column);
  if (x->fmt) {
    static const char fields[] = "YmdHMS";
    int nfields = 0;
    for (const char *p = x->fmt; *p; p++) nfields += *p == '%';
    for (const char *p = x->fmt; *p; p++) {
      if (*p != '%') {
        if (*l++ != *p) return v;
        continue;
      }
      const char *k = p[1] ? strchr(fields, p[1]) : NULL;
      if (!k) return v; /* %j, %w, %s, ...: not planted */
      p++;
      int w = *k == 'Y' ? 4 : 2, i = (int)(k - fields);
      char digits[5] = {0};
      int n = 0;
      while (n < w && l[n] >= '0' && l[n] <= '9') n++;
      if (n < w && !(nfields == 1 && n > 0 && !l[n])) return v;
      memset(digits, '0', (size_t)w);
      memcpy(digits + (w - n), l, (size_t)n); /* '5' for %m: '05' */
      memcpy(f[i], digits, (size_t)w + 1);
      l += n;
      with_time |= i >= 3;
    }
    if (*l) return v;
    return v_text(date_text(g, f, with_time));
  }
  char *t = (char *)date_text(g, f, with_time);
  size_t at = (size_t)x->sub - 1, n = strlen(l);
  if (at + n > strlen(t)) return v;
  for (size_t i = 0; i < n; i++) {
    int digit = t[at + i] >= '0' && t[at + i] <= '9';
    if (digit ? !(l[i] >= '0' && l[i] <= '9') : l[i] != t[at + i]) return v;
    t[at + i] = l[i];
  }
  return v_text(t);
}

/* On a date column, LIKE 'prefix%' (prefix a start of a date, '2012-05%'):
 * a date that starts so; else an unset value. */
static val date_like(gen *g, const synth_fact *x) {
  size_t n = strlen(x->text);
  val none = {0};
  if (g->cls[x->column] != C_DATE || x->op != SQLSIM_OP_LIKE || n < 2 || x->text[n - 1] != '%' ||
      strpbrk(x->text, "_") || memchr(x->text, '%', n - 1))
    return none;
  synth_fact y = *x;
  y.text = sqlsim_arena_strndup(g->a, x->text, n - 1);
  y.sub = 1;
  y.fmt = NULL;
  val v = dated(g, &y, v_text(y.text));
  return v.kind == 't' && strlen(v.t) > n - 1 ? v : none;
}

/* A date SQLite's date functions read: YYYY-MM-DD (month 01-12, day
 * 01-31), alone or with HH:MM[:SS] after a space or T. */
static int date_shaped(const char *t) {
  static const char form[] = "dddd-dd-dd dd:dd:dd";
  size_t n = strlen(t);
  if (n != 10 && n != 16 && n != 19) return 0;
  for (size_t i = 0; i < n; i++) {
    int ok = form[i] == 'd' ? t[i] >= '0' && t[i] <= '9' : i == 10 ? t[i] == ' ' || t[i] == 'T' : t[i] == form[i];
    if (!ok) return 0;
  }
  int m = (t[5] - '0') * 10 + (t[6] - '0'), d = (t[8] - '0') * 10 + (t[9] - '0');
  return m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/* The year a date fact names: strftime('%Y..', d) or substr(d, 1, 4) with a
 * year, or a date; -1 when none. */
static int fact_year(const synth_fact *x) {
  const char *t = x->text;
  int digits4 = t[0] >= '0' && t[0] <= '9' && t[1] >= '0' && t[1] <= '9' && t[2] >= '0' && t[2] <= '9' &&
                t[3] >= '0' && t[3] <= '9';
  if (!digits4) return -1;
  if ((x->fmt && !strncmp(x->fmt, "%Y", 2)) || x->sub == 1 || (!x->fmt && !x->sub && date_shaped(t)))
    return (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
  return -1;
}

/* Whether v may be planted in x's column: a column the gold reads with a
 * date function holds dates, not the prediction's '2012' nor a near miss
 * made from a literal ('2012-01-01 Zq'); the gold's own literals are planted
 * as they are (it knows how the column is written). */
static int plausible(const gen *g, const synth_fact *x, const val *v, int made) {
  return (x->gold && !made) || !(g->f->role[x->column] & SYNTH_DATE) || v->kind != 't' || date_shaped(v->t);
}

/* A value the fact's condition holds for. */
static val satisfying(gen *g, const synth_fact *x) {
  val d = date_like(g, x);
  if (d.kind) return d;
  if (!is_like(x->op) && !is_glob(x->op)) {
    switch (x->op) {
    case SQLSIM_OP_NE: case SQLSIM_OP_GT: return dated(g, x, shifted(g, x, 1));
    case SQLSIM_OP_LT: return dated(g, x, shifted(g, x, -1));
    default: return dated(g, x, literal_value(x));
    }
  }
  switch (x->op) {
  case SQLSIM_OP_NE: return shifted(g, x, 1);
  case SQLSIM_OP_GT: return shifted(g, x, 1);
  case SQLSIM_OP_LT: return shifted(g, x, -1);
  case SQLSIM_OP_LIKE: case SQLSIM_OP_ILIKE: return v_text(pattern_text(g, x->text, 0, 1));
  case SQLSIM_OP_NOTLIKE: case SQLSIM_OP_NOTILIKE: return v_text(pattern_miss(g, x->text, 0));
  case SQLSIM_OP_GLOB: return v_text(pattern_text(g, x->text, 1, 1));
  case SQLSIM_OP_NOTGLOB: return v_text(pattern_miss(g, x->text, 1));
  default: return literal_value(x);
  }
}

/* The literal and its near misses (at most 4): values on both sides of the
 * condition's edge. */
static int near_values(gen *g, const synth_fact *x, val out[4]) {
  int n = 0;
  if (is_like(x->op) || is_glob(x->op)) {
    int glob = is_glob(x->op);
    val d = date_like(g, x);
    if (d.kind) { /* a date column holds dates only: the date, and a miss */
      out[n++] = d;
      out[n++] = v_text(pattern_miss(g, x->text, glob));
      return n;
    }
    out[n++] = v_text(pattern_text(g, x->text, glob, 0));
    out[n++] = v_text(pattern_text(g, x->text, glob, 1));
    out[n++] = v_text(pattern_miss(g, x->text, glob));
    return n;
  }
  out[n++] = literal_value(x);
  if (x->fmt || x->sub) { /* a date field: the date, the dates a step either side, and
                            * the year's first day (year >= 2012 against d > '2012-01-01') */
    out[0] = dated(g, x, out[0]);
    out[n++] = dated(g, x, shifted(g, x, 1));
    out[n++] = dated(g, x, shifted(g, x, -1));
    int y = fact_year(x);
    if (y >= 0 && g->cls[x->column] == C_DATE)
      out[n++] = v_text(sqlsim_arena_printf(g->a, holds_time(g, x->column) ? "%04d-01-01 00:00:00" : "%04d-01-01", y));
  } else if (x->num) {
    out[n++] = shifted(g, x, 1);
    out[n++] = shifted(g, x, -1);
  } else {
    const char *oc = g->sh->realistic ? NULL : other_case(g, x->text);
    int range = x->op != SQLSIM_OP_EQ && x->op != SQLSIM_OP_NE;
    /* a code of digits compared by range ('201308' for a year and month) is
     * written in its width: its near misses are the codes either side */
    int code = range && all_digits(x->text);
    if (oc) out[n++] = v_text(oc);
    if (!code && !g->sh->realistic) out[n++] = v_text(sqlsim_arena_printf(g->a, "%s %s", x->text, "Zq"));
    if (range) out[n++] = shifted(g, x, 1);
    if (code) out[n++] = shifted(g, x, -1);
  }
  return n;
}

/* The T of the group sizes: the largest number a COUNT is compared with, at
 * least 2. */
static int threshold(const gen *g) { return g->f->count_threshold > 2 ? g->f->count_threshold : 2; }

/* Which of pool groups row r joins: T+1 rows in one group, T (T+1 with ties)
 * in the next, the rest skewed towards the first groups. */
static int group_index(gen *g, int r, int pool) {
  int T = threshold(g), second = g->sh->ties ? T + 1 : T;
  if (r < T + 1) return 0;
  if (r < T + 1 + second) return 1 % pool;
  return (int)(pool * unit(g) * unit(g));
}

/* A column the gold tests with IS [NOT] NULL that may hold NULL (not a key,
 * not declared NOT NULL). */
static int nulls_in(const gen *g, int c) {
  const sqlsim_column *col = &g->s->columns[c];
  const synth_val null = {.kind = 'n'};
  return (g->f->role[c] & SYNTH_NULLS) && !g->f->no_nulls && !col->notnull && !col->unique && !col->pk &&
         synth_check_allows(g->f->checks, c, &null);
}

/* floor(v) as an integer, held within +-2^61 (a literal of a hundred digits
 * makes the range of a column: converting past the integers is undefined),
 * so that two of them and a row number add up within 64 bits. */
static long long floor_int(double v) {
  const double lim = 2305843009213693952.0; /* 2^61 */
  if (!(v > -lim)) return -(long long)lim; /* NaN too */
  if (v > lim) return (long long)lim;
  return (long long)floor(v);
}

/* One of the column's sample values (its real data's, sqlsim_column.samples)
 * as the column's class reads it: the r-th for a unique column (none past
 * the last), the k-th of a group's pool, else any. Drawn always on a
 * realistic database, on half the cells of another (the rest as generated,
 * to refute); a number column's sample must read as its number. Returns 0
 * when no sample fits. */
static int sample_value(gen *g, const sqlsim_column *col, int cls, int uniq, int pool, int k, int r, val *out) {
  if (!col->nsamples || cls == C_BOOL) return 0;
  if (!g->sh->realistic && below(g, 2)) return 0;
  if (uniq && r >= col->nsamples) return 0;
  const char *t = col->samples[uniq ? r : pool ? k % col->nsamples : below(g, col->nsamples)];
  char *end;
  switch (cls) {
  case C_INT: {
    long long i = strtoll(t, &end, 10);
    if (*end || end == t) return 0;
    *out = v_int(i);
    return 1;
  }
  case C_REAL: {
    double x = strtod(t, &end);
    if (*end || end == t || !isfinite(x)) return 0;
    *out = v_real(x);
    return 1;
  }
  case C_NUMTEXT:
    if (!synth_numeric_text(t)) return 0;
    *out = v_text(t);
    return 1;
  default:
    *out = v_text(t);
    return 1;
  }
}

/* A free value of column c for row r of n (r is a shuffled row number, so
 * unique values do not grow with the planted rows). */
static val free_value(gen *g, int c, int r, int n) {
  const sqlsim_column *col = &g->s->columns[c];
  unsigned role = g->f->role[c];
  int cls = g->cls[c];
  int uniq = col->unique || ((role & SYNTH_ORDER) && !g->sh->ties) || name_like(g, col);
  int pool = (role & SYNTH_GROUP) && !uniq ? (n / 3 > 2 ? n / 3 : 2) : 0;
  int k = pool ? group_index(g, r, pool) : uniq ? r : below(g, 8 * n + 8);
  double lo = g->lo[c], hi = g->hi[c];
  if ((role & SYNTH_CLOCK) && (cls == C_TEXT || cls == C_NUMTEXT)) { /* m:ss.fff, one digit of minutes */
    long ms = 60000 + (uniq ? 7919L * r + below(g, 1000) : pool ? 7919L * k : below(g, 480000));
    return v_text(sqlsim_arena_printf(g->a, "%ld:%02ld.%03ld", 1 + (ms / 60000) % 9, ms / 1000 % 60, ms % 1000));
  }
  val sv; /* around the literals, a number is the generator's unless the data is to look real */
  if ((isnan(lo) || g->sh->realistic || (cls != C_INT && cls != C_REAL)) && sample_value(g, col, cls, uniq, pool, k, r, &sv))
    return sv;
  switch (cls) {
  case C_INT:
    if (!isnan(lo)) {
      double span = hi - lo > 10 ? hi - lo : 10;
      if (uniq) return v_int(floor_int(lo - span) + 3 * r + below(g, 3));
      return v_int(floor_int(lo - span + unit(g) * 3 * span));
    }
    return v_int(uniq ? 1 + r : 1 + k);
  case C_REAL:
    if (!isnan(lo)) {
      double span = hi - lo > 10 ? hi - lo : 10;
      return v_real(round((lo - span + (uniq ? (r + unit(g)) * 3 * span / (n + 1) : unit(g) * 3 * span)) * 100) / 100);
    }
    return v_real(round(((uniq ? r : k) + unit(g)) * 1000) / 100);
  case C_NUMTEXT: {
    double base = isnan(lo) ? 1 : lo, span = isnan(lo) ? 200 : (hi - lo > 10 ? hi - lo : 10);
    long long v = floor_int(base - span + (uniq ? (double)r * 3 * span / (n + 1) : unit(g) * 3 * span));
    return v_text(sqlsim_arena_printf(g->a, "%lld", v));
  }
  case C_DATE: {
    int day = uniq ? 37 * r + below(g, 30) : (pool ? k * 97 : below(g, 11000));
    int y = 1990 + day / 336, m = 1 + (day / 28) % 12, d = 1 + day % 28;
    if (!isnan(lo)) { /* years around the literals' (at least ten either side) */
      int span = hi - lo > 10 ? (int)(hi - lo) : 10;
      y = (int)lo - span + (uniq ? (int)((long)r * 3 * span / (n + 1)) : below(g, 3 * span + 1));
      if (y < 1) y = 1;
      if (y > 9999) y = 9999;
    }
    if (g->sh->realistic && holds_time(g, c)) /* a real column of times holds them after the date */
      return v_text(sqlsim_arena_printf(g->a, "%04d-%02d-%02d %02d:%02d:00", y, m, d, (day * 7) % 24, (day * 13) % 60));
    return v_text(sqlsim_arena_printf(g->a, "%04d-%02d-%02d", y, m, d));
  }
  case C_BOOL: return v_int(pool ? k % 2 : below(g, 2));
  default:
    return v_text(sqlsim_arena_printf(g->a, "%c%s %d", col->name[0] >= 'a' && col->name[0] <= 'z' ? col->name[0] - 32 : col->name[0],
                                      col->name[0] ? col->name + 1 : "", uniq ? r + 1 : k + 1));
  }
}

/* ---------------------------------------------------------------- planning */

static val *cell(gen *g, int t, int r, int c) {
  return &g->t[t].cells[(size_t)r * (size_t)g->t[t].ncols + (size_t)(c - g->t[t].cls_first)];
}

/* Whether value v may go into column c (a unique column holds it nowhere yet). */
static int may_hold(gen *g, int c, const val *v) {
  const sqlsim_column *col = &g->s->columns[c];
  /* a column declared a number type holds no text that is not a number: a
   * literal compared with it that way names a value no database holds */
  if (v->kind == 't' && synth_numeric_column(col) && !synth_numeric_text(v->t)) return 0;
  if (!col->unique && !name_like(g, col)) return 1;
  int t = col->table;
  for (int r = 0; r < g->t[t].nrows; r++)
    if (synth_val_eq(cell(g, t, r, c), v)) return 0;
  return 1;
}

/* A new planned row in table t (or -1 when the table has enough). */
static int new_row(gen *g, int t, int group) {
  gtab *x = &g->t[t];
  if (x->nplanned >= MAX_PLANNED) return -1;
  int r = x->nrows++;
  x->nplanned++;
  x->meta[r] = (grow){.group = group, .link_fk = -1, .link_row = -1, .up = -1};
  return r;
}

/* A new planned row of table t for group grp (-1: none) holding row r's
 * values so far; keys stay free, to be filled unique. -1 when the table has
 * enough. */
static int copy_row(gen *g, int t, int r, int grp) {
  gtab *x = &g->t[t];
  int c = new_row(g, t, grp);
  if (c < 0) return -1;
  for (int col = x->cls_first; col < x->cls_first + x->ncols; col++)
    if (!g->s->columns[col].unique) *cell(g, t, c, col) = *cell(g, t, r, col);
  return c;
}

/* A SELECT's row holds one literal per column; another literal of that SELECT
 * on the same column (the other branch of SUM(IIF(year = '2010', ..)) -
 * SUM(IIF(year = '2011', ..))) gets copies of the row with it instead: one
 * copy or three, by the database, so the rows of each literal are counted
 * in either order across the databases. */
static void other_branches(gen *g, int t, int r, int grp) {
  const synth_facts *f = g->f;
  for (int i = 0; i < f->nfacts; i++) {
    const synth_fact *o = &f->facts[i];
    if (o->group != grp || g->s->columns[o->column].table != t || o->op != SQLSIM_OP_EQ) continue;
    val v = satisfying(g, o);
    if (synth_val_eq(cell(g, t, r, o->column), &v) || !may_hold(g, o->column, &v) || !plausible(g, o, &v, 0)) continue;
    const sqlsim_column *oc = &g->s->columns[o->column];
    int copies = oc->unique || name_like(g, oc) ? 1 : ((g->sh->seed >> (i % 32)) & 1) ? 3 : 1;
    for (int k = 0; k < copies; k++) {
      int c = copy_row(g, t, r, grp);
      if (c < 0) return;
      *cell(g, t, c, o->column) = v;
    }
  }
}

/* The gold's x IS [NOT] NULL tests of a SELECT at the edge: where it asks
 * for NULL, its row holds NULL; where it asks for a value, a copy of its row
 * holds NULL there. Else a NULL lands in the SELECT's own row by chance, the
 * gold returns nothing on that database, and a prediction without the test
 * agrees on every database that counts. */
static void null_edges(gen *g, int t, int r, int grp) {
  const synth_facts *f = g->f;
  for (int i = 0; i < f->nnulls; i++) {
    const struct synth_null *z = &f->nulls[i];
    if (z->group != grp || g->s->columns[z->column].table != t || !nulls_in(g, z->column)) continue;
    if (z->isnull) {
      if (!cell(g, t, r, z->column)->kind) *cell(g, t, r, z->column) = v_null();
      continue;
    }
    /* two copies: one under the SELECT's own parents, one under others (the
     * row a prediction without the test finds first may be either) */
    for (int own = 1; own >= 0; own--) {
      int k = copy_row(g, t, r, own ? grp : -1);
      if (k < 0) return;
      *cell(g, t, k, z->column) = v_null();
    }
  }
}

/* The row of a SELECT of the prediction alone, twice on about half the
 * databases (a bit of each one's seed). Each SELECT's row meets its own
 * conditions: where the two queries differ only by a literal ('EUR' for
 * 'CZK'), each counts one row, its own, and the counts agree everywhere.
 * With the prediction's row twice they do not; where the prediction's row
 * meets the gold's conditions too (the same literals, or an equivalent
 * condition), both queries see both copies and still agree. */
static void twice(gen *g, int t, int r, int grp) {
  const synth_facts *f = g->f;
  if (!((g->sh->seed >> 9) & 1)) return;
  for (int i = 0; i < f->nfacts; i++) {
    const synth_fact *x = &f->facts[i];
    if (x->group != grp) continue;
    const sqlsim_column *c = &g->s->columns[x->column];
    if (x->gold || (c->table == t && (c->unique || name_like(g, c)))) return; /* the gold's, or a name */
  }
  copy_row(g, t, r, grp);
}

/* A table only the prediction reads, on about half the databases (bit 13 of
 * the seed): the planted rows of its parents get no child there, so a join
 * the prediction adds to it drops them (a set without translations, a user
 * without posts), as it can on real data. Its own SELECT's rows still link
 * to their parents. */
static int childless(const gen *g, int t) { return ((g->sh->seed >> 13) & 1) && !g->f->gold_tables[t]; }

/* One row per SELECT and table with every literal of that SELECT (and copies
 * for its other literals on one column), a row per literal and near miss,
 * then the linked rows. */
static void plan(gen *g) {
  const synth_facts *f = g->f;
  int nt = g->s->ntables;
  /* each SELECT's row per table, -1 */
  int *own = sqlsim_arena_alloc(g->a, sizeof *own * (size_t)(f->ngroups * nt + 1));
  for (int grp = 0; grp < f->ngroups; grp++)
    for (int t = 0; t < nt; t++) {
      own[grp * nt + t] = -1;
      if (!g->t[t].on) continue;
      int r = -1;
      for (int i = 0; i < f->nfacts; i++) {
        const synth_fact *x = &f->facts[i];
        if (x->group != grp || g->s->columns[x->column].table != t) continue;
        if (x->identity && ((g->sh->seed >> 7) & 1)) continue; /* about half the databases, by seed */
        if (r < 0 && (r = new_row(g, t, grp)) < 0) break;
        val *v = cell(g, t, r, x->column);
        val s = satisfying(g, x);
        if (!v->kind && may_hold(g, x->column, &s) && plausible(g, x, &s, 0)) *v = s;
      }
      own[grp * nt + t] = r;
      if (r >= 0) {
        other_branches(g, t, r, grp);
        twice(g, t, r, grp);
        null_edges(g, t, r, grp);
      }
    }
  for (int i = 0; i < f->nfacts; i++) {
    const synth_fact *x = &f->facts[i];
    int t = g->s->columns[x->column].table;
    if (!g->t[t].on || x->identity) continue;
    val near[4];
    int n = near_values(g, x, near);
    /* on about half the databases (by seed), a near miss is a copy of its
     * SELECT's row, so the SELECT's other conditions on the table hold there
     * (subtypes = 'Angel Zq' where originalType = 'Summon - Angel') */
    int mine = ((g->sh->seed >> 11) & 1) && x->group >= 0 && x->group < f->ngroups ? own[x->group * nt + t] : -1;
    for (int k = 0; k < n; k++) {
      if (!may_hold(g, x->column, &near[k]) || !plausible(g, x, &near[k], k > 0)) continue;
      int r = mine >= 0 ? copy_row(g, t, mine, -1) : new_row(g, t, -1);
      if (r < 0) break;
      /* on half of those (bit 12), under the SELECT's parents too: a match
       * of October 2008 under the league the gold names, not under any */
      if (mine >= 0 && ((g->sh->seed >> 12) & 1)) g->t[t].meta[r].up = x->group;
      *cell(g, t, r, x->column) = near[k];
    }
  }
  /* literals pushed down: children for every planned parent row */
  const sqlsim_schema *s = g->s;
  for (int k = 0; k < f->nkeys; k++) {
    int from = f->keys[k].column, to = f->keys[k].ref_column;
    int ct = s->columns[from].table, pt = s->columns[to].table;
    if (!g->t[ct].on || !g->t[pt].on || ct == pt || childless(g, ct)) continue;
    int planned = g->t[pt].nplanned;
    for (int r = 0; r < planned && r < 8; r++)
      for (int copies = r == 0 ? 2 : 1; copies > 0; copies--) {
        int c = new_row(g, ct, -1);
        if (c < 0) break;
        g->t[ct].meta[c].link_fk = k;
        g->t[ct].meta[c].link_row = r;
        g->t[ct].meta[c].shared = (g->sh->seed & 1) == 0 || copies == 2;
      }
  }
}

/* ---------------------------------------------------------------- filling */

static int fk_of(const gen *g, int c) {
  for (int k = 0; k < g->f->nkeys; k++)
    if (g->f->keys[k].column == c && g->t[g->s->columns[g->f->keys[k].ref_column].table].on) return k;
  return -1;
}

static void fill_free(gen *g, int t) {
  gtab *x = &g->t[t];
  int first_group = -1; /* the table's first row holding a SELECT's literals */
  for (int r = 0; r < x->nplanned && first_group < 0; r++)
    if (x->meta[r].group >= 0) first_group = r;
  for (int i = 0; i < x->ncols; i++) {
    int c = x->cls_first + i;
    if (fk_of(g, c) >= 0) continue;
    /* a column tested with IS [NOT] NULL: a third of its free cells NULL, or the
     * test is true everywhere and cannot tell two queries apart */
    int nulls = nulls_in(g, c);
    int *perm = sqlsim_arena_alloc(g->a, sizeof *perm * (size_t)x->nrows);
    for (int r = 0; r < x->nrows; r++) perm[r] = r;
    for (int r = x->nrows - 1; r > 0; r--) {
      int j = below(g, r + 1), tmp = perm[r];
      perm[r] = perm[j];
      perm[j] = tmp;
    }
    for (int r = 0; r < x->nrows; r++) {
      val *v = cell(g, t, r, c);
      /* in every other database, the rows of different SELECTs share their
       * other values: INTERSECT and EXCEPT of two conditions find a row */
      if (!v->kind && g->sh->share && first_group >= 0 && r > first_group && x->meta[r].group >= 0 &&
          !g->s->columns[c].unique && !name_like(g, &g->s->columns[c]) && cell(g, t, first_group, c)->kind)
        *v = *cell(g, t, first_group, c);
      /* one NULL in a sorted column (two would tie at the top of an ascending sort) */
      if (!v->kind && nulls && ((g->f->role[c] & SYNTH_ORDER) ? perm[r] == 1 : perm[r] % 3 == 1)) *v = v_null();
      for (int tries = 0; !v->kind && tries < 20; tries++) {
        val w = free_value(g, c, perm[r] + tries * x->nrows, x->nrows);
        if (may_hold(g, c, &w)) *v = w;
      }
      if (!v->kind) *v = v_text(sqlsim_arena_printf(g->a, "u%d_%d", r, below(g, 1000000)));
    }
    /* ties: the largest and smallest values of a sorted column twice */
    if ((g->f->role[c] & SYNTH_ORDER) && g->sh->ties && !g->s->columns[c].unique && x->nrows >= 4) {
      int hi = -1, lo = -1; /* among the values, not the NULL */
      for (int r = 0; r < x->nrows; r++) {
        if (cell(g, t, r, c)->kind == 'n') continue;
        double a = val_num(cell(g, t, r, c));
        if (hi < 0 || a > val_num(cell(g, t, hi, c))) hi = r;
        if (lo < 0 || a < val_num(cell(g, t, lo, c))) lo = r;
      }
      /* the copies go to the last rows that hold neither extreme (nor NULL) */
      int a = -1, b = -1;
      for (int r = x->nrows - 1; r >= 0 && b < 0; r--) {
        if (r == hi || r == lo || cell(g, t, r, c)->kind == 'n') continue;
        if (a < 0) a = r;
        else b = r;
      }
      if (hi >= 0 && a >= 0) *cell(g, t, a, c) = *cell(g, t, hi, c);
      if (lo >= 0 && b >= 0) *cell(g, t, b, c) = *cell(g, t, lo, c);
    }
  }
}

/* Whether row r of table t would repeat an earlier row's primary key (of
 * several columns) if column c held v. */
static int key_repeats(gen *g, int t, int r, int c, const val *v) {
  gtab *x = &g->t[t];
  int npk = 0;
  for (int i = 0; i < x->ncols; i++) npk += g->s->columns[x->cls_first + i].pk;
  if (npk < 2 || !g->s->columns[c].pk) return 0;
  for (int q = 0; q < r; q++) {
    int same = 1;
    for (int i = 0; i < x->ncols && same; i++) {
      int k = x->cls_first + i;
      if (!g->s->columns[k].pk) continue;
      const val *a = k == c ? v : cell(g, t, r, k), *b = cell(g, t, q, k);
      same = a->kind && b->kind && synth_val_eq(a, b);
    }
    if (same) return 1;
  }
  return 0;
}

/* Parent rows for a foreign key's free child rows: T+1 children for one
 * parent, T (or T+1 with ties) for another, one parent without any, the
 * rest skewed towards the first rows. */
/* Realistic: the parent row another key of child row r to the same parent
 * table already names (a row's player_api_id and player_fifa_api_id are one
 * player's), -1 when none does. */
static int twin_parent(gen *g, int k, int r) {
  const sqlsim_schema *s = g->s;
  const synth_facts *f = g->f;
  int ct = s->columns[f->keys[k].column].table, pt = s->columns[f->keys[k].ref_column].table;
  for (int j = 0; j < f->nkeys; j++) {
    if (j == k || s->columns[f->keys[j].column].table != ct || s->columns[f->keys[j].ref_column].table != pt) continue;
    const val *v = cell(g, ct, r, f->keys[j].column);
    if (!v->kind || v->kind == 'n') continue;
    for (int q = 0; q < g->t[pt].nrows; q++)
      if (synth_val_eq(cell(g, pt, q, f->keys[j].ref_column), v)) return q;
  }
  return -1;
}

static void fill_key(gen *g, int k) {
  const sqlsim_schema *s = g->s;
  const synth_facts *f = g->f;
  int from = f->keys[k].column, to = f->keys[k].ref_column;
  int ct = s->columns[from].table, pt = s->columns[to].table;
  gtab *c = &g->t[ct], *p = &g->t[pt];
  if (!p->nrows) return;
  int T = threshold(g);
  int a = below(g, p->nplanned ? p->nplanned : p->nrows), b = p->nrows > 1 ? (a + 1 + below(g, p->nrows - 1)) % p->nrows : a;
  int empty = p->nrows >= 3 ? p->nrows - 1 : -1; /* a free row, last: no child */
  if (empty == a || empty == b) empty = -1;
  int unique = s->columns[from].unique;
  /* a key the gold tests with IS [NULL|NOT NULL] (a post's ParentId, a
   * last editor): a third of the rows that no link needs hold NULL, or the
   * test holds on every row (no dangling key either way) */
  int nulls = nulls_in(g, from);
  int drop = childless(g, ct) && p->nrows > p->nplanned;
  int seq = 0;
  for (int r = 0; r < c->nrows; r++) {
    val *v = cell(g, ct, r, from);
    if (v->kind) continue;
    const grow *m = &c->meta[r];
    if (nulls && m->link_fk != k && m->group < 0 && (r + (int)(g->sh->seed & 1)) % 3 == 1) {
      *v = v_null();
      continue;
    }
    int pr = -1;
    if (m->link_fk == k) pr = m->link_row;
    else if (m->group >= 0 || m->up >= 0) {
      int grp = m->group >= 0 ? m->group : m->up;
      for (int q = 0; q < p->nplanned; q++)
        if (p->meta[q].group == grp) pr = q;
      /* none of its own SELECT: one of a SELECT a key subquery joins it to
       * (results.driverId = (SELECT driverId FROM drivers WHERE ..)) */
      for (int q = 0; q < p->nplanned && pr < 0; q++) {
        int h = p->meta[q].group;
        if (h >= 0 && h < f->ngroups && grp < f->ngroups && f->related[h] == f->related[grp]) pr = q;
      }
    }
    /* a linked row's other keys go to the parents' first row, but for a key
     * the child holds once (its primary key, UNIQUE): rows with one value
     * there would all but one be refused (a link table of one row) */
    if (pr < 0 && m->link_fk >= 0 && m->shared && !unique) pr = 0;
    if (pr < 0 && g->sh->realistic) pr = twin_parent(g, k, r);
    if (pr < 0 && unique) { /* one child per parent, and the last parent without one */
      int avail = empty >= 0 ? p->nrows - 1 : p->nrows;
      pr = (int)((unsigned)(r + 3) % (unsigned)avail); /* r * 7 + 3 was one parent whenever avail was 7 */
    }
    if (pr < 0) {
      /* skewed: T+1 children for a, T (T+1 with ties) for b, the rest towards
       * the first parents; spread: two for a, then one per parent while they last */
      int big = g->sh->fanout || g->f->count_threshold ? T + 1 : 2;
      int second = g->sh->fanout || g->f->count_threshold ? (g->sh->ties ? T + 1 : T) : 0;
      if (seq < big) pr = a;
      else if (seq < big + second) pr = b;
      else if (!g->sh->fanout && seq - big - second < p->nrows - 2) {
        pr = (a + 1 + (seq - big - second)) % p->nrows;
        if (pr == empty || pr == b) pr = (pr + 1) % p->nrows;
      } else {
        do pr = (int)(p->nrows * unit(g) * unit(g));
        while (pr == empty && p->nrows > 1);
      }
      seq++;
    }
    if (pr >= p->nrows) pr = p->nrows - 1;
    /* not under a planted parent (but for its own SELECT's rows, above) */
    if (drop && m->group < 0 && m->up < 0 && pr < p->nplanned) pr = p->nplanned + pr % (p->nrows - p->nplanned);
    /* a key of several columns (a link table) must not repeat: the next parent */
    for (int tries = 0; tries < p->nrows && key_repeats(g, ct, r, from, cell(g, pt, pr, to)); tries++)
      pr = (pr + 1) % p->nrows;
    val *pv = cell(g, pt, pr, to);
    if (pv->kind) *v = *pv;
  }
  /* planted values (near misses among them) the parent lacks: no dangling keys */
  for (int r = 0; r < c->nrows; r++) {
    val *v = cell(g, ct, r, from);
    if (!v->kind || v->kind == 'n') continue;
    int found = 0;
    for (int q = 0; q < p->nrows && !found; q++) found = synth_val_eq(cell(g, pt, q, to), v);
    if (!found) *v = *cell(g, pt, below(g, p->nrows), to);
  }
}

/* A key of several columns (link (a, b) -> pair (a, b)) names one parent row,
 * but fill_key fills its columns one at a time: a child row whose values no
 * parent row holds together takes them all from the parent its first column
 * names (else from one in turn), so the database is one the schema allows. */
static void join_whole_keys(gen *g) {
  const sqlsim_schema *s = g->s;
  synth_fkey_groups grp;
  if (synth_fkey_groups_of(s, &grp)) {
    synth_fkey_groups_free(&grp);
    return;
  }
  for (int k = 0; k < grp.n; k++) {
    const int *pairs = &grp.order[grp.start[k]];
    int m = grp.len[k];
    if (m < 2) continue;
    int ct = s->columns[s->fkeys[pairs[0]].column].table, pt = s->columns[s->fkeys[pairs[0]].ref_column].table;
    gtab *c = &g->t[ct], *p = &g->t[pt];
    if (!c->on || !p->on || !p->nrows) continue;
    for (int r = 0; r < c->nrows; r++) {
      int open = 0, found = -1, first = -1;
      for (int j = 0; j < m; j++) {
        const val *v = cell(g, ct, r, s->fkeys[pairs[j]].column);
        open |= !v->kind || v->kind == 'n';
      }
      if (open) continue; /* a NULL asks for no parent */
      for (int q = 0; q < p->nrows && found < 0; q++) {
        int all = 1;
        for (int j = 0; j < m && all; j++)
          all = synth_val_eq(cell(g, ct, r, s->fkeys[pairs[j]].column), cell(g, pt, q, s->fkeys[pairs[j]].ref_column));
        if (all) found = q;
        else if (first < 0 && synth_val_eq(cell(g, ct, r, s->fkeys[pairs[0]].column), cell(g, pt, q, s->fkeys[pairs[0]].ref_column)))
          first = q;
      }
      if (found >= 0) continue;
      int q = first >= 0 ? first : r % p->nrows;
      for (int j = 0; j < m; j++) {
        const val *pv = cell(g, pt, q, s->fkeys[pairs[j]].ref_column);
        if (pv->kind) *cell(g, ct, r, s->fkeys[pairs[j]].column) = *pv;
      }
    }
  }
  synth_fkey_groups_free(&grp);
}

/* Rows a child table needs so a parent can have T+1 children. */
static int rows_wanted(gen *g, int t) {
  gtab *x = &g->t[t];
  int n = g->sh->rows;
  int grouped = 0;
  for (int i = 0; i < x->ncols; i++) grouped |= g->f->role[x->cls_first + i] & SYNTH_GROUP;
  for (int k = 0; k < g->f->nkeys && !grouped; k++) grouped = g->s->columns[g->f->keys[k].column].table == t;
  if (grouped && n < 2 * threshold(g) + 4) n = 2 * threshold(g) + 4;
  int free_rows = n - x->nplanned;
  if (free_rows < 2) free_rows = 2;
  n = x->nplanned + free_rows;
  return n > MAX_ROWS ? MAX_ROWS : n;
}

/* ---------------------------------------------------------------- what the schema declares */

/* Every value made to fit what the schema declares: a column of INTEGER
 * affinity holds integers (a real value there is rounded to the nearest, so
 * equal values stay equal: ties the shape made stay ties); the CHECK rules synth_checks
 * reads (a list, a range, a length). Key columns keep what the keys made: a
 * row they do not fit is left out when loaded. */
static void conform(gen *g) {
  const sqlsim_schema *s = g->s;
  const synth_checks *k = g->f->checks;
  for (int t = 0; t < s->ntables; t++) {
    gtab *x = &g->t[t];
    if (!x->on) continue;
    for (int i = 0; i < x->ncols; i++) {
      int c = x->cls_first + i;
      const sqlsim_column *col = &s->columns[c];
      int integer = core_type_affinity(col->type) == 'I';
      int rules = k && k->col[c].any && !col->pk && !col->unique && fk_of(g, c) < 0;
      if (!integer && !rules) continue;
      for (int r = 0; r < x->nrows; r++) {
        val *v = cell(g, t, r, c);
        if (integer && v->kind == 'r' && isfinite(v->r) && fabs(v->r) < 9e15) *v = v_int(llround(v->r));
        if (rules) synth_check_conform(k, c, r, integer, g->a, v);
      }
    }
  }
}

/* ---------------------------------------------------------------- loading */

/* The generated rows into db (synth_rows_load): a row a constraint refuses
 * (a key drawn twice) is left out, and *rows counts those inserted. */
static int load(gen *g, sqlite3 *db, unsigned char *filled, char *why, size_t wn, long *rows) {
  const sqlsim_schema *s = g->s;
  val **cells = sqlsim_arena_alloc(g->a, sizeof(val *) * (size_t)(s->ntables + 1));
  int *nrows = sqlsim_arena_alloc(g->a, sizeof(int) * (size_t)(s->ntables + 1));
  if (!cells || !nrows) {
    snprintf(why, wn, "out of memory");
    return -1;
  }
  for (int t = 0; t < s->ntables; t++) {
    cells[t] = g->t[t].on ? g->t[t].cells : NULL;
    nrows[t] = g->t[t].on ? g->t[t].nrows : 0;
  }
  return synth_rows_load(db, s, cells, nrows, NULL, 1, filled, rows, why, wn);
}

/* ---------------------------------------------------------------- entry points */

synth_shape synth_shape_of(int k, uint64_t seed) {
  /* rows, ties: plain, larger, ties, tiny, larger with ties, mid */
  static const int rows[] = {8, 14, 8, 6, 12, 10};
  static const int ties[] = {0, 0, 1, 0, 1, 0};
  static const int share[] = {1, 0, 0, 1, 1, 0};
  static const int fanout[] = {1, 1, 1, 1, 1, 0};
  int i = k % 6;
  return (synth_shape){.rows = rows[i], .ties = ties[i], .share = share[i], .fanout = fanout[i],
                       .seed = mix64(seed + 0x51ed27ULL * (uint64_t)(k + 1))};
}

long synth_fill(sqlite3 *db, const synth_facts *f, const synth_shape *sh, unsigned char *filled, char *why,
                size_t wn) {
  const sqlsim_schema *s = f->schema;
  gen g = {.f = f, .s = s, .sh = sh, .rng = sh->seed, .a = sqlsim_arena_new()};
  if (!g.a) {
    snprintf(why, wn, "out of memory");
    return -1;
  }
  g.t = sqlsim_arena_alloc(g.a, sizeof *g.t * (size_t)(s->ntables + 1));
  g.cls = sqlsim_arena_alloc(g.a, (size_t)s->ncolumns + 1);
  g.lo = sqlsim_arena_alloc(g.a, sizeof(double) * (size_t)(s->ncolumns + 1));
  g.hi = sqlsim_arena_alloc(g.a, sizeof(double) * (size_t)(s->ncolumns + 1));
  /* the tables read (realistic: every table), and every table their keys lead to */
  for (int t = 0; t < s->ntables; t++)
    g.t[t].on = (f->tables[t] || sh->realistic) && strncmp(s->tables[t].key, "sqlite_", 7) != 0;
  for (int round = 0; round < s->ntables; round++) {
    int changed = 0;
    for (int k = 0; k < f->nkeys; k++) {
      int ct = s->columns[f->keys[k].column].table, pt = s->columns[f->keys[k].ref_column].table;
      if (g.t[ct].on && !g.t[pt].on && strncmp(s->tables[pt].key, "sqlite_", 7) != 0) changed = g.t[pt].on = 1;
    }
    if (!changed) break;
  }
  for (int c = 0; c < s->ncolumns; c++) {
    int nf = 0, tf = 0, rf = 0, ylo = -1, yhi = -1;
    g.lo[c] = g.hi[c] = NAN;
    for (int i = 0; i < f->nfacts; i++) {
      const synth_fact *x = &f->facts[i];
      if (x->column != c) continue;
      int y = fact_year(x); /* the years the literals name, for a date column's free dates */
      if (y >= 0 && (ylo < 0 || y < ylo)) ylo = y;
      if (y > yhi) yhi = y;
      /* a date field read through strftime (or substr on a date column) says
       * nothing of the column's class */
      if (x->fmt || (x->sub && (f->role[c] & SYNTH_DATE))) continue;
      if (x->num || is_like(x->op) || is_glob(x->op)) {
        if (!x->num) {
          tf++;
          continue;
        }
        nf++;
        rf |= strpbrk(x->text, ".eE") != NULL;
        double v = atof(x->text);
        if (isnan(g.lo[c]) || v < g.lo[c]) g.lo[c] = v;
        if (isnan(g.hi[c]) || v > g.hi[c]) g.hi[c] = v;
      } else {
        tf++;
      }
    }
    g.cls[c] = (unsigned char)column_class(&s->columns[c], f->role[c], nf, tf, rf);
    if (g.cls[c] == C_DATE) { /* free dates fall on both sides of those years (born after 1930 is not
                               * true of every generated row); none named: NaN */
      g.lo[c] = ylo >= 0 ? ylo : NAN;
      g.hi[c] = ylo >= 0 ? yhi : NAN;
    }
  }
  /* a key between a number column and a text column (tables.json has them):
   * the text side holds numbers written as text, which the number side can
   * hold too, so a child row can have its parent in a database the schema
   * allows */
  for (int k = 0; k < s->nfkeys; k++) {
    int a = s->fkeys[k].column, b = s->fkeys[k].ref_column;
    int na = synth_numeric_column(&s->columns[a]), nb = synth_numeric_column(&s->columns[b]);
    if (na != nb && (g.cls[na ? b : a] == C_TEXT || g.cls[na ? b : a] == C_DATE)) g.cls[na ? b : a] = C_NUMTEXT;
  }
  for (int t = 0; t < s->ntables; t++) {
    gtab *x = &g.t[t];
    x->cls_first = s->tables[t].first_column;
    x->ncols = s->tables[t].ncolumns;
    if (!x->on) continue;
    x->cells = sqlsim_arena_alloc(g.a, sizeof(val) * (size_t)MAX_ROWS * (size_t)(x->ncols + 1));
    x->meta = sqlsim_arena_alloc(g.a, sizeof(grow) * MAX_ROWS);
  }
  plan(&g);
  for (int t = 0; t < s->ntables; t++) {
    gtab *x = &g.t[t];
    if (!x->on) continue;
    int n = rows_wanted(&g, t);
    for (int r = x->nrows; r < n; r++) x->meta[r] = (grow){.group = -1, .link_fk = -1, .link_row = -1, .up = -1};
    if (n > x->nrows) x->nrows = n;
  }
  for (int t = 0; t < s->ntables; t++)
    if (g.t[t].on) fill_free(&g, t);
  /* foreign keys, parents before children (as far as the keys allow) */
  unsigned char *done = sqlsim_arena_alloc(g.a, (size_t)f->nkeys + 1);
  for (int round = 0; round <= f->nkeys; round++)
    for (int k = 0; k < f->nkeys; k++) {
      if (done[k]) continue;
      int from = f->keys[k].column, to = f->keys[k].ref_column;
      int ct = s->columns[from].table, pt = s->columns[to].table;
      if (!g.t[ct].on || !g.t[pt].on) {
        done[k] = 1;
        continue;
      }
      int ready = 1; /* the referenced column is not itself waiting for its key */
      for (int j = 0; j < f->nkeys; j++)
        if (!done[j] && j != k && f->keys[j].column == to) ready = 0;
      if (!ready && round < f->nkeys) continue;
      fill_key(&g, k);
      done[k] = 1;
    }
  join_whole_keys(&g);
  /* a key column no foreign key could fill */
  for (int t = 0; t < s->ntables; t++) {
    gtab *x = &g.t[t];
    if (!x->on) continue;
    for (int i = 0; i < x->ncols; i++)
      for (int r = 0; r < x->nrows; r++) {
        val *v = cell(&g, t, r, x->cls_first + i);
        if (!v->kind) *v = free_value(&g, x->cls_first + i, r, x->nrows);
      }
  }
  conform(&g);
  long rows = 0;
  int rc = load(&g, db, filled, why, wn, &rows);
  sqlsim_arena_free(g.a);
  return rc ? -1 : rows;
}
