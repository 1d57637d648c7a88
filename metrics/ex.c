/* ex.c -- execution accuracy, with both published semantics.
 *
 * BIRD (evaluation_ex.py): set(pred rows) == set(gold rows) -- order and
 * duplicates ignored, column order kept, values compared as Python does.
 * Spider test-suite (exec_eval.result_eq): both empty is a match; otherwise
 * equal row and column counts and some permutation of the prediction's
 * columns under which the rows are equal as multisets, or as sequences when
 * order matters. The official code samples rows to prune permutations; here
 * a permutation is pruned when a column's multiset (or sequence) of values
 * differs, which removes only permutations that cannot match, so the answer
 * is the same. Both work on the executor's cell hashes. */
#include "ex.h"
#include "exec/exec.h"
#include "parser/tree.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t row_hash(const sqlsim_result *r, long row, const int *perm) {
  uint64_t h = FNV_OFFSET ^ (uint64_t)r->ncols;
  for (int i = 0; i < r->ncols; i++) {
    uint64_t c = r->cells[row * r->ncols + (perm ? perm[i] : i)];
    h = fnv1a_word(h, c);
    h ^= h >> 29;
  }
  return h;
}

/* Sorted, de-duplicated row hashes; returns the count. */
static long row_set(const sqlsim_result *r, uint64_t *out) {
  for (long i = 0; i < r->nrows; i++) out[i] = row_hash(r, i, NULL);
  qsort(out, (size_t)r->nrows, sizeof *out, cmp_u64);
  long n = 0;
  for (long i = 0; i < r->nrows; i++)
    if (!n || out[n - 1] != out[i]) out[n++] = out[i];
  return n;
}

long ex_distinct_rows(const sqlsim_result *r) {
  if (r->nrows <= 0) return 0;
  uint64_t *a = malloc(sizeof *a * (size_t)r->nrows);
  if (!a) return 1; /* no memory: a lower bound */
  long n = row_set(r, a);
  free(a);
  return n;
}

int sqlsim_ex_bird(const sqlsim_result *g, const sqlsim_result *p) {
  if (g->nrows == 0 || p->nrows == 0) return g->nrows == 0 && p->nrows == 0;
  uint64_t *a = malloc(sizeof *a * (size_t)g->nrows), *b = malloc(sizeof *b * (size_t)p->nrows);
  long na = row_set(g, a), nb = row_set(p, b);
  int eq = na == nb && (g->ncols == p->ncols) && !memcmp(a, b, sizeof *a * (size_t)na);
  free(a);
  free(b);
  return eq;
}

/* The set of values column c holds, hashed. */
static uint64_t column_sig(const sqlsim_result *r, int c, uint64_t *tmp) {
  for (long i = 0; i < r->nrows; i++) tmp[i] = r->cells[i * r->ncols + c];
  qsort(tmp, (size_t)r->nrows, sizeof *tmp, cmp_u64);
  uint64_t h = FNV_OFFSET;
  for (long i = 0; i < r->nrows; i++)
    if (!i || tmp[i] != tmp[i - 1]) h = fnv1a_word(h, tmp[i]);
  return h;
}

/* r's cells with its columns in an order that does not depend on how the
 * query wrote them: by the set of values each holds (malloc'd; NULL on no
 * memory). */
