/* spider2.c -- Spider 2.0's judgement of a result table (evaluate.py's
 * compare_multi_pandas_table and compare_pandas_table, lite's and snow's),
 * the gold directory it reads, and a query's rows saved as the scripts
 * save them.
 *
 * A gold column passes when some predicted column equals it: both as the
 * lists .values.tolist() gives (one dtype for the whole table: ints become
 * floats beside floats, stay Python objects beside text or bools), NaN read
 * as 0, sorted by str() of each value when ignore_order, then compared
 * pairwise: numbers with math.isclose(abs_tol=0.01), anything else with
 * ==. The table passes when every gold column (only condition_cols' when
 * given) does; the task when one of its variants does. Lite tests "if
 * condition_cols:", snow "!= []"; a rule the script cannot apply (an index
 * out of range, a nested list for one gold) raises there: 0.
 *
 * Entry points: s2_vecs_make, s2_gold_open, s2_task_gold_load, s2_judge,
 * s2_rows_csv, s2_sql_from_file. */
#include "spider2.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

/* ---------------------------------------------------------------- values as Python objects */

struct s2_vecs {
  int n;
  s2_vec *v;
  sqlsim_arena *keys;      /* str() of the numbers */
};

/* find_common_type over the columns' dtypes (DataFrame.values): one dtype
 * alone stays; bools beside numbers, or anything beside text, are objects;
 * numbers of two kinds are floats. */
static s2_dtype interleaved(const s2_frame *f, const int *cols, int n) {
  s2_dtype d = f->cols[cols[0]].dtype;
  int same = 1, odd = 0;
  for (int k = 0; k < n; k++) {
    s2_dtype e = f->cols[cols[k]].dtype;
    same &= e == d;
    odd |= e == S2_BOOL || e == S2_OBJECT;
  }
  return same ? d : odd ? S2_OBJECT : S2_FLOAT64;
}

/* str() of an int. */
static int int_text(int64_t v, char *buf) {
  char t[24];
  int k = 0, n = 0;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do t[k++] = (char)('0' + u % 10), u /= 10;
  while (u);
  if (v < 0) buf[n++] = '-';
  while (k) buf[n++] = t[--k];
  buf[n] = '\0';
  return n;
}

static void set_key(sqlsim_arena *a, s2_pyv *o, const char *k, int n) {
  char *p = arena_alloc_raw(a, (size_t)n);
  memcpy(p, k, (size_t)n);
  o->key = p;
  o->klen = (uint32_t)n;
}

/* A cell as the Python object the script holds under the table's dtype,
 * normalized (NaN is 0, an int): its str() and float(). */
static void pyvalue(const s2_value *c, s2_dtype to, sqlsim_arena *a, s2_pyv *o) {
  char buf[48];
  double d;
  o->num = 1;
  switch (c->kind) {
  case S2_V_STR:
    o->num = 0;
    o->key = c->s;
    o->klen = c->len;
    o->f = 0;
    return;
  case S2_V_BOOL:
    if (to != S2_FLOAT64) {
      o->key = c->i ? "True" : "False";
      o->klen = c->i ? 4 : 5;
      o->f = (double)c->i;
      return;
    }
    d = (double)c->i;
    break;
  case S2_V_INT:
    if (to != S2_FLOAT64) {
      set_key(a, o, buf, int_text(c->i, buf));
      o->f = (double)c->i;
      return;
    }
    d = (double)c->i;
    break;
  case S2_V_UINT:
    if (to != S2_FLOAT64) {
      set_key(a, o, buf, snprintf(buf, sizeof buf, "%llu", (unsigned long long)c->u));
      o->f = (double)c->u;
      return;
    }
    d = (double)c->u;
    break;
  default:
    d = c->x;
  }
  if (isnan(d)) {
    o->key = "0";
    o->klen = 1;
    o->f = 0;
    return;
  }
  int from_text = c->kind == S2_V_FLOAT;
  set_key(a, o, buf, s2_float_repr(d, from_text ? c->s : NULL, from_text ? c->len : 0, buf));
  o->f = d;
}

/* The sort's key (x is None, str(x), isinstance(x, (int, float))): None
 * never occurs once normalized; str order is code point order, which is
 * UTF-8's byte order. */
static int pyv_order(const s2_pyv *x, const s2_pyv *y) {
  uint32_t n = x->klen < y->klen ? x->klen : y->klen;
  int c = n ? memcmp(x->key, y->key, n) : 0;
  if (c) return c;
  if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
  return (int)x->num - (int)y->num;
}

static int pyv_ptr_cmp(const void *a, const void *b) {
  return pyv_order(*(const s2_pyv *const *)a, *(const s2_pyv *const *)b);
}

