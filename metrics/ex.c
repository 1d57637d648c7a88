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
#include "core.h"
#include "parser/tree.h"

#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t row_hash(const sqlsim_result *r, long row, const int *perm) {
  uint64_t h = 0xcbf29ce484222325ULL ^ (uint64_t)r->ncols;
  for (int i = 0; i < r->ncols; i++) {
    uint64_t c = r->cells[row * r->ncols + (perm ? perm[i] : i)];
    h = (h ^ c) * 0x100000001b3ULL;
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

int sqlsim_ex_bird(const sqlsim_result *g, const sqlsim_result *p) {
  if (g->nrows == 0 || p->nrows == 0) return g->nrows == 0 && p->nrows == 0;
  uint64_t *a = malloc(sizeof *a * (size_t)g->nrows), *b = malloc(sizeof *b * (size_t)p->nrows);
  long na = row_set(g, a), nb = row_set(p, b);
  int eq = na == nb && (g->ncols == p->ncols) && !memcmp(a, b, sizeof *a * (size_t)na);
  free(a);
  free(b);
  return eq;
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
  uint64_t h = 0x84222325cbf29ce4ULL;
  for (long i = 0; i < r->nrows; i++) {
    h = (h ^ scratch[i]) * 0x100000001b3ULL;
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

int sqlsim_ex_spider_item(sqlsim_db *db, const char *gold, const char *pred, char *why, size_t wn) {
  char *g = sqlsim_spider_exec_text(gold), *p = sqlsim_spider_exec_text(pred);
  int ordered = sqlsim_spider_order_matters(g);
  sqlsim_result gr, pr;
  sqlsim_exec(db, g, &gr);
  int rc;
  if (gr.status != SQLSIM_EXEC_OK) {
    snprintf(why, wn, "gold: %s", gr.reason);
    rc = -1;
  } else {
    sqlsim_exec(db, p, &pr);
    if (pr.status != SQLSIM_EXEC_OK) {
      snprintf(why, wn, "%s", pr.reason);
      rc = 0;
    } else {
      rc = sqlsim_ex_spider(&gr, &pr, ordered);
      if (why && wn) why[0] = '\0';
    }
    sqlsim_result_free(&pr);
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