static uint64_t *columns_canonical(const sqlsim_result *r) {
  int n = r->ncols;
  long cells = r->nrows * n;
  uint64_t *out = malloc(sizeof *out * (size_t)(cells ? cells : 1)), *tmp = malloc(sizeof *tmp * (size_t)(r->nrows + 1));
  uint64_t *sig = malloc(sizeof *sig * (size_t)(n ? n : 1));
  int *perm = malloc(sizeof *perm * (size_t)(n ? n : 1));
  if (!out || !tmp || !sig || !perm) {
    free(out), free(tmp), free(sig), free(perm);
    return NULL;
  }
  for (int c = 0; c < n; c++) sig[c] = column_sig(r, c, tmp), perm[c] = c;
  for (int i = 1; i < n; i++) /* insertion sort by signature: few columns */
    for (int k = i; k > 0 && sig[perm[k - 1]] > sig[perm[k]]; k--) {
      int t = perm[k];
      perm[k] = perm[k - 1];
      perm[k - 1] = t;
    }
  for (long i = 0; i < r->nrows; i++)
    for (int k = 0; k < n; k++) out[i * n + k] = r->cells[i * n + perm[k]];
  free(tmp), free(sig), free(perm);
  return out;
}

int ex_sets_any_column_order(const sqlsim_result *g, const sqlsim_result *p) {
  if (sqlsim_ex_bird(g, p)) return 1;
  if (g->ncols != p->ncols || g->ncols < 2 || !g->nrows || !p->nrows) return 0;
  sqlsim_result a = *g, b = *p;
  a.cells = columns_canonical(g);
  b.cells = columns_canonical(p);
  int eq = a.cells && b.cells && sqlsim_ex_bird(&a, &b);
  free(a.cells);
  free(b.cells);
  return eq;
}

uint64_t ex_answer_hash(const sqlsim_result *r) {
  sqlsim_result a = *r;
  uint64_t *canon = r->ncols > 1 ? columns_canonical(r) : NULL;
  if (canon) a.cells = canon;
  uint64_t *rows = malloc(sizeof *rows * (size_t)(r->nrows + 1));
  uint64_t h = fnv1a_word(FNV_OFFSET, (uint64_t)r->ncols);
  long n = rows ? row_set(&a, rows) : 0;
  for (long i = 0; i < n; i++) h = fnv1a_word(h, rows[i]);
  free(rows);
  free(canon);
  return h ? h : 1;
}

int sqlsim_same_rows(const sqlsim_result *a, const sqlsim_result *b, int ordered) {
  if (a->ncols != b->ncols || a->nrows != b->nrows) return 0;
  uint64_t *x = malloc(sizeof *x * (size_t)(a->nrows + 1)), *y = malloc(sizeof *y * (size_t)(b->nrows + 1));
  for (long i = 0; i < a->nrows; i++) {
    x[i] = row_hash(a, i, NULL);
    y[i] = row_hash(b, i, NULL);
  }
  if (!ordered) {
    qsort(x, (size_t)a->nrows, sizeof *x, cmp_u64);
    qsort(y, (size_t)b->nrows, sizeof *y, cmp_u64);
  }
  int eq = !memcmp(x, y, sizeof *x * (size_t)a->nrows);
  free(x);
  free(y);
  return eq;
}

static uint64_t key_hash(const sqlsim_result *r, long row, int nkeys) {
  uint64_t h = 0x6b657973ULL;
  for (int j = r->ncols - nkeys; j < r->ncols; j++) h = mix64(h ^ r->cells[row * r->ncols + j]);
  return h;
}

int sqlsim_same_rows_ties(const sqlsim_result *a, const sqlsim_result *b, int nkeys) {
  if (a->ncols != b->ncols || a->nrows != b->nrows || nkeys < 1 || nkeys > a->ncols) return 0;
  for (long i = 0; i < a->nrows; i++)
    if (key_hash(a, i, nkeys) != key_hash(b, i, nkeys)) return 0;
  uint64_t *x = malloc(sizeof *x * (size_t)(a->nrows + 1)), *y = malloc(sizeof *y * (size_t)(b->nrows + 1));
  int eq = 1;
  for (long s = 0, e; s < a->nrows && eq; s = e) {
    uint64_t k = key_hash(a, s, nkeys);
    for (e = s; e < a->nrows && key_hash(a, e, nkeys) == k; e++) {
      x[e - s] = row_hash(a, e, NULL);
      y[e - s] = row_hash(b, e, NULL);
    }
    qsort(x, (size_t)(e - s), sizeof *x, cmp_u64);
    qsort(y, (size_t)(e - s), sizeof *y, cmp_u64);
    eq = !memcmp(x, y, sizeof *x * (size_t)(e - s));
  }
  free(x);
  free(y);
  return eq;
}