/* math.isclose(a, b, rel_tol=1e-09, abs_tol=0.01). */
static int isclose(double a, double b) {
  if (a == b) return 1;
  if (isinf(a) || isinf(b)) return 0;
  double diff = fabs(b - a);
  return diff <= fabs(1e-9 * b) || diff <= fabs(1e-9 * a) || diff <= 0.01;
}

/* One pair of values as vectors_match compares them. */
static int pyv_eq(const s2_pyv *a, const s2_pyv *b) {
  if (a->num && b->num) return isclose(a->f, b->f);
  if (a->num != b->num || a->klen != b->klen) return 0;
  return !a->klen || !memcmp(a->key, b->key, a->klen);
}

void s2_vecs_free(s2_vecs *v) {
  if (!v) return;
  for (int k = 0; k < v->n; k++) {
    free(v->v[k].v);
    free(v->v[k].sorted);
  }
  free(v->v);
  sqlsim_arena_free(v->keys);
  free(v);
}

s2_vecs *s2_vecs_make(const s2_frame *f, const int *cols, int ncols, int sort) {
  int *all = NULL;
  if (ncols < 0) {
    ncols = f->ncols;
    if (!(all = malloc(sizeof *all * (size_t)(ncols ? ncols : 1)))) return NULL;
    for (int k = 0; k < ncols; k++) all[k] = k;
    cols = all;
  }
  s2_vecs *V = calloc(1, sizeof *V);
  if (V) V->v = calloc((size_t)(ncols ? ncols : 1), sizeof *V->v);
  if (V && V->v) V->keys = sqlsim_arena_new();
  if (!V || !V->v || !V->keys) {
    if (V) free(V->v);
    free(V);
    free(all);
    return NULL;
  }
  V->n = ncols;
  s2_dtype to = ncols ? interleaved(f, cols, ncols) : S2_OBJECT;
  size_t ncell = (size_t)(f->nrows ? f->nrows : 1);
  int ok = 1;
  for (int k = 0; k < ncols && ok; k++) {
    s2_vec *vec = &V->v[k];
    vec->n = f->nrows;
    if (!(vec->v = malloc(sizeof *vec->v * ncell))) {
      ok = 0;
      break;
    }
    const s2_column *col = &f->cols[cols[k]];
    for (long r = 0; r < f->nrows; r++) pyvalue(&col->v[r], to, V->keys, &vec->v[r]);
    if (sort) {
      if (!(vec->sorted = malloc(sizeof *vec->sorted * ncell))) {
        ok = 0;
        break;
      }
      for (long r = 0; r < vec->n; r++) vec->sorted[r] = &vec->v[r];
      qsort(vec->sorted, (size_t)vec->n, sizeof *vec->sorted, pyv_ptr_cmp);
    }
  }
  free(all);
  if (!ok) {
    s2_vecs_free(V);
    return NULL;
  }
  return V;
}

/* vectors_match: the same length, then pairwise (sorted when ignore_order). */
static int vectors_match(const s2_vec *g, const s2_vec *p, int sorted) {
  if (g->n != p->n) return 0;
  if (sorted) {
    for (long i = 0; i < g->n; i++)
      if (!pyv_eq(g->sorted[i], p->sorted[i])) return 0;
  } else {
    for (long i = 0; i < g->n; i++)
      if (!pyv_eq(&g->v[i], &p->v[i])) return 0;
  }
  return 1;
}

/* ---------------------------------------------------------------- the rule */

/* Python's truth of a JSON value. */
static int truthy(const cJSON *j) {
  if (!j || cJSON_IsNull(j) || cJSON_IsFalse(j)) return 0;
  if (cJSON_IsNumber(j)) return j->valuedouble != 0;
  if (cJSON_IsString(j)) return j->valuestring && j->valuestring[0];
  if (cJSON_IsArray(j) || cJSON_IsObject(j)) return j->child != NULL;
  return 1;
}

static int is_int(const cJSON *j) {
  return cJSON_IsNumber(j) && j->valuedouble == floor(j->valuedouble) && fabs(j->valuedouble) < 1e15;
}

/* gold.iloc[:, cc] for compare_pandas_table's condition_cols of the
 * flavor: *cols gets the columns (malloc'd; *ncols -1: all of them), or -1
 * with why the script raises. A value that is not a list is [value]; a list
 * of ints (negative from the end) or of as many bools as columns (a mask). */
