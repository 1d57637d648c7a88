/* sqltext.c -- SQL's names and numbers as SQLite reads them: names folded
 * to ASCII lower case and compared so, the affinity of a declared type, an
 * integer literal's value without undefined behaviour past 64 bits. */
#include "core.h"

#include <limits.h>
#include <string.h>

char *core_fold_dup(sqlsim_arena *a, const char *s, size_t len) {
  char *p = arena_alloc_raw(a, len + 1);
  for (size_t i = 0; i < len; i++) p[i] = ascii_lower(s[i]);
  p[len] = '\0';
  return p;
}

int core_fold_eq(const char *a, const char *b) {
  while (*a && ascii_lower(*a) == ascii_lower(*b)) a++, b++;
  return ascii_lower(*a) == ascii_lower(*b);
}

int core_type_affinity(const char *t) {
  if (!t) return 'B';
  if (strcasestr(t, "int")) return 'I';
  if (strcasestr(t, "char") || strcasestr(t, "clob") || strcasestr(t, "text")) return 'T';
  if (!*t || strcasestr(t, "blob")) return 'B';
  if (strcasestr(t, "real") || strcasestr(t, "floa") || strcasestr(t, "doub")) return 'R';
  return 'N';
}

int core_int_literal(const char *text, long long *v) {
  *v = 0;
  if (!text) return 0;
  const char *p = text;
  int neg = *p == '-';
  if (*p == '-' || *p == '+') p++;
  if (*p < '0' || *p > '9') return 0;
  unsigned long long u = 0, lim = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;
  int over = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (over || u > (lim - d) / 10) over = 1;
    else u = u * 10 + d;
  }
  if (*p) return 0;
  if (over) {
    *v = neg ? LLONG_MIN : LLONG_MAX;
    return 0;
  }
  *v = neg ? (u == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)u) : (long long)u;
  return 1;
}
