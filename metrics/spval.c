/* spval.c -- a tiny Python-like value model with Python's == and <.
 *
 * The official Spider evaluator decides matches by comparing nested tuples,
 * lists and dicts. Reproducing it item by item needs exactly those semantics:
 * True == 1 == 1.0, a tuple never equals a list, None equals only None, and
 * dicts (here SV_SQL) compare field by field. */
#include "spider.h"

#include <stdarg.h>
#include <string.h>

static sp_val *sv_new(sqlsim_arena *a, int t) {
  sp_val *v = sqlsim_arena_alloc(a, sizeof *v);
  v->t = (uint8_t)t;
  return v;
}

/* None, the booleans and the small numbers (operator, aggregate and unit
 * codes) are shared: no value is changed once made, so one of each serves
 * every query in every thread. */
static sp_val none_val = {.t = SV_NONE};
static sp_val bool_vals[2] = {{.t = SV_BOOL, .num = 0}, {.t = SV_BOOL, .num = 1}};
#define SMALL_NUMS 16
static sp_val num_vals[SMALL_NUMS] = {
    {.t = SV_NUM, .num = 0},  {.t = SV_NUM, .num = 1},  {.t = SV_NUM, .num = 2},  {.t = SV_NUM, .num = 3},
    {.t = SV_NUM, .num = 4},  {.t = SV_NUM, .num = 5},  {.t = SV_NUM, .num = 6},  {.t = SV_NUM, .num = 7},
    {.t = SV_NUM, .num = 8},  {.t = SV_NUM, .num = 9},  {.t = SV_NUM, .num = 10}, {.t = SV_NUM, .num = 11},
    {.t = SV_NUM, .num = 12}, {.t = SV_NUM, .num = 13}, {.t = SV_NUM, .num = 14}, {.t = SV_NUM, .num = 15}};

sp_val *sv_none(sqlsim_arena *a) {
  (void)a;
  return &none_val;
}

sp_val *sv_bool(sqlsim_arena *a, int b) {
  (void)a;
  return &bool_vals[b ? 1 : 0];
}

sp_val *sv_num(sqlsim_arena *a, double d) {
  if (d >= 0 && d < SMALL_NUMS && d == (int)d) return &num_vals[(int)d];
  sp_val *v = sv_new(a, SV_NUM);
  v->num = d;
  return v;
}

sp_val *sv_str(sqlsim_arena *a, const char *s) {
  sp_val *v = sv_new(a, SV_STR);
  v->str = s;
  return v;
}

sp_val *sv_tuple(sqlsim_arena *a, int n, ...) {
  sp_val *v = sv_new(a, SV_TUPLE);
  v->items = sqlsim_arena_alloc(a, sizeof *v->items * (size_t)(n ? n : 1));
  v->n = v->cap = n;
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) v->items[i] = va_arg(ap, sp_val *);
  va_end(ap);
  return v;
}

sp_val *sv_list(sqlsim_arena *a) { return sv_new(a, SV_LIST); }

sp_val *sv_sql(sqlsim_arena *a) {
  sp_val *v = sv_new(a, SV_SQL);
  v->items = sqlsim_arena_alloc(a, sizeof *v->items * SQ__COUNT);
  v->n = v->cap = SQ__COUNT;
  return v;
}

void sv_push(sqlsim_arena *a, sp_val *l, sp_val *v) {
  l->items = arena_array_grow(a, l->items, l->n, &l->cap, sizeof *l->items, 4);
  l->items[l->n++] = v;
}

static int is_number(const sp_val *v) { return v->t == SV_BOOL || v->t == SV_NUM; }

int sv_eq(const sp_val *x, const sp_val *y) {
  if (x == y) return 1;
  if (!x || !y) return 0;
  if (is_number(x) && is_number(y)) return x->num == y->num;
  if (x->t != y->t) return 0;
  switch (x->t) {
  case SV_NONE: return 1;
  case SV_STR: return strcmp(x->str, y->str) == 0;
  default:
    if (x->n != y->n) return 0;
    for (int i = 0; i < x->n; i++)
      if (!sv_eq(x->items[i], y->items[i])) return 0;
    return 1;
  }
}

int sv_lt(const sp_val *x, const sp_val *y, int *err) {
  if (is_number(x) && is_number(y)) return x->num < y->num;
  if (x->t != y->t) {
    *err = 1; /* TypeError: '<' not supported between instances */
    return 0;
  }
  switch (x->t) {
  case SV_STR: return strcmp(x->str, y->str) < 0;
  case SV_TUPLE:
  case SV_LIST:
    for (int i = 0; i < x->n && i < y->n; i++)
      if (!sv_eq(x->items[i], y->items[i])) return sv_lt(x->items[i], y->items[i], err);
    return x->n < y->n;
  default:
    *err = 1; /* None < None, dict < dict: TypeError */
    return 0;
  }
}