static int select_columns(int flavor, const cJSON *cc, int width, int **cols, int *ncols, char *why, size_t wn) {
  *cols = NULL;
  *ncols = -1;
  if (flavor == S2_LITE ? !truthy(cc) : (cJSON_IsArray(cc) && !cc->child)) return 0;
  int n = cJSON_IsArray(cc) ? cJSON_GetArraySize(cc) : 1;
  const cJSON **el = malloc(sizeof *el * (size_t)(n ? n : 1));
  int *c = malloc(sizeof *c * (size_t)(n ? n : 1));
  if (!el || !c) {
    free(el);
    free(c);
    snprintf(why, wn, "out of memory");
    return -1;
  }
  int bools = 1, k = 0;
  if (cJSON_IsArray(cc))
    for (const cJSON *e = cc->child; e; e = e->next) el[k++] = e;
  else
    el[k++] = cc;
  for (int i = 0; i < n; i++) bools &= cJSON_IsBool(el[i]);
  k = 0;
  int rc = 0;
  if (bools && n == width) { /* a boolean mask */
    for (int i = 0; i < n; i++)
      if (cJSON_IsTrue(el[i])) c[k++] = i;
  } else {
    for (int i = 0; i < n && !rc; i++) {
      if (!is_int(el[i])) {
        char *t = cJSON_PrintUnformatted(cc);
        snprintf(why, wn, "condition_cols %.200s: not a list of column positions (iloc raises)", t ? t : "?");
        free(t);
        rc = -1;
        break;
      }
      long v = (long)el[i]->valuedouble;
      if (v < 0) v += width;
      if (v < 0 || v >= width) {
        snprintf(why, wn, "condition_cols: position %ld is out of the gold's %d columns (iloc raises)",
                 (long)el[i]->valuedouble, width);
        rc = -1;
        break;
      }
      c[k++] = (int)v;
    }
  }
  free(el);
  if (rc) {
    free(c);
    return -1;
  }
  *cols = c;
  *ncols = k;
  return 0;
}

/* compare_pandas_table: 1, 0, or -1 with why (the script's exception). */
static int compare_table(int flavor, const s2_vecs *pred, const s2_frame *gold, const cJSON *cc, int io, char *why,
                         size_t wn, s2_vecs **gv_out) {
  int *cols, ncols;
  if (select_columns(flavor, cc, gold->ncols, &cols, &ncols, why, wn)) return -1;
  s2_vecs *gv = s2_vecs_make(gold, cols, ncols, io);
  free(cols);
  if (!gv) {
    snprintf(why, wn, "out of memory");
    return -1;
  }
  int score = 1;
  for (int g = 0; g < gv->n && score; g++) {
    int any = 0;
    for (int p = 0; p < pred->n && !any; p++) any = vectors_match(&gv->v[g], &pred->v[p], io);
    score = any;
  }
  if (gv_out && score) *gv_out = gv;
  else s2_vecs_free(gv);
  return score;
}

/* ---------------------------------------------------------------- row by row (--rows) */

#define ROWS_TRIES 4096 /* column assignments tried at most */

typedef struct rowcmp {
  const s2_vec *const *cols; /* the columns of a row, in order */
  int n;
} rowcmp;

static __thread const rowcmp *row_ctx; /* qsort's comparison has no context argument */

/* Rows ordered as the script orders a column, column after column. */
static int row_cmp(const void *a, const void *b) {
  long i = *(const long *)a, j = *(const long *)b;
  for (int k = 0; k < row_ctx->n; k++) {
    int c = pyv_order(&row_ctx->cols[k]->v[i], &row_ctx->cols[k]->v[j]);
    if (c) return c;
  }
  return i < j ? -1 : i > j;
}

#define ROWS_MATCH_MAX 512 /* rows matched one to one when sorting does not line them up */

static int row_eq(const s2_vec *const *gc, const s2_vec *const *pc, int k, long g, long p) {
  for (int c = 0; c < k; c++)
    if (!pyv_eq(&gc[c]->v[g], &pc[c]->v[p])) return 0;
  return 1;
}

static int augment(const s2_vec *const *gc, const s2_vec *const *pc, int k, long n, long g, long *match, char *seen) {
  for (long p = 0; p < n; p++) {
    if (seen[p] || !row_eq(gc, pc, k, g, p)) continue;
    seen[p] = 1;
    if (match[p] < 0 || augment(gc, pc, k, n, match[p], match, seen)) {
      match[p] = g;
      return 1;
    }
  }
  return 0;
}

/* Every gold row paired with its own equal predicted row. */
static int rows_matching(const s2_vec *const *gc, const s2_vec *const *pc, int k, long n) {
  long *match = malloc(sizeof *match * (size_t)(n ? n : 1));
  char *seen = malloc((size_t)(n ? n : 1));
  int ok = match && seen;
  for (long p = 0; ok && p < n; p++) match[p] = -1;
  for (long g = 0; ok && g < n; g++) {
    memset(seen, 0, (size_t)n);
    ok = augment(gc, pc, k, n, g, match, seen);
  }
  free(match);
  free(seen);
  return ok;
}

/* The gold's selected columns and the predicted ones assigned to them,
 * equal row by row: as multisets of rows (sorted as the script sorts a
 * column, then pairwise) when ignore_order, else in order. */
