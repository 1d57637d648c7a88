/* guard.c -- what model SQL must be before a server sees it.
 *
 * SQLite's executor has an authorizer; a server has privileges, which belong
 * to whoever set up the role sqlsim connects as. So sqlsim checks the text
 * itself, reading it as the server's lexer would (strings, quoted names,
 * dollar quoting, comments, MySQL's backticks, # comments and backslash
 * escapes): one statement, starting with a word that only reads, and no call
 * of a function that reaches outside the query. Every statement then runs in
 * a read-only transaction that is rolled back after it (pg.c, mysql.c): what
 * the text check misses, the server refuses, and a setting changed inside is
 * undone. */
#include "server.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static int in_list(const char *const *list, const char *w, size_t n) {
  for (int i = 0; list[i]; i++)
    if (strlen(list[i]) == n && !strncasecmp(list[i], w, n)) return 1;
  return 0;
}

/* Skips white space and comments from p; returns where the next token
 * starts, or NULL for a comment that does not end (the server would refuse
 * the text). MySQL's -- is a comment only before a space or the end (--x is
 * minus minus x there), and its executable comment (slash-star-bang) is SQL it runs: a token. */
static const char *skip(int lexis, const char *p) {
  for (;;) {
    while (*p && isspace((unsigned char)*p)) p++;
    if ((p[0] == '-' && p[1] == '-' &&
         (lexis == SRV_LEX_POSTGRES || !p[2] || isspace((unsigned char)p[2]) || iscntrl((unsigned char)p[2]))) ||
        (lexis == SRV_LEX_MYSQL && p[0] == '#')) {
      while (*p && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      if (lexis == SRV_LEX_MYSQL && (p[2] == '!' || (p[2] == 'M' && p[3] == '!'))) return p;
      int depth = 1; /* PostgreSQL nests them */
      p += 2;
      while (*p && depth) {
        if (lexis == SRV_LEX_POSTGRES && p[0] == '/' && p[1] == '*') depth++, p += 2;
        else if (p[0] == '*' && p[1] == '/') depth--, p += 2;
        else p++;
      }
      if (depth) return NULL;
    } else {
      return p;
    }
  }
}

/* The end of a quoted token starting at p (its quote q), or NULL when it
 * does not end; backslash: \ escapes the next character (MySQL's strings,
 * PostgreSQL's E'..'). */
static const char *quoted_end(const char *p, char q, int backslash) {
  for (p++; *p; p++) {
    if (backslash && *p == '\\' && p[1]) {
      p++;
    } else if (*p == q) {
      if (p[1] == q) p++;
      else return p + 1;
    }
  }
  return NULL;
}

/* PostgreSQL's $tag$ .. $tag$ starting at p: its end, p itself when p does
 * not start one ($1 is a parameter), NULL when it does not end. */
static const char *dollar_end(const char *p) {
  if (isdigit((unsigned char)p[1])) return p;
  const char *t = p + 1;
  while (*t == '_' || isalnum((unsigned char)*t) || (unsigned char)*t >= 0x80) t++;
  if (*t != '$') return p;
  size_t tag = (size_t)(t - p + 1);
  for (const char *e = t + 1; *e; e++)
    if (*e == '$' && !strncmp(e, p, tag)) return e + tag;
  return NULL;
}

static int refuse(char *why, size_t wn, int status, const char *fmt, const char *a, size_t an) {
  snprintf(why, wn, fmt, (int)an, a);
  return status;
}

/* Whether the name w[0..n) (exact: quoted in PostgreSQL) is a denied function. */
static int denied_name(const char *const *denied, const char *w, size_t n, int exact) {
  for (int i = 0; denied[i]; i++)
    if (strlen(denied[i]) == n && (exact ? !strncmp(denied[i], w, n) : !strncasecmp(denied[i], w, n))) return 1;
  return 0;
}

static int is_word_char(unsigned char c) { return isalnum(c) || c == '_' || c == '$' || c >= 0x80; }

int srv_guard(const exec_engine *eng, const char *sql, char *why, size_t wn) {
  const char *const *denied = eng->denied, *const *first = eng->first;
  int kind = eng->lexis;
  const char *p = skip(kind, sql);
  if (!p) return refuse(why, wn, SQLSIM_EXEC_ERROR, "a comment that does not end%.*s", "", 0);
  while (p && *p == '(') p = skip(kind, p + 1);
  if (!p) return refuse(why, wn, SQLSIM_EXEC_ERROR, "a comment that does not end%.*s", "", 0);
  if (!*p || *p == ';') return refuse(why, wn, SQLSIM_EXEC_ERROR, "empty query%.*s", "", 0);
  size_t n0 = 0;
  while (is_word_char((unsigned char)p[n0])) n0++;
  if (!n0 || !in_list(first, p, n0)) {
    char words[120] = "";
    for (int i = 0; first[i]; i++) { /* SELECT, WITH, VALUES, TABLE */
      size_t l = strlen(words);
      snprintf(words + l, sizeof words - l, "%s%s", i ? ", " : "", first[i]);
    }
    for (char *w = words; *w; w++) *w = (char)toupper((unsigned char)*w);
    char fmt[200];
    snprintf(fmt, sizeof fmt, "refused: only a query that reads is run (%s), not one starting '%%.*s'", words);
    return refuse(why, wn, SQLSIM_EXEC_REFUSED, fmt, p, n0 ? (n0 < 40 ? n0 : 40) : 1);
  }
  p = skip(kind, sql);
  int after_into = 0;
  const char *name = NULL; /* the last word or quoted token: a call's name when '(' follows */
  size_t nlen = 0;
  int exact = 0;
  while (*p) {
    const char *start = p;
    char c = *p;
    if (c == '\'' || c == '"' || (c == '`' && kind == SRV_LEX_MYSQL)) {
      int esc = (kind == SRV_LEX_MYSQL && c != '`') ||
                (kind == SRV_LEX_POSTGRES && c == '\'' && name && name + nlen == start && nlen == 1 &&
                 (*name == 'E' || *name == 'e'));
      const char *e = quoted_end(p, c, esc);
      if (!e) return refuse(why, wn, SQLSIM_EXEC_ERROR, "a quoted text that does not end%.*s", "", 0);
      /* a quoted token followed by '(' is a function's name (a string there
       * is a syntax error anyway): matched as written in PostgreSQL */
      name = start + 1;
      nlen = (size_t)(e - start - 2);
      exact = kind == SRV_LEX_POSTGRES && c == '"';
      after_into = 0;
      p = e;
    } else if (c == '$' && kind == SRV_LEX_POSTGRES) {
      const char *e = dollar_end(p);
      if (!e) return refuse(why, wn, SQLSIM_EXEC_ERROR, "a $-quoted text that does not end%.*s", "", 0);
      name = NULL;
      p = e == p ? p + 1 : e;
    } else if (is_word_char((unsigned char)c)) {
      while (is_word_char((unsigned char)*p)) p++;
      size_t n = (size_t)(p - start);
      if (kind == SRV_LEX_MYSQL && after_into && ((n == 7 && !strncasecmp(start, "outfile", 7)) ||
                                              (n == 8 && !strncasecmp(start, "dumpfile", 8))))
        return refuse(why, wn, SQLSIM_EXEC_REFUSED, "refused: SELECT .. INTO %.*s writes a file", start, n);
      after_into = n == 4 && !strncasecmp(start, "into", 4);
      name = start;
      nlen = n;
      exact = 0;
    } else if (c == '(') {
      if (name && denied_name(denied, name, nlen, exact))
        return refuse(why, wn, SQLSIM_EXEC_REFUSED, "refused: function %.*s() is not allowed", name, nlen);
      name = NULL;
      p++;
    } else if (c == ';') {
      const char *rest = skip(kind, p + 1);
      while (rest && *rest == ';') rest = skip(kind, rest + 1);
      if (rest && *rest) {
        char at[32];
        snprintf(at, sizeof at, "%ld", (long)(rest - sql));
        return refuse(why, wn, SQLSIM_EXEC_MULTI,
                      "more than one statement (the second starts at offset %.*s); nothing was run", at, strlen(at));
      }
      return 0;
    } else if (c == '/' && p[1] == '*') { /* skip() stopped here: MySQL's executable comment */
      return refuse(why, wn, SQLSIM_EXEC_REFUSED, "refused: %.*s is SQL MySQL runs, not a comment", "/*! .. */", 9);
    } else {
      if (c != '.') name = NULL; /* schema.func( calls func */
      p++;
    }
    p = skip(kind, p);
    if (!p) return refuse(why, wn, SQLSIM_EXEC_ERROR, "a comment that does not end%.*s", "", 0);
  }
  return 0;
}

void srv_put_name_folded(strbuf *sb, const char *name) {
  int plain = (*name >= 'A' && *name <= 'Z') || (*name >= 'a' && *name <= 'z') || *name == '_';
  for (const char *p = name; *p && plain; p++)
    plain = (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
  sb_putc(sb, '"');
  for (const char *p = name; *p; p++) {
    if (*p == '"') sb_putc(sb, '"');
    sb_putc(sb, plain && *p >= 'A' && *p <= 'Z' ? (char)(*p + 32) : *p);
  }
  sb_putc(sb, '"');
}

void srv_put_name_quoted(strbuf *sb, const char *name) {
  sb_putc(sb, '"');
  for (const char *p = name; *p; p++) {
    if (*p == '"') sb_putc(sb, '"');
    sb_putc(sb, *p);
  }
  sb_putc(sb, '"');
}
