/* extract.c -- the SQL in a model's answer (sqlsim_extract_sql).
 *
 * Completions are seldom bare SQL: a reasoning model writes <think>...</think>
 * first, a chat model fences its query in Markdown, an instructed one writes
 * "Final answer: SELECT ...;" or <answer>SELECT ...</answer>, and many add a
 * sentence after the query. The SQL is found by the first of these that
 * applies, in this order:
 *
 *   1. the last fenced block (```) whose info string is empty or names SQL
 *      (sql, sqlite, postgresql, mysql; any case); an unclosed last fence
 *      runs to the end (a completion cut at its token limit);
 *   2. else the last <answer>...</answer> element;
 *   3. else the text after the last final-answer marker ("final answer",
 *      "final sql", "final query", then ':', "is" or markup);
 *   4. else the text after the last </think>;
 *   5. else the text as it is, from its last line that starts a statement
 *      when it does not start with one ("Here is the query:\nSELECT ...");
 *
 * then, when that text does not parse, the longest leading part ending at a
 * ';' or a line end that does and is followed by prose, not SQL ("SELECT
 * ...; This query counts ..."). A text where no statement starts (SELECT, WITH,
 * VALUES, or parentheses before one) is no SQL. Linear in the text but for at most EXTRACT_TRIES parses of
 * candidate prefixes. */
#include "core.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define EXTRACT_TRIES 24 /* prefixes parsed, longest first, in step 6 */

const char *const sqlsim_extract_names[] = {"text", "fence", "answer", "marker", "think", "statement", "none"};