/* A hash that agrees with sv_eq: numbers and booleans by value, strings by
 * their bytes, tuples, lists and queries by their kind and items. */
static uint64_t sv_hash(const sp_val *x) {
  if (!x) return 0x9e3779b97f4a7c15ULL;
  uint64_t h;
  if (is_number(x)) {
    double d = x->num == 0 ? 0 : x->num; /* -0.0 == 0.0 */
    memcpy(&h, &d, sizeof h);
    return mix64(h);
  }
  h = FNV_OFFSET ^ x->t;
  switch (x->t) {
  case SV_NONE: return h;
  case SV_STR: return mix64(fnv1a_str(h, x->str));
  default:
    for (int i = 0; i < x->n; i++) h = mix64(h ^ sv_hash(x->items[i])) + (uint64_t)i;
    return h;
  }
}

int sv_bag_common(sqlsim_arena *a, const sp_val *pred, const sp_val *gold) {
  if (!pred->n || !gold->n) return 0;
  if (gold->n <= 16) { /* the usual few items: compared directly */
    unsigned char used[16] = {0};
    int common = 0;
    for (int i = 0; i < pred->n; i++)
      for (int k = 0; k < gold->n; k++)
        if (!used[k] && sv_eq(gold->items[k], pred->items[i])) {
          used[k] = 1;
          common++;
          break;
        }
    return common;
  }
  size_t cap = 16;
  while (cap < (size_t)gold->n * 2) cap *= 2;
  /* open addressing over the distinct gold values, each with how many times
   * it is there and not yet matched */
  int *slot = sqlsim_arena_alloc(a, sizeof *slot * cap);
  uint64_t *hs = sqlsim_arena_alloc(a, sizeof *hs * cap);
  int *left = sqlsim_arena_alloc(a, sizeof *left * cap);
  for (size_t i = 0; i < cap; i++) slot[i] = -1;
  for (int i = 0; i < gold->n; i++) {
    uint64_t h = sv_hash(gold->items[i]);
    size_t j = h & (cap - 1);
    while (slot[j] >= 0 && !(hs[j] == h && sv_eq(gold->items[slot[j]], gold->items[i]))) j = (j + 1) & (cap - 1);
    if (slot[j] < 0) {
      slot[j] = i;
      hs[j] = h;
      left[j] = 0;
    }
    left[j]++;
  }
  int common = 0;
  for (int i = 0; i < pred->n; i++) {
    uint64_t h = sv_hash(pred->items[i]);
    for (size_t j = h & (cap - 1); slot[j] >= 0; j = (j + 1) & (cap - 1))
      if (hs[j] == h && sv_eq(gold->items[slot[j]], pred->items[i])) {
        if (left[j] > 0) {
          left[j]--;
          common++;
        }
        break;
      }
  }
  return common;
}

sp_val *sv_copy_list(sqlsim_arena *a, const sp_val *l) {
  sp_val *c = sv_list(a);
  for (int i = 0; i < l->n; i++) sv_push(a, c, l->items[i]);
  return c;
}

void sv_dump(strbuf *sb, const sp_val *v) {
  static const char *fields[] = {"select", "from", "conds", "where", "groupBy", "having",
                                 "orderBy", "limit", "intersect", "except", "union"};
  if (!v) {
    sb_puts(sb, "NULL");
    return;
  }
  switch (v->t) {
  case SV_NONE: sb_puts(sb, "None"); break;
  case SV_BOOL: sb_puts(sb, v->num ? "True" : "False"); break;
  case SV_NUM: sb_printf(sb, "%g", v->num); break;
  case SV_STR: sb_printf(sb, "'%s'", v->str); break;
  case SV_SQL:
    sb_putc(sb, '{');
    for (int i = 0; i < v->n; i++) {
      if (i) sb_puts(sb, ", ");
      sb_printf(sb, "%s: ", fields[i]);
      sv_dump(sb, v->items[i]);
    }
    sb_putc(sb, '}');
    break;
  default:
    sb_putc(sb, v->t == SV_TUPLE ? '(' : '[');
    for (int i = 0; i < v->n; i++) {
      if (i) sb_puts(sb, ", ");
      sv_dump(sb, v->items[i]);
    }
    sb_putc(sb, v->t == SV_TUPLE ? ')' : ']');
  }
}