/* ---------------------------------------------------------------- Spider */

typedef struct perm_search {
  const sqlsim_result *g, *p;
  int ordered, n;
  const uint64_t *gsig, *psig; /* per column signature */
  int *perm, *used;
  uint64_t *grows, *prows;     /* scratch: nrows each */
  long tried, limit;
} perm_search;

/* Column signature: the multiset (sorted) or the sequence of its cells. */
static uint64_t col_sig(const sqlsim_result *r, int col, int ordered, uint64_t *scratch) {
  for (long i = 0; i < r->nrows; i++) scratch[i] = r->cells[i * r->ncols + col];
  if (!ordered) qsort(scratch, (size_t)r->nrows, sizeof *scratch, cmp_u64);
  uint64_t h = FNV_OFFSET;
  for (long i = 0; i < r->nrows; i++) {
    h = fnv1a_word(h, scratch[i]);
    h ^= h >> 31;
  }
  return h;
}

static int rows_match(perm_search *s) {
  for (long i = 0; i < s->p->nrows; i++) s->prows[i] = row_hash(s->p, i, s->perm);
  if (s->ordered) return !memcmp(s->prows, s->grows, sizeof *s->grows * (size_t)s->g->nrows);
  qsort(s->prows, (size_t)s->p->nrows, sizeof *s->prows, cmp_u64);
  return !memcmp(s->prows, s->grows, sizeof *s->grows * (size_t)s->g->nrows);
}

static int search(perm_search *s, int i) {
  if (i == s->n) {
    s->tried++;
    return rows_match(s);
  }
  for (int j = 0; j < s->n; j++) {
    if (s->used[j] || s->gsig[i] != s->psig[j]) continue;
    if (s->tried >= s->limit) return 0;
    s->used[j] = 1;
    s->perm[i] = j;
    if (search(s, i + 1)) return 1;
    s->used[j] = 0;
  }
  return 0;
}

int sqlsim_ex_spider(const sqlsim_result *g, const sqlsim_result *p, int ordered) {
  if (g->nrows == 0 && p->nrows == 0) return 1;
  if (g->nrows != p->nrows) return 0;
  if (g->ncols != p->ncols) return 0;
  int n = g->ncols;
  perm_search s = {g, p, ordered, n, NULL, NULL, NULL, NULL, NULL, NULL, 0, 1000000};
  uint64_t *gsig = malloc(sizeof *gsig * (size_t)n), *psig = malloc(sizeof *psig * (size_t)n);
  uint64_t *scratch = malloc(sizeof *scratch * (size_t)g->nrows);
  for (int c = 0; c < n; c++) {
    gsig[c] = col_sig(g, c, ordered, scratch);
    psig[c] = col_sig(p, c, ordered, scratch);
  }
  s.gsig = gsig;
  s.psig = psig;
  s.perm = calloc((size_t)n, sizeof *s.perm);
  s.used = calloc((size_t)n, sizeof *s.used);
  s.grows = malloc(sizeof *s.grows * (size_t)g->nrows);
  s.prows = malloc(sizeof *s.prows * (size_t)p->nrows);
  for (long i = 0; i < g->nrows; i++) s.grows[i] = row_hash(g, i, NULL);
  if (!ordered) qsort(s.grows, (size_t)g->nrows, sizeof *s.grows, cmp_u64);
  int ok = search(&s, 0);
  free(gsig);
  free(psig);
  free(scratch);
  free(s.perm);
  free(s.used);
  free(s.grows);
  free(s.prows);
  return ok;
}

/* ---------------------------------------------------------------- Spider text */

