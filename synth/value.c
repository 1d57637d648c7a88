/* value.c -- a generated database's values: equality as the verdicts and
 * the keys need it, and what a number column may hold. Below checks.c and
 * data.c, which both compare values. */
#include "synth.h"

#include <stdlib.h>
#include <string.h>

int synth_val_eq(const synth_val *a, const synth_val *b) {
  if (a->kind != b->kind) {
    if ((a->kind == 'i' && b->kind == 'r') || (a->kind == 'r' && b->kind == 'i'))
      return (a->kind == 'i' ? (double)a->i : a->r) == (b->kind == 'i' ? (double)b->i : b->r);
    return 0;
  }
  switch (a->kind) {
  case 'i': return a->i == b->i;
  case 'r': return a->r == b->r;
  case 't': return !strcmp(a->t, b->t);
  default: return 1; /* NULL is NULL here: a key comparison never sees one */
  }
}

int synth_numeric_column(const sqlsim_column *c) { return c->numeric; }

int synth_numeric_text(const char *t) {
  char *end;
  if (!t || !*t) return 0;
  strtod(t, &end);
  while (*end == ' ') end++;
  return end != t && !*end;
}
