/* strbuf.c -- growable malloc'd string used by printers and reports. */
#include "core.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sb_reserve(strbuf *sb, size_t extra) {
  if (sb->len + extra + 1 <= sb->cap) return;
  size_t cap = sb->cap ? sb->cap : 256;
  while (cap < sb->len + extra + 1) cap *= 2;
  char *p = realloc(sb->buf, cap);
  if (!p) {
    fputs("sqlsim: out of memory\n", stderr);
    abort();
  }
  sb->buf = p;
  sb->cap = cap;
}

void sb_putn(strbuf *sb, const char *s, size_t n) {
  sb_reserve(sb, n);
  memcpy(sb->buf + sb->len, s, n);
  sb->len += n;
  sb->buf[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_putc(strbuf *sb, char c) { sb_putn(sb, &c, 1); }

void sb_printf(strbuf *sb, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  sb_reserve(sb, (size_t)n);
  vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  sb->len += (size_t)n;
}

/* The length of the well-formed UTF-8 sequence at p (RFC 3629: shortest
 * form, no surrogates, at most U+10FFFF), or 0. */
static int utf8_len(const unsigned char *p) {
  unsigned c = p[0];
  if (c < 0x80) return 1;
  int n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (!n || c > 0xF4) return 0;
  for (int k = 1; k < n; k++)
    if ((p[k] & 0xC0) != 0x80) return 0;
  if (c == 0xE0 && p[1] < 0xA0) return 0; /* overlong */
  if (c == 0xED && p[1] >= 0xA0) return 0; /* surrogates */
  if (c == 0xF0 && p[1] < 0x90) return 0; /* overlong */
  if (c == 0xF4 && p[1] >= 0x90) return 0; /* past U+10FFFF */
  return n;
}

/* s as a JSON string literal (with quotes), always valid UTF-8: a byte that
 * does not start a well-formed sequence becomes U+FFFD. script_safe also
 * escapes < > & and U+2028/U+2029, so the literal can sit inside an HTML
 * <script>. */
static void json_str(strbuf *sb, const char *s, int script_safe) {
  sb_putc(sb, '"');
  for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
    switch (*p) {
    case '"': sb_puts(sb, "\\\""); break;
    case '\\': sb_puts(sb, "\\\\"); break;
    case '\n': sb_puts(sb, "\\n"); break;
    case '\r': sb_puts(sb, "\\r"); break;
    case '\t': sb_puts(sb, "\\t"); break;
    default:
      if (*p < 0x20 || (script_safe && (*p == '<' || *p == '>' || *p == '&'))) {
        sb_printf(sb, "\\u%04x", *p);
      } else if (script_safe && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
        sb_printf(sb, "\\u%04x", p[2] == 0xA8 ? 0x2028 : 0x2029);
        p += 2;
      } else if (*p < 0x80) {
        sb_putc(sb, (char)*p);
      } else {
        int n = utf8_len(p);
        if (n) {
          sb_putn(sb, (const char *)p, (size_t)n);
          p += n - 1;
        } else {
          sb_puts(sb, "\\ufffd");
        }
      }
    }
  }
  sb_putc(sb, '"');
}

void sb_json_str(strbuf *sb, const char *s) { json_str(sb, s, 0); }

void sb_ident(strbuf *sb, const char *name) {
  sb_putc(sb, '"');
  for (const char *p = name; *p; p++) {
    if (*p == '"') sb_putc(sb, '"');
    sb_putc(sb, *p);
  }
  sb_putc(sb, '"');
}

void sb_json_num(strbuf *sb, double v) {
  if (isnan(v) || isinf(v)) sb_puts(sb, "null");
  else sb_printf(sb, "%.6g", v);
}
void sb_json_real(strbuf *sb, double v) {
  if (isnan(v) || isinf(v)) {
    sb_puts(sb, "null");
    return;
  }
  char buf[40];
  for (int digits = 15; digits <= 17; digits++) { /* the shortest that reads back as v */
    snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (strtod(buf, NULL) == v) break;
  }
  sb_puts(sb, buf);
  if (!strpbrk(buf, ".eE")) sb_puts(sb, ".0"); /* a real stays a real */
}
void sb_json_str_script(strbuf *sb, const char *s) { json_str(sb, s ? s : "", 1); }

char *sb_take(strbuf *sb) {
  if (!sb->buf) sb_reserve(sb, 0), sb->buf[0] = '\0';
  char *p = sb->buf;
  sb->buf = NULL;
  sb->len = sb->cap = 0;
  return p;
}

void sb_free(strbuf *sb) {
  free(sb->buf);
  sb->buf = NULL;
  sb->len = sb->cap = 0;
}