static int word_at(const char *p, const char *start, const char *w) {
  size_t l = strlen(w);
  if (strncasecmp(p, w, l)) return 0;
  char before = p > start ? p[-1] : ' ', after = p[l];
  int wb = !((before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z') ||
             (before >= '0' && before <= '9') || before == '_');
  int wa = !((after >= 'a' && after <= 'z') || (after >= 'A' && after <= 'Z') ||
             (after >= '0' && after <= '9') || after == '_');
  return wb && wa;
}

char *sqlsim_spider_exec_text(const char *sql) { return sqlsim_spider_exec_text_opts(sql, 0); }

char *sqlsim_spider_exec_text_opts(const char *sql, int keep_distinct) {
  strbuf sb = {0};
  sb_putn(&sb, "", 0);
  for (const char *p = sql; *p;) {
    /* string literals and quoted names pass through untouched */
    if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
      char close = *p == '[' ? ']' : *p;
      const char *q = p + 1;
      while (*q && *q != close) q++;
      if (*q) q++;
      sb_putn(&sb, p, (size_t)(q - p));
      p = q;
      continue;
    }
    /* postprocess(): "> =" "< =" "! =" */
    if ((*p == '>' || *p == '<' || *p == '!') && p[1] == ' ' && p[2] == '=') {
      sb_putc(&sb, *p);
      sb_putc(&sb, '=');
      p += 3;
      continue;
    }
    /* remove_distinct(): every DISTINCT keyword goes */
    if (!keep_distinct && word_at(p, sql, "distinct")) {
      p += 8;
      continue;
    }
    /* replace_cur_year(): YEAR(CURDATE()) -> 2020 */
    if (word_at(p, sql, "year")) {
      const char *q = p + 4;
      while (*q == ' ' || *q == '\t' || *q == '\n') q++;
      if (*q == '(') {
        q++;
        while (*q == ' ') q++;
        if (!strncasecmp(q, "curdate", 7)) {
          q += 7;
          while (*q == ' ') q++;
          if (*q == '(') {
            q++;
            while (*q == ' ') q++;
            if (*q == ')') {
              q++;
              while (*q == ' ') q++;
              if (*q == ')') {
                q++;
                while (*q && strchr(" \t\r\n", *q)) q++;
                sb_puts(&sb, "2020");
                p = q;
                continue;
              }
            }
          }
        }
      }
    }
    sb_putc(&sb, *p++);
  }
  return sb_take(&sb);
}

int sqlsim_spider_order_matters(const char *g) {
  for (const char *p = g; *p; p++)
    if (!strncasecmp(p, "order by", 8)) return 1;
  return 0;
}

/* ---------------------------------------------------------------- items */

/* Spider's verdict for a prediction's execution text ptext on db, against
 * the gold's result gs there: 1 match, 0 not, -1 the prediction failed (why
 * then says why, when given). The one comparison every Spider EX here runs
 * through: an item on one database, a test suite, plug_value. */
static int spider_on(sqlsim_db *db, const char *ptext, const sqlsim_result *gs, int ordered, char *why, size_t wn) {
  sqlsim_result psp;
  sqlsim_exec(db, ptext, &psp);
  int rc;
  if (psp.status != SQLSIM_EXEC_OK) {
    if (why && wn) snprintf(why, wn, "%s", psp.reason);
    rc = -1;
  } else {
    rc = gs->status == SQLSIM_EXEC_OK && sqlsim_ex_spider(gs, &psp, ordered);
  }
  sqlsim_result_free(&psp);
  return rc;
}

int sqlsim_ex_spider_item(sqlsim_db *db, const char *gold, const char *pred, char *why, size_t wn) {
  char *g = sqlsim_spider_exec_text(gold), *p = sqlsim_spider_exec_text(pred);
  int ordered = sqlsim_spider_order_matters(g);
  sqlsim_result gr;
  sqlsim_exec(db, g, &gr);
  int rc;
  if (gr.status != SQLSIM_EXEC_OK) {
    snprintf(why, wn, "gold: %s", gr.reason);
    rc = -1;
  } else {
    rc = spider_on(db, p, &gr, ordered, why, wn);
    if (rc < 0) rc = 0;
    else if (why && wn) why[0] = '\0';
  }
  sqlsim_result_free(&gr);
  free(g);
  free(p);
  return rc;
}

