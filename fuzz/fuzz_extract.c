/* fuzz_extract.c -- the SQL read out of a model's answer (sqlsim_extract_sql)
 * on any bytes. Invariants: the span lies inside the text, holds no white
 * space at its ends and starts a statement (SELECT, WITH, VALUES, after
 * parentheses); no SQL is an empty span from "none"; the same text gives the
 * same span; and a span with no fence, tag or marker in it, read again as an
 * answer, is found again from its start (whole, or cut before prose). */
#include "fuzz_common.h"

#include <ctype.h>
#include <strings.h>

static int starts_statement(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && s[i] == '(') i++;
  while (i < n && isspace((unsigned char)s[i])) i++;
  while (i < n && s[i] == '(') i++;
  return (i + 6 <= n && !strncasecmp(s + i, "select", 6)) || (i + 4 <= n && !strncasecmp(s + i, "with", 4)) ||
         (i + 6 <= n && !strncasecmp(s + i, "values", 6));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  size_t len = strlen(text); /* as a C string, the way every face passes it */
  sqlsim_extract a, b;
  int rc = sqlsim_extract_sql(text, len, &a);
  if (rc) {
    if (rc != SQLSIM_ENOTFOUND || a.from != SQLSIM_FROM_NONE || a.len) abort();
  } else {
    if (a.from < 0 || a.from >= SQLSIM_FROM_NONE || a.start > len || a.len > len - a.start || !a.len) abort();
    if (isspace((unsigned char)text[a.start]) || isspace((unsigned char)text[a.start + a.len - 1])) abort();
    if (!starts_statement(text + a.start, a.len)) abort();
    /* a span with no fence, tag or marker in it is found again as it is (or
     * cut before its prose) */
    int marked = memchr(text + a.start, '`', a.len) || memchr(text + a.start, '<', a.len);
    for (size_t i = a.start; !marked && i + 5 <= a.start + a.len; i++) marked = !strncasecmp(text + i, "final", 5);
    sqlsim_extract again;
    if (!marked && (sqlsim_extract_sql(text + a.start, a.len, &again) || again.start != 0 || again.len > a.len)) abort();
  }
  if (sqlsim_extract_sql(text, len, &b) != rc || b.from != a.from || b.start != a.start || b.len != a.len) abort();
  free(text);
  return 0;
}