static int rows_equal(const s2_vecs *gv, const s2_vecs *pv, const int *assign, int io) {
  long n = gv->n ? gv->v[0].n : 0;
  int k = gv->n;
  const s2_vec **gc = malloc(sizeof *gc * (size_t)(k ? k : 1)), **pc = malloc(sizeof *pc * (size_t)(k ? k : 1));
  long *gi = malloc(sizeof *gi * (size_t)(n ? n : 1)), *pi = malloc(sizeof *pi * (size_t)(n ? n : 1));
  int ok = gc && pc && gi && pi;
  if (ok) {
    for (int c = 0; c < k; c++) gc[c] = &gv->v[c], pc[c] = &pv->v[assign[c]];
    for (long r = 0; r < n; r++) gi[r] = pi[r] = r;
    if (io) {
      rowcmp g = {gc, k}, p = {pc, k};
      row_ctx = &g;
      qsort(gi, (size_t)n, sizeof *gi, row_cmp);
      row_ctx = &p;
      qsort(pi, (size_t)n, sizeof *pi, row_cmp);
      row_ctx = NULL;
    }
    for (long r = 0; r < n && ok; r++)
      for (int c = 0; c < k && ok; c++) ok = pyv_eq(&gc[c]->v[gi[r]], &pc[c]->v[pi[r]]);
    /* Sorted by text, values within the tolerance of each other may land in
     * other places on the two sides (0.999 and 1.001): for a table small
     * enough, the rows matched one to one by equality instead (Kuhn's
     * augmenting paths). */
    if (!ok && io && n <= ROWS_MATCH_MAX) ok = rows_matching(gc, pc, k, n);
  }
  free(gc);
  free(pc);
  free(gi);
  free(pi);
  return ok;
}

/* Some assignment of predicted columns to the gold's (each gold column to
 * one its vector matches) under which the rows match too. */
static int rows_match(const s2_vecs *gv, const s2_vecs *pv, int io) {
  int k = gv->n;
  if (k == 0) return 1;
  int *assign = calloc((size_t)k, sizeof *assign), *pos = calloc((size_t)k, sizeof *pos);
  int **cand = calloc((size_t)k, sizeof *cand), *ncand = calloc((size_t)k, sizeof *ncand);
  int found = 0, ok = assign && pos && cand && ncand;
  for (int g = 0; g < k && ok; g++) {
    if (!(cand[g] = malloc(sizeof **cand * (size_t)(pv->n ? pv->n : 1)))) {
      ok = 0;
      break;
    }
    for (int p = 0; p < pv->n; p++)
      if (vectors_match(&gv->v[g], &pv->v[p], io)) cand[g][ncand[g]++] = p;
    if (!ncand[g]) ok = 0;
  }
  /* every assignment, odometer order, at most ROWS_TRIES */
  for (long tries = 0; ok && !found && tries < ROWS_TRIES; tries++) {
    for (int g = 0; g < k; g++) assign[g] = cand[g][pos[g]];
    found = rows_equal(gv, pv, assign, io);
    int g = k - 1;
    while (g >= 0 && ++pos[g] == ncand[g]) pos[g--] = 0;
    if (g < 0) break;
  }
  if (cand)
    for (int g = 0; g < k; g++) free(cand[g]);
  free(cand);
  free(ncand);
  free(assign);
  free(pos);
  return found;
}

/* ---------------------------------------------------------------- the gold directory */

typedef struct s2_task {
  char *id;
  cJSON *line;             /* the eval line (the last one for a repeated id, as a dict keeps it) */
  UT_hash_handle hh;
} s2_task;

typedef struct s2_name {
  char *name;              /* a file of exec_result/ without ".csv" */
  UT_hash_handle hh;
} s2_name;

struct s2_gold_set {
  int flavor;
  char *dir;               /* exec_result/ */
  sqlsim_arena *a;
  s2_task *tasks;
  const char **ids;
  int nids;
  s2_name *names;
};

void s2_gold_close(s2_gold_set *g) {
  if (!g) return;
  s2_task *t, *tt;
  HASH_ITER(hh, g->tasks, t, tt) { HASH_DEL(g->tasks, t); }
  s2_name *n, *nt;
  HASH_ITER(hh, g->names, n, nt) { HASH_DEL(g->names, n); }
  free(g->ids);
  free(g->dir);
  sqlsim_arena_free(g->a);
  free(g);
}

int s2_gold_flavor(const s2_gold_set *g) { return g->flavor; }

int s2_gold_ids(const s2_gold_set *g, const char *const **ids) {
  *ids = g->ids;
  return g->nids;
}