int sqlsim_ex_bird_item(sqlsim_db *db, const char *gold, const char *pred, char *why, size_t wn) {
  sqlsim_result gr, pr;
  sqlsim_exec(db, gold, &gr);
  int rc;
  if (gr.status != SQLSIM_EXEC_OK) {
    snprintf(why, wn, "gold: %s", gr.reason);
    rc = -1;
  } else {
    sqlsim_exec(db, pred, &pr);
    if (pr.status != SQLSIM_EXEC_OK) {
      snprintf(why, wn, "%s", pr.reason);
      rc = 0;
    } else {
      rc = sqlsim_ex_bird(&gr, &pr);
      if (why && wn) why[0] = '\0';
    }
    sqlsim_result_free(&pr);
  }
  sqlsim_result_free(&gr);
  return rc;
}

/* ---------------------------------------------------------------- test suites */

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int ex_suite_paths(const char *main, char ***out) {
  *out = NULL;
  const char *slash = strrchr(main, '/');
  if (!slash) return 0;
  size_t dl = (size_t)(slash - main);
  char *dir = strndup(main, dl ? dl : 1);
  DIR *d = opendir(dir);
  int n = 0, cap = 0;
  char **v = NULL;
  struct dirent *e;
  while (d && n < EX_MAX_SUITE && (e = readdir(d))) {
    const char *nm = e->d_name, *x = strstr(nm, ".sqlite");
    if (!x || !strcmp(nm, slash + 1)) continue;
    size_t l = strlen(nm);
    if ((l > 8 && !strcmp(nm + l - 8, "-journal")) || (l > 4 && (!strcmp(nm + l - 4, "-wal") || !strcmp(nm + l - 4, "-shm"))))
      continue;
    char *path = malloc(dl + l + 2);
    snprintf(path, dl + l + 2, "%.*s/%s", (int)dl, main, nm);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || access(path, R_OK) != 0) {
      free(path);
      continue;
    }
    if (n == cap) v = realloc(v, sizeof *v * (size_t)(cap = cap ? 2 * cap : 8));
    v[n++] = path;
  }
  if (d) closedir(d);
  free(dir);
  if (n > 1) qsort(v, (size_t)n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

void ex_gold_clear(ex_gold *g) {
  for (int k = 0; k < g->ndbs; k++) { /* results never run are zero: freeing them is a no-op */
    sqlsim_result_free(&g->dbs[k].raw);
    sqlsim_result_free(&g->dbs[k].sp);
    free(g->dbs[k].path);
  }
  free(g->dbs);
  free(g->text);
  memset(g, 0, sizeof *g);
}

int ex_gold_run(ex_gold *g, const char *sql, const char *main_path, char **suite, int nsuite, int keep_distinct,
                ex_open_fn open, void *ctx, char *err, size_t en) {
  memset(g, 0, sizeof *g);
  g->dbs = calloc((size_t)nsuite + 1, sizeof *g->dbs);
  int failed = 0;
  for (int k = 0; k <= nsuite; k++) {
    const char *path = k ? suite[k - 1] : main_path;
    if (failed) { /* the rest are not run: their paths are ours to free */
      if (k) free(suite[k - 1]);
      continue;
    }
    ex_gold_db *x = &g->dbs[g->ndbs++];
    x->path = k ? suite[k - 1] : strdup(main_path);
    const char *base = strrchr(x->path, '/') ? strrchr(x->path, '/') + 1 : x->path;
    char why[480];
    sqlsim_db *db = open(ctx, path, why, sizeof why);
    if (!db) {
      if (k) snprintf(err, en, "test-suite database %.200s: %.280s", base, why);
      else snprintf(err, en, "%s", why);
      failed = 1;
      continue;
    }
    sqlsim_exec_flags(db, sql, SQLSIM_EXEC_VALUES, &x->raw);
    if (x->raw.status != SQLSIM_EXEC_OK) {
      if (k) snprintf(err, en, "the gold query fails on test-suite database %.200s: %.250s", base, x->raw.reason);
      else snprintf(err, en, "the gold query fails: %s", x->raw.reason);
      failed = 1;
      continue;
    }
    if (!k) { /* Spider's semantics run the texts with DISTINCT removed (unless kept) */
      g->text = sqlsim_spider_exec_text_opts(sql, keep_distinct);
      g->ordered = sqlsim_spider_order_matters(g->text);
      g->same_text = !strcmp(g->text, sql);
    }
    if (!g->same_text) sqlsim_exec(db, g->text, &x->sp);
  }
  free(suite);
  if (failed) {
    ex_gold_clear(g);
    return -1;
  }
  return 0;
}

/* Spider's verdict for ptext on every database of the item. */
static int spider_all(const ex_gold *g, const char *ptext, ex_open_fn open, void *ctx) {
  char why[480];
  for (int k = 0; k < g->ndbs; k++) {
    sqlsim_db *db = open(ctx, g->dbs[k].path, why, sizeof why);
    const sqlsim_result *gs = g->same_text ? &g->dbs[k].raw : &g->dbs[k].sp;
    if (!db || spider_on(db, ptext, gs, g->ordered, NULL, 0) != 1) return 0;
  }
  return 1;
}

/* --plug_value: the gold's values in the prediction's value slots, each
 * assignment tried on every database until one matches. */
static void plug_values(const ex_gold *g, const char *gold_sql, const char *pred, const ex_opts *o, ex_open_fn open,
                        void *ctx, ex_verdict *v) {
  char **alts;
  int n = sqlsim_plug_values(gold_sql, pred, EX_MAX_PLUG, &alts);
  for (int k = 0; k < n; k++) {
    if (v->spider != 1) {
      char *t = sqlsim_spider_exec_text_opts(alts[k], o->keep_distinct);
      if (spider_all(g, t, open, ctx)) v->spider = 1;
      free(t);
    }
    free(alts[k]);
  }
  free(alts);
}

/* The prediction on the db_id's other databases: it stays correct under a
 * semantics only if it matches on each of them (the test-suite rule). */
static void score_suite(const ex_gold *g, const char *pred, const char *ptext, ex_open_fn open, void *ctx,
                        ex_verdict *v) {
  char why[480];
  for (int k = 1; k < g->ndbs && (v->bird == 1 || v->spider == 1); k++) {
    const ex_gold_db *s = &g->dbs[k];
    const char *base = strrchr(s->path, '/') + 1;
    sqlsim_db *db = open(ctx, s->path, why, sizeof why);
    sqlsim_result praw;
    if (db) sqlsim_exec_flags(db, pred, SQLSIM_EXEC_VALUES, &praw);
    if (!db || praw.status != SQLSIM_EXEC_OK) {
      snprintf(v->err, sizeof v->err, "on test-suite database %.60s: %.150s", base, db ? praw.reason : why);
      if (db) sqlsim_result_free(&praw);
      v->bird = v->spider = 0;
      return;
    }
    if (v->bird == 1) v->bird = sqlsim_ex_bird(&s->raw, &praw);
    if (v->spider == 1) {
      if (g->same_text && !strcmp(ptext, pred)) v->spider = sqlsim_ex_spider(&s->raw, &praw, g->ordered);
      else v->spider = spider_on(db, ptext, g->same_text ? &s->raw : &s->sp, g->ordered, NULL, 0) == 1;
    }
    sqlsim_result_free(&praw);
  }
}

/* ---------------------------------------------------------------- the evidence */

#define WITNESS_ROWS 20

/* The positions of a's rows that b lacks (as multisets of whole rows), the
 * first WITNESS_ROWS of them, ascending. */
static int missing_rows(const sqlsim_result *a, const sqlsim_result *b, long *out) {
  long nb = b->nrows > 0 ? b->nrows : 0;
  uint64_t *hb = malloc(sizeof *hb * (size_t)(nb + 1));
  if (!hb) return 0;
  for (long i = 0; i < nb; i++) hb[i] = row_hash(b, i, NULL);
  qsort(hb, (size_t)nb, sizeof *hb, cmp_u64);
  unsigned char *used = calloc((size_t)nb + 1, 1);
  int n = 0;
  for (long i = 0; i < a->nrows && n < WITNESS_ROWS && used; i++) {
    uint64_t h = a->ncols == b->ncols ? row_hash(a, i, NULL) : 0;
    long lo = 0, hi = nb; /* the first unused equal hash in b */
    while (lo < hi) {
      long mid = (lo + hi) / 2;
      if (hb[mid] < h) lo = mid + 1;
      else hi = mid;
    }
    while (lo < nb && hb[lo] == h && used[lo]) lo++;
    if (a->ncols == b->ncols && lo < nb && hb[lo] == h) used[lo] = 1;
    else out[n++] = i;
  }
  free(used);
  free(hb);
  return n;
}

sqlsim_witness *ex_witness(sqlsim_db *db, const char *gold, const char *pred, const sqlsim_result *g,
                           const sqlsim_result *p) {
  sqlsim_witness *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->verdict = "exec";
  w->gold_sql = strdup(gold);
  w->pred_sql = strdup(pred);
  long gw[WITNESS_ROWS], pw[WITNESS_ROWS];
  char *err = NULL;
  if (p->status != SQLSIM_EXEC_OK) { /* the gold's first rows, and why the prediction failed */
    w->gold_rows = exec_rows_json(db, gold, NULL, 0, WITNESS_ROWS, &w->gold_count, &err);
    free(err);
    w->pred_rows = strdup("[]");
    w->pred_count = -1;
    w->pred_error = strdup(p->reason);
    return w;
  }
  int ng = missing_rows(g, p, gw), np = missing_rows(p, g, pw);
  w->gold_rows = exec_rows_json(db, gold, gw, ng, 0, &w->gold_count, &err);
  free(err);
  err = NULL;
  w->pred_rows = exec_rows_json(db, pred, pw, np, 0, &w->pred_count, &err);
  w->pred_error = err;
  return w;
}

void ex_score(const ex_gold *g, const char *gold_sql, const char *pred, const ex_opts *o, ex_open_fn open, void *ctx,
              ex_verdict *v) {
  memset(v, 0, sizeof *v);
  v->gold_rows = v->pred_rows = -1;
  char why[480];
  v->databases = g->ndbs;
  const ex_gold_db *main = &g->dbs[0];
  sqlsim_db *db = open(ctx, main->path, why, sizeof why);
  if (!db) { /* opened for the gold a moment ago; closed since only if the caller's slots ran out */
    snprintf(v->err, sizeof v->err, "%.250s", why);
    return;
  }
  sqlsim_result praw;
  sqlsim_exec_flags(db, pred, SQLSIM_EXEC_VALUES, &praw);
  v->reconnected = praw.reconnected;
  v->gold_rows = main->raw.nrows;
  v->pred_rows = praw.status == SQLSIM_EXEC_OK ? praw.nrows : -1;
  if (praw.status != SQLSIM_EXEC_OK) {
    snprintf(v->err, sizeof v->err, "%s", praw.reason);
    if (o->result) v->has_rsim = 1; /* all zero */
    if (o->soft_f1) v->has_soft_f1 = 1;
    if (o->witness) v->witness = ex_witness(db, gold_sql, pred, &main->raw, &praw);
    sqlsim_result_free(&praw);
    if (o->plug_value) plug_values(g, gold_sql, pred, o, open, ctx, v);
    return;
  }
  v->bird = sqlsim_ex_bird(&main->raw, &praw);
  if (o->audit) {
    v->answer = ex_answer_hash(&praw);
    v->any_order = ex_sets_any_column_order(&main->raw, &praw);
  }
  if (o->soft_f1) {
    v->soft_f1 = sqlsim_soft_f1(&main->raw, &praw);
    v->has_soft_f1 = 1;
  }
  if (o->result) {
    sqlsim_result_similarity(&main->raw, &praw, main->raw.nrows > 1 && g->ordered, &v->rsim);
    v->has_rsim = 1;
  }
  char *ptext = sqlsim_spider_exec_text_opts(pred, o->keep_distinct);
  if (g->same_text && !strcmp(ptext, pred)) v->spider = sqlsim_ex_spider(&main->raw, &praw, g->ordered);
  else v->spider = spider_on(db, ptext, g->same_text ? &main->raw : &main->sp, g->ordered, NULL, 0) == 1;
  if (o->witness && (o->bird ? v->bird : v->spider) != 1) v->witness = ex_witness(db, gold_sql, pred, &main->raw, &praw);
  sqlsim_result_free(&praw);
  score_suite(g, pred, ptext, open, ctx, v);
  free(ptext);
  if (o->plug_value && v->spider != 1) plug_values(g, gold_sql, pred, o, open, ctx, v);
}

/* ---------------------------------------------------------------- plug_value */

int sqlsim_plug_values(const char *gold, const char *pred, int max, char ***out) {
  *out = NULL;
  sqlsim_arena *a = arena_new_sized(4096);
  /* the literals of each text (strings and numbers, as the front end reads
   * them): (start, length) pairs in text order */
  int *gl, *pl;
  int ng = tree_literal_spans(a, gold, &gl), np = tree_literal_spans(a, pred, &pl);
  if (ng < 0 || np < 0 || np == 0 || ng == 0) {
    sqlsim_arena_free(a);
    return 0;
  }
  /* the gold's distinct values, as written: indices into gl */
  int *vals = sqlsim_arena_alloc(a, sizeof *vals * (size_t)ng);
  int nv = 0;
  for (int k = 0; k < ng; k++) {
    int seen = 0;
    for (int j = 0; j < nv && !seen; j++)
      seen = gl[2 * vals[j] + 1] == gl[2 * k + 1] && !memcmp(gold + gl[2 * vals[j]], gold + gl[2 * k], (size_t)gl[2 * k + 1]);
    if (!seen) vals[nv++] = k;
  }
  double total = 1;
  for (int s = 0; s < np; s++) total *= nv;
  if (total > max) {
    sqlsim_arena_free(a);
    return -1;
  }
  int n = (int)total;
  char **alts = malloc(sizeof *alts * (size_t)n);
  int *choice = sqlsim_arena_alloc(a, sizeof *choice * (size_t)np);
  for (int i = 0; i < n; i++) {
    strbuf sb = {0};
    int at = 0;
    for (int s = 0; s < np; s++) { /* slot s: the prediction's literal s */
      int ts = pl[2 * s], tl = pl[2 * s + 1], v = vals[choice[s]];
      sb_putn(&sb, pred + at, (size_t)(ts - at));
      sb_putn(&sb, gold + gl[2 * v], (size_t)gl[2 * v + 1]);
      at = ts + tl;
    }
    sb_puts(&sb, pred + at);
    alts[i] = sb_take(&sb);
    for (int s = np - 1; s >= 0; s--) { /* the next assignment, odometer order */
      if (++choice[s] < nv) break;
      choice[s] = 0;
    }
  }
  sqlsim_arena_free(a);
  *out = alts;
  return n;
}
