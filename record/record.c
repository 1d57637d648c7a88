/* record.c -- a record's memory: its arena, a deep copy, clear; its first
 * error and its report group.
 *
 * A record holds its strings and arrays in one arena and its witness apart
 * (sqlsim_witness, malloc'd). The deep copy copies every pointer of every
 * part; a string two parts share (the dialect named as the dialect
 * category's evidence) stays one string in the copy. */
#include "record.h"

#include <stdlib.h>
#include <string.h>

sqlsim_arena *record_arena(sqlsim_record *r) {
  if (!r->arena) r->arena = arena_new_sized(1024);
  return r->arena;
}

void record_take_witness(sqlsim_record *r, sqlsim_witness *w) {
  if (r->witness != w) sqlsim_witness_free(r->witness);
  r->witness = w;
}

/* ---------------------------------------------------------------- the deep copy */

/* Strings already copied, so that two pointers to one string stay one. */
typedef struct copier {
  sqlsim_arena *a;
  const char *from[2 * SQLSIM_NCAT + 8], *to[2 * SQLSIM_NCAT + 8];
  int n;
} copier;

static const char *copy_str(copier *c, const char *s) {
  if (!s) return NULL;
  for (int i = 0; i < c->n; i++)
    if (c->from[i] == s) return c->to[i];
  const char *d = sqlsim_arena_strdup(c->a, s);
  if (c->n < (int)(sizeof c->from / sizeof c->from[0])) {
    c->from[c->n] = s;
    c->to[c->n++] = d;
  }
  return d;
}

static void copy_categories(copier *c, sqlsim_categories *k) {
  for (int i = 0; i < SQLSIM_NCAT; i++) k->evidence[i] = copy_str(c, k->evidence[i]);
}

static int *copy_spans(copier *c, const int *spans, int n) {
  if (!spans) return NULL;
  int *d = sqlsim_arena_alloc(c->a, sizeof(int) * (size_t)(2 * n + 1));
  memcpy(d, spans, sizeof(int) * (size_t)(2 * n));
  return d;
}

void record_copy(sqlsim_record *dst, const sqlsim_record *src) {
  *dst = *src;
  dst->arena = NULL;
  dst->witness = sqlsim_witness_copy(src->witness);
  dst->synth.witness = NULL;
  if (!src->arena) return;
  copier c = {.a = record_arena(dst)};
  dst->structure.dialect = copy_str(&c, src->structure.dialect);
  dst->answer.sql = copy_str(&c, src->answer.sql);
  copy_categories(&c, &dst->analysis.cats);
  dst->analysis.gspans = copy_spans(&c, src->analysis.gspans, src->analysis.ngspans);
  dst->analysis.pspans = copy_spans(&c, src->analysis.pspans, src->analysis.npspans);
  dst->repair.sql = copy_str(&c, src->repair.sql);
  dst->repair.no_effect = copy_str(&c, src->repair.no_effect);
  copy_categories(&c, &dst->repair.cats);
  /* repair.note is static text */
  dst->audit.evidence = copy_str(&c, src->audit.evidence);
  dst->audit.error = copy_str(&c, src->audit.error);
  dst->spider2.variant = copy_str(&c, src->spider2.variant);
}

void sqlsim_record_clear(sqlsim_record *r) {
  if (!r) return;
  sqlsim_witness_free(r->witness);
  sqlsim_witness_free(r->synth.witness);
  sqlsim_arena_free(r->arena);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------------------------- reading it */

const char *sqlsim_record_error(const sqlsim_record *r, const char **side, int *offset) {
  *offset = -1;
  *side = "gold";
  if (r->gold_err[0]) return r->gold_err;
  if (r->match_err[0]) return r->match_err;
  *side = "pred";
  if (r->input_err[0]) return r->input_err;
  if (r->answer.from == SQLSIM_FROM_NONE) return "no SQL found in the answer";
  if (r->has_match && r->match.error.code) {
    *offset = r->match.error.offset;
    return r->match.error.message;
  }
  if (r->spider2.err[0]) {
    if (r->spider2.err_gold) *side = "gold";
    return r->spider2.err;
  }
  if (r->exec.err[0]) return r->exec.err;
  if (r->structure.err[0]) return r->structure.err;
  if (r->structure.diff_err[0]) return r->structure.diff_err;
  if (r->synth_err[0]) return r->synth_err;
  if (r->has_timing && !r->timing.ok) return r->timing.reason;
  return NULL;
}

const char *sqlsim_group_of(const sqlsim_item *gold, const sqlsim_record *r) {
  if (gold && gold->difficulty) return gold->difficulty;
  if (gold && gold->case_type) return gold->case_type;
  if (r && r->hardness >= 0 && r->hardness < SQLSIM_HARD_UNKNOWN) return sqlsim_hardness_names[r->hardness];
  return NULL;
}