int s2_gold_has(const s2_gold_set *g, const char *id) {
  s2_task *t;
  HASH_FIND_STR(g->tasks, id, t);
  return t != NULL;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* load_jsonl_to_dict: every line an object with instance_id. */
static int load_eval(s2_gold_set *g, const char *path, sqlsim_error *err) {
  char *text;
  size_t len;
  if (core_file_read(path, &text, &len, err)) return err ? err->code : -1;
  int cap = 0, lineno = 0, rc = 0;
  for (char *p = text, *end = text + len; p < end && !rc;) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    lineno++;
    size_t off;
    cJSON *j = core_json_parse(g->a, p, n, &off);
    const cJSON *id = j ? cJSON_GetObjectItemCaseSensitive(j, "instance_id") : NULL;
    if (!cJSON_IsObject(j) || !cJSON_IsString(id)) {
      rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s: line %d: not an object with an instance_id", path,
                            lineno);
      break;
    }
    s2_task *t;
    HASH_FIND_STR(g->tasks, id->valuestring, t);
    if (t) {
      t->line = j;
    } else {
      t = sqlsim_arena_alloc(g->a, sizeof *t);
      t->id = sqlsim_arena_strdup(g->a, id->valuestring);
      t->line = j;
      HASH_ADD_KEYPTR(hh, g->tasks, t->id, strlen(t->id), t);
      if (g->nids == cap) {
        cap = cap ? cap * 2 : 1024;
        const char **ids = realloc(g->ids, sizeof *ids * (size_t)cap);
        if (!ids) {
          rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
          break;
        }
        g->ids = ids;
      }
      g->ids[g->nids++] = t->id;
    }
    p = nl ? nl + 1 : end;
  }
  free(text);
  return rc;
}

int s2_gold_open(const char *dir, int flavor, s2_gold_set **out, sqlsim_error *err) {
  *out = NULL;
  size_t dl = strlen(dir);
  char *lite = malloc(dl + 64), *snow = malloc(dl + 64), *res = malloc(dl + 32);
  s2_gold_set *g = calloc(1, sizeof *g);
  int rc = 0;
  if (!lite || !snow || !res || !g || !(g->a = sqlsim_arena_new())) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  sprintf(lite, "%s/spider2lite_eval.jsonl", dir);
  sprintf(snow, "%s/spider2snow_eval.jsonl", dir);
  sprintf(res, "%s/exec_result", dir);
  int hl = exists(lite), hs = exists(snow);
  if (!flavor) {
    if (hl && hs) {
      rc = sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                            "%s holds both spider2lite_eval.jsonl and spider2snow_eval.jsonl: say which (--flavor "
                            "lite or snow)", dir);
      goto done;
    }
    flavor = hs ? S2_SNOW : S2_LITE;
  }
  const char *evalf = flavor == S2_SNOW ? snow : lite;
  if (!exists(evalf)) {
    rc = sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1,
                          "%s is not a Spider 2.0 gold directory: it has no %s (the layout of the "
                          "repository's evaluation_suite/gold: exec_result/ and the eval file)",
                          dir, flavor == S2_SNOW ? "spider2snow_eval.jsonl" : "spider2lite_eval.jsonl");
    goto done;
  }
  g->flavor = flavor;
  if ((rc = load_eval(g, evalf, err))) goto done;
  DIR *d = opendir(res);
  if (!d) {
    rc = sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1, "%s: cannot be read (the gold's result files)", res);
    goto done;
  }
  for (struct dirent *e; (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".csv")) continue;
    s2_name *nm = sqlsim_arena_alloc(g->a, sizeof *nm);
    nm->name = sqlsim_arena_alloc(g->a, n - 3);
    memcpy(nm->name, e->d_name, n - 4);
    HASH_ADD_KEYPTR(hh, g->names, nm->name, n - 4, nm);
  }
  closedir(d);
  g->dir = res;
  res = NULL;
  *out = g;
  g = NULL;
done:
  free(lite);
  free(snow);
  free(res);
  s2_gold_close(g);
  return rc;
}

static int has_name(const s2_gold_set *g, const char *name) {
  s2_name *n;
  HASH_FIND_STR(g->names, name, n);
  return n != NULL;
}

void s2_task_gold_clear(s2_task_gold *t) {
  for (int k = 0; k < t->nvariants; k++) {
    free(t->names[k]);
    if (t->frames) s2_frame_free(t->frames[k]);
  }
  free(t->names);
  free(t->frames);
  memset(t, 0, sizeof *t);
}

/* resolve_gold_paths: <id>.csv alone, else <id>_[a-z].csv sorted; then each
 * read (the script reads them all before comparing any). */