/* Case-insensitive search of the last occurrence of needle in [s, s + n). */
static const char *last_ci(const char *s, size_t n, const char *needle) {
  size_t m = strlen(needle);
  if (m > n) return NULL;
  for (size_t i = n - m + 1; i-- > 0;) {
    size_t k = 0;
    while (k < m && tolower((unsigned char)s[i + k]) == tolower((unsigned char)needle[k])) k++;
    if (k == m) return s + i;
  }
  return NULL;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

/* The span [*a, *b) trimmed of white space. */
static void trim(const char *s, size_t *a, size_t *b) {
  while (*a < *b && is_space(s[*a])) ++*a;
  while (*b > *a && is_space(s[*b - 1])) --*b;
}

/* An info string that names SQL, or none. */
static int sql_info(const char *s, size_t n) {
  while (n && is_space(s[n - 1])) n--;
  while (n && is_space(*s)) s++, n--;
  if (!n) return 1;
  static const char *names[] = {"sql", "sqlite", "sqlite3", "postgresql", "postgres", "mysql", "psql"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (strlen(names[k]) == n && !strncasecmp(s, names[k], n)) return 1;
  return 0;
}

/* 1. The last fenced block naming SQL: its content in [*a, *b). A fence
 * closed on its own line (```SELECT 1```) has no info string. */
static int last_fence(const char *s, size_t n, size_t *a, size_t *b) {
  int found = 0;
  size_t i = 0;
  for (;;) {
    const char *f = i < n ? memmem(s + i, n - i, "```", 3) : NULL;
    if (!f) break;
    size_t open = (size_t)(f - s) + 3;
    while (open < n && s[open] == '`') open++; /* a longer fence */
    size_t eol = open;
    while (eol < n && s[eol] != '\n') eol++;
    const char *inline_close = memmem(s + open, eol - open, "```", 3);
    size_t from, to, next;
    int sql;
    if (inline_close) {
      from = open;
      to = (size_t)(inline_close - s);
      sql = 1;
    } else {
      from = eol < n ? eol + 1 : n;
      const char *c = from < n ? memmem(s + from, n - from, "```", 3) : NULL;
      to = c ? (size_t)(c - s) : n; /* unclosed: to the end */
      sql = sql_info(s + open, eol - open);
    }
    next = to + 3;
    while (next < n && s[next] == '`') next++;
    size_t x = from, y = to;
    trim(s, &x, &y);
    if (sql && y > x) { /* an empty block (a stray fence at the end) is no answer */
      *a = from;
      *b = to;
      found = 1;
    }
    i = next;
  }
  return found;
}

/* 2. The last <answer>...</answer>. */
static int last_answer(const char *s, size_t n, size_t *a, size_t *b) {
  const char *open = last_ci(s, n, "<answer>");
  if (!open) return 0;
  size_t from = (size_t)(open - s) + 8;
  const char *close = last_ci(s + from, n - from, "</answer>");
  *a = from;
  *b = close ? (size_t)(close - s) : n;
  return 1;
}

/* 3. The text after the last final-answer marker. */
static int after_marker(const char *s, size_t n, size_t *a, size_t *b) {
  static const char *markers[] = {"final answer", "final sql", "final query"};
  const char *best = NULL;
  size_t len = 0;
  for (size_t k = 0; k < sizeof markers / sizeof markers[0]; k++) {
    const char *m = last_ci(s, n, markers[k]);
    if (m && (!best || m > best)) best = m, len = strlen(markers[k]);
  }
  if (!best) return 0;
  size_t i = (size_t)(best - s) + len;
  for (;;) { /* ":", "is", markup, white space */
    while (i < n && (is_space(s[i]) || s[i] == ':' || s[i] == '*' || s[i] == '-' || s[i] == '#' || s[i] == '='))
      i++;
    if (i + 2 <= n && !strncasecmp(s + i, "is", 2) && (i + 2 == n || !isalnum((unsigned char)s[i + 2]))) {
      i += 2;
      continue;
    }
    break;
  }
  *a = i;
  *b = n;
  return 1;
}

/* 4. The text after the last </think>. */
static int after_think(const char *s, size_t n, size_t *a, size_t *b) {
  const char *t = last_ci(s, n, "</think>");
  if (!t) return 0;
  *a = (size_t)(t - s) + 8;
  *b = n;
  return 1;
}

/* Where a statement starts: SELECT, WITH, VALUES, or parentheses before one. */
static int starts_statement(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (s[i] == '(' || is_space(s[i]))) i++;
  static const char *words[] = {"select", "with", "values"};
  for (size_t k = 0; k < 3; k++) {
    size_t m = strlen(words[k]);
    if (i + m <= n && !strncasecmp(s + i, words[k], m) &&
        (i + m == n || (!isalnum((unsigned char)s[i + m]) && s[i + m] != '_')))
      return 1;
  }
  return 0;
}

static int parses(const char *s, size_t n) {
  sqlsim_query *q = NULL;
  int ok = sqlsim_parse(s, n, NULL, SQLSIM_PARSE_NO_NORMALIZE, &q, NULL) == 0;
  sqlsim_query_free(q);
  return ok;
}

/* 5. Where the text does not start with a statement ("Here is the query:"),
 * the last line that does: its start, or 0. */
static size_t last_statement_line(const char *s, size_t a, size_t b) {
  size_t best = a;
  for (size_t i = a; i < b; i++)
    if ((i == a || s[i - 1] == '\n') && starts_statement(s + i, b - i)) best = i;
  return best;
}

/* Does prose follow the statement that ends at end (before b)? The next word
 * is no SQL keyword ("This query ...", "Note:", "**Explanation**", a fence):
 * a statement cut before SQL (a broken UNION, a WHERE on the next line) is no
 * answer with prose after it, but SQL that does not parse. */
static int prose_follows(const char *s, size_t end, size_t b) {
  static const char *keywords[] = {"select", "from", "where", "group", "order", "by", "having", "limit", "offset",
                                   "union", "intersect", "except", "join", "inner", "left", "right", "full", "outer",
                                   "cross", "natural", "on", "using", "and", "or", "not", "in", "is", "null", "like",
                                   "glob", "between", "as", "asc", "desc", "case", "when", "then", "else", "end",
                                   "with", "values", "distinct", "all", "exists", "collate", "escape", "window",
                                   "over", "partition", "filter", "nulls", "first", "last", "cast", "returning",
                                   /* a second statement is SQL too, not prose */
                                   "attach", "detach", "create", "drop", "insert", "update", "delete", "replace",
                                   "pragma", "alter", "begin", "commit", "rollback", "vacuum", "analyze",
                                   "reindex", "explain", "savepoint", "release", "upsert"};
  size_t i = end;
  while (i < b && (is_space(s[i]) || s[i] == ';')) i++;
  if (i >= b) return 0;
  if (strchr("*#`>-", s[i])) return 1; /* markup */
  if (!isalpha((unsigned char)s[i])) return 0;
  size_t w = i;
  while (w < b && (isalnum((unsigned char)s[w]) || s[w] == '_')) w++;
  for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
    if (strlen(keywords[k]) == w - i && !strncasecmp(s + i, keywords[k], w - i)) return 0;
  return 1;
}

/* 6. The longest leading part of [a, b) ending at a ';' or a line end (not
 * inside a string, a quoted name or a comment) that parses: its end, or b. */
static size_t leading_statement(const char *s, size_t a, size_t b) {
  size_t cuts[EXTRACT_TRIES];
  int ncuts = 0;
  char quote = 0;
  for (size_t i = a; i < b; i++) { /* the cut points, kept the last EXTRACT_TRIES (longest first later) */
    char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"' || c == '`') quote = c;
    else if (c == '-' && i + 1 < b && s[i + 1] == '-') {
      while (i < b && s[i] != '\n') i++;
      i--; /* the line end is a cut */
    } else if (c == ';' || c == '\n') {
      size_t end = c == ';' ? i + 1 : i;
      if (ncuts == EXTRACT_TRIES) {
        memmove(cuts, cuts + 1, sizeof cuts[0] * (EXTRACT_TRIES - 1));
        ncuts--;
      }
      cuts[ncuts++] = end;
    }
  }
  for (int k = ncuts; k-- > 0;) {
    size_t x = a, y = cuts[k];
    trim(s, &x, &y);
    if (y > x && prose_follows(s, cuts[k], b) && parses(s + x, y - x)) return y;
  }
  return b;
}

int sqlsim_extract_sql(const char *text, size_t len, sqlsim_extract *out) {
  out->from = SQLSIM_FROM_NONE;
  out->start = out->len = 0;
  if (!text) return SQLSIM_ENOTFOUND;
  size_t a = 0, b = len;
  int from = last_fence(text, len, &a, &b)     ? SQLSIM_FROM_FENCE
             : last_answer(text, len, &a, &b)  ? SQLSIM_FROM_ANSWER
             : after_marker(text, len, &a, &b) ? SQLSIM_FROM_MARKER
             : after_think(text, len, &a, &b)  ? SQLSIM_FROM_THINK
                                               : SQLSIM_FROM_TEXT;
  trim(text, &a, &b);
  if (b > a && from == SQLSIM_FROM_ANSWER) { /* <answer>```sql ...```</answer> */
    size_t x, y;
    if (last_fence(text + a, b - a, &x, &y)) {
      b = a + y;
      a += x;
      trim(text, &a, &b);
    }
  }
  if (b > a && !starts_statement(text + a, b - a)) { /* prose before the query */
    size_t at = last_statement_line(text, a, b);
    if (at > a) {
      a = at;
      trim(text, &a, &b);
      if (from == SQLSIM_FROM_TEXT) from = SQLSIM_FROM_STATEMENT;
    }
  }
  if (b <= a || !starts_statement(text + a, b - a)) return SQLSIM_ENOTFOUND;
  if (!parses(text + a, b - a)) {
    size_t end = leading_statement(text, a, b);
    if (end < b) {
      b = end;
      trim(text, &a, &b);
      if (from == SQLSIM_FROM_TEXT) from = SQLSIM_FROM_STATEMENT;
    }
  }
  out->from = from;
  out->start = a;
  out->len = b - a;
  return 0;
}