int s2_task_gold_load(const s2_gold_set *g, const char *id, s2_task_gold *out) {
  memset(out, 0, sizeof *out);
  s2_task *t;
  HASH_FIND_STR(g->tasks, id, t);
  if (!t) return -1;
  out->flavor = g->flavor;
  out->rule = t->line;
  size_t il = strlen(id);
  char *nm = malloc(il + 8);
  out->names = calloc(27, sizeof *out->names);
  out->frames = calloc(27, sizeof *out->frames);
  if (!nm || !out->names || !out->frames) {
    free(nm);
    snprintf(out->error, sizeof out->error, "out of memory");
    return 0;
  }
  if (has_name(g, id)) {
    out->single = 1;
    sprintf(nm, "%s.csv", id);
    out->names[out->nvariants++] = strdup(nm);
  } else {
    for (char c = 'a'; c <= 'z'; c++) {
      sprintf(nm, "%s_%c", id, c);
      if (!has_name(g, nm)) continue;
      strcat(nm, ".csv");
      out->names[out->nvariants++] = strdup(nm);
    }
  }
  free(nm);
  if (!out->nvariants) {
    snprintf(out->error, sizeof out->error, "No matching gold file found");
    return 0;
  }
  for (int k = 0; k < out->nvariants; k++) {
    char *path = malloc(strlen(g->dir) + strlen(out->names[k]) + 2);
    if (!path) {
      snprintf(out->error, sizeof out->error, "out of memory");
      return 0;
    }
    sprintf(path, "%s/%s", g->dir, out->names[k]);
    char *text;
    size_t len;
    sqlsim_error e = {0};
    if (core_file_read(path, &text, &len, &e) == 0) {
      s2_frame_read(text, len, &out->frames[k], &e);
      free(text);
    }
    if (!out->frames[k] && !out->error[0])
      snprintf(out->error, sizeof out->error, "the gold %.100s cannot be read: %.250s", out->names[k], e.message);
    free(path);
  }
  return 0;
}

/* ---------------------------------------------------------------- the verdict */

/* The rule's condition_cols and ignore_order as the flavor's script reads
 * them: lite with .get (absent: None, False), snow with [] (absent: the
 * script raises KeyError). 0, or -1 with why. */
static int rule_of(const s2_task_gold *t, const cJSON **cc, int *io, char *why, size_t wn) {
  const cJSON *line = t->rule;
  *cc = cJSON_GetObjectItemCaseSensitive(line, "condition_cols");
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(line, "ignore_order");
  if (t->flavor == S2_SNOW && (!*cc || !o)) {
    snprintf(why, wn, "the eval line has no '%s' (snow's script raises KeyError)", *cc ? "ignore_order" :
                                                                                       "condition_cols");
    return -1;
  }
  *io = truthy(o);
  return 0;
}

static int is_none_like(const cJSON *cc) {
  /* multi_condition_cols in (None, [], [[]], [None]) */
  if (!cc || cJSON_IsNull(cc)) return 1;
  if (!cJSON_IsArray(cc)) return 0;
  const cJSON *e = cc->child;
  if (!e) return 1;
  if (e->next) return 0;
  return cJSON_IsNull(e) || (cJSON_IsArray(e) && !e->child);
}

void s2_judge(const s2_task_gold *t, const s2_frame *pred, int rows, s2_verdict *out) {
  memset(out, 0, sizeof *out);
  out->variant = -1;
  out->rows = rows ? 0 : -1;
  if (t->error[0]) {
    snprintf(out->error, sizeof out->error, "%s", t->error);
    out->gold_side = 1;
    return;
  }
  const cJSON *cc;
  int io;
  if (rule_of(t, &cc, &io, out->error, sizeof out->error)) {
    out->gold_side = 1;
    return;
  }
  s2_vecs *pv = s2_vecs_make(pred, NULL, -1, io);
  if (!pv) {
    snprintf(out->error, sizeof out->error, "out of memory");
    return;
  }
  /* compare_multi_pandas_table's condition_cols per gold (compare_pandas_table's own for one) */
  int n = t->nvariants, per_gold = 0, none = 0; /* else: the whole list for every gold */
  if (!t->single) {
    if (is_none_like(cc)) {
      none = 1;
    } else if (n > 1) {
      int all_lists = 1;
      if (!cJSON_IsArray(cc) && !cJSON_IsString(cc) && !cJSON_IsObject(cc)) {
        snprintf(out->error, sizeof out->error, "condition_cols is not a list (the script raises TypeError)");
        out->gold_side = 1;
        s2_vecs_free(pv);
        return;
      }
      for (const cJSON *e = cc->child; e; e = e->next) all_lists &= cJSON_IsArray(e);
      per_gold = all_lists;
    } else {
      per_gold = 1;
    }
  }
  static const cJSON empty_list = {.type = cJSON_Array};
  for (int k = 0; k < n; k++) {
    const cJSON *ck = cc;
    if (!t->single) {
      if (none) ck = &empty_list;
      else if (per_gold) {
        ck = cJSON_IsArray(cc) || cJSON_IsObject(cc) ? cJSON_GetArrayItem(cc, k) : NULL;
        if (!ck) {
          snprintf(out->error, sizeof out->error,
                   "condition_cols has no entry for gold %d of %d (the script raises IndexError)", k + 1, n);
          out->gold_side = 1;
          break;
        }
      }
    }
    char why[300] = "";
    s2_vecs *gv = NULL;
    int s = compare_table(t->flavor, pv, t->frames[k], ck, io, why, sizeof why, rows ? &gv : NULL);
    if (s < 0) {
      snprintf(out->error, sizeof out->error, "%s", why);
      out->gold_side = 1;
      break;
    }
    if (s == 1) {
      if (out->variant < 0) {
        out->score = 1;
        out->variant = k;
      }
      if (rows && gv && rows_match(gv, pv, io)) out->rows = 1;
      s2_vecs_free(gv);
      if (!rows || out->rows == 1) break; /* the script stops at the first match; --rows looks on */
    }
  }
  s2_vecs_free(pv);
}

/* ---------------------------------------------------------------- rows saved as the scripts save them */

/* A column of a DataFrame built from Python values (maybe_convert_objects):
 * text, bytes or other objects make objects; None beside numbers floats,
 * beside nothing or bools objects; bools alone bools, beside numbers
 * objects; floats (and Decimals, floats to coerce_float) beside ints
 * floats. */
static s2_dtype chunk_dtype(const s2_cell *cells, long r0, long r1, int ncols, int c) {
  int null = 0, ints = 0, floats = 0, bools = 0;
  for (long r = r0; r < r1; r++) {
    switch (cells[r * ncols + c].type) {
    case S2_C_NULL: null = 1; break;
    case S2_C_INT: ints = 1; break;
    case S2_C_REAL: case S2_C_DECIMAL: floats = 1; break;
    case S2_C_BOOL: bools = 1; break;
    default: return S2_OBJECT;
    }
  }
  if (null) return (ints || floats) && !bools ? S2_FLOAT64 : S2_OBJECT;
  if (bools) return ints || floats ? S2_OBJECT : S2_BOOL;
  if (floats) return S2_FLOAT64;
  return ints ? S2_INT64 : S2_OBJECT;
}

/* Python's repr() of bytes: b'...' (b"..." when it holds ' and no "). */
static void bytes_repr(strbuf *sb, const unsigned char *p, size_t n) {
  int sq = memchr(p, '\'', n) != NULL, dq = memchr(p, '"', n) != NULL;
  char q = sq && !dq ? '"' : '\'';
  sb_putc(sb, 'b');
  sb_putc(sb, q);
  for (size_t i = 0; i < n; i++) {
    unsigned c = p[i];
    if (c == (unsigned)q || c == '\\') sb_putc(sb, '\\'), sb_putc(sb, (char)c);
    else if (c == '\t') sb_puts(sb, "\\t");
    else if (c == '\n') sb_puts(sb, "\\n");
    else if (c == '\r') sb_puts(sb, "\\r");
    else if (c < 0x20 || c >= 0x7f) sb_printf(sb, "\\x%02x", c);
    else sb_putc(sb, (char)c);
  }
  sb_putc(sb, q);
}

/* A field as the csv module writes it (QUOTE_MINIMAL, lineterminator
 * \n): quoted when it holds ',', '"' or \n ('"' doubled), or when it is a
 * row's only field and empty. */
static void put_field(strbuf *sb, const char *p, size_t n, int alone) {
  int quote = (alone && n == 0) || memchr(p, ',', n) || memchr(p, '"', n) || memchr(p, '\n', n);
  if (!quote) {
    sb_putn(sb, p, n);
    return;
  }
  sb_putc(sb, '"');
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '"') sb_putc(sb, '"');
    sb_putc(sb, p[i]);
  }
  sb_putc(sb, '"');
}

/* str() of a value in a column of dtype d, as to_csv writes it. */
static void cell_text(strbuf *tmp, const s2_cell *c, s2_dtype d) {
  char buf[48];
  switch (c->type) {
  case S2_C_NULL: break; /* na_rep */
  case S2_C_INT:
    if (d == S2_FLOAT64) sb_putn(tmp, buf, (size_t)s2_float_repr((double)c->i, NULL, 0, buf));
    else sb_printf(tmp, "%lld", (long long)c->i);
    break;
  case S2_C_REAL: sb_putn(tmp, buf, (size_t)s2_float_repr(c->x, NULL, 0, buf)); break;
  case S2_C_BOOL: sb_puts(tmp, c->i ? "True" : "False"); break;
  case S2_C_BLOB: bytes_repr(tmp, (const unsigned char *)c->p, c->n); break;
  case S2_C_DECIMAL:
    if (d == S2_FLOAT64) {
      char *s = strndup(c->p, c->n);
      double x = s ? strtod(s, NULL) : 0;
      free(s);
      sb_putn(tmp, buf, (size_t)s2_float_repr(x, NULL, 0, buf));
    } else {
      sb_putn(tmp, c->p, c->n);
    }
    break;
  default: sb_putn(tmp, c->p, c->n); break;
  }
}

int s2_rows_csv(const s2_cell *cells, long nrows, int ncols, long chunk, strbuf *out, sqlsim_error *err) {
  for (long k = 0; k < nrows * ncols; k++)
    if (cells[k].type == S2_C_TEXT && s2_utf8_bad((const unsigned char *)cells[k].p, cells[k].n) >= 0)
      return sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                              "Could not decode to UTF-8 column %ld of row %ld (text that is not UTF-8)",
                              k % ncols, k / ncols + 1);
  for (int c = 0; c < ncols; c++) {
    char name[24]; /* pd.DataFrame(rows) names its columns 0, 1, .. */
    int n = snprintf(name, sizeof name, "%d", c);
    if (c) sb_putc(out, ',');
    sb_putn(out, name, (size_t)n);
  }
  sb_putc(out, '\n');
  if (chunk <= 0) chunk = nrows ? nrows : 1;
  s2_dtype *dt = malloc(sizeof *dt * (size_t)(ncols ? ncols : 1));
  if (!dt) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  strbuf tmp = {0};
  for (long r0 = 0; r0 < nrows; r0 += chunk) {
    long r1 = r0 + chunk < nrows ? r0 + chunk : nrows;
    for (int c = 0; c < ncols; c++) dt[c] = chunk_dtype(cells, r0, r1, ncols, c);
    for (long r = r0; r < r1; r++) {
      for (int c = 0; c < ncols; c++) {
        tmp.len = 0;
        cell_text(&tmp, &cells[r * ncols + c], dt[c]);
        if (c) sb_putc(out, ',');
        put_field(out, tmp.buf ? tmp.buf : "", tmp.len, ncols == 1);
      }
      sb_putc(out, '\n');
    }
  }
  sb_free(&tmp);
  free(dt);
  return 0;
}

/* ---------------------------------------------------------------- a prediction file's SQL */

/* str.strip()'s whitespace (str.isspace) at p, its length in bytes or 0. */
static int py_space(const unsigned char *p, const unsigned char *end) {
  if (p >= end) return 0;
  if (*p == ' ' || (*p >= '\t' && *p <= '\r') || (*p >= 0x1c && *p <= 0x1f)) return 1;
  if (end - p >= 2 && p[0] == 0xc2 && (p[1] == 0x85 || p[1] == 0xa0)) return 2;
  if (end - p >= 3) {
    unsigned c = (unsigned)(p[0] & 0x0f) << 12 | (unsigned)(p[1] & 0x3f) << 6 | (p[2] & 0x3f);
    if ((p[0] & 0xf0) == 0xe0 && (p[1] & 0xc0) == 0x80 && (p[2] & 0xc0) == 0x80 &&
        (c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
         c == 0x3000))
      return 3;
  }
  return 0;
}

char *s2_sql_from_file(const char *text, size_t n) {
  char *s = malloc(n + 1);
  if (!s) return NULL;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) { /* universal newlines */
    if (text[i] == '\r') {
      s[m++] = '\n';
      if (i + 1 < n && text[i + 1] == '\n') i++;
    } else {
      s[m++] = text[i];
    }
  }
  s[m] = '\0';
  const char *open = strstr(s, "```sql\n"), *close = open ? strstr(open + 7, "\n```") : NULL;
  if (!close) return s; /* re.search found nothing: the text as it is */
  const unsigned char *a = (const unsigned char *)open + 7, *b = (const unsigned char *)close;
  for (int k; (k = py_space(a, b));) a += k;
  for (;;) { /* trailing whitespace: the longest suffix of spaces */
    const unsigned char *q = b;
    int k = 0;
    for (int len = 1; len <= 3 && q - len >= a; len++)
      if ((k = py_space(q - len, q)) == len) break;
      else k = 0;
    if (!k) break;
    b -= k;
  }
  size_t len = (size_t)(b - a);
  memmove(s, a, len);
  s[len] = '\0';
  return s;
}

int sqlsim_spider2_rows_csv(const sqlsim_value *cells, long nrows, int ncols, long chunk, char **out, size_t *len,
                            sqlsim_error *err) {
  *out = NULL;
  *len = 0;
  if (nrows < 0 || ncols < 1) return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "a result needs at least one column");
  strbuf sb = {0};
  if (s2_rows_csv(cells, nrows, ncols, chunk, &sb, err)) {
    sb_free(&sb);
    return err ? err->code : -1;
  }
  *len = sb.len;
  *out = sb_take(&sb);
  return 0;
}
