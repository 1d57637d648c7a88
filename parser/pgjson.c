/* pgjson.c -- the in-place reader of libpg_query's JSON (see pgjson.h).
 *
 * One loop over the text with an explicit stack of open containers, so the
 * depth of the document costs arena memory, never C stack. A value's record
 * is appended to its container as soon as it starts; strings are unescaped
 * over themselves (an escape is never shorter than what it stands for). */
#include "pgjson.h"

#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct open_ctr {
  pj *ctr;  /* the array or object being read */
  pj *last; /* its last member so far */
} open_ctr;

/* Bytes that stand for themselves inside a string: not '"', '\\' or a control. */
static const unsigned char plain[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x5B] = 1, [0x5D ... 0xFF] = 1,
};

/* JSON white space; libpg_query writes none, so the first test fails at once. */
static inline int is_ws(char c) {
  return (unsigned char)c <= ' ' && (c == ' ' || c == '\t' || c == '\n' || c == '\r');
}

static int hex4(const char *s, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return -1;
  }
  *out = v;
  return 0;
}

static char *put_utf8(char *w, unsigned cp) {
  if (cp < 0x80) {
    *w++ = (char)cp;
  } else if (cp < 0x800) {
    *w++ = (char)(0xC0 | (cp >> 6));
    *w++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *w++ = (char)(0xE0 | (cp >> 12));
    *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *w++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *w++ = (char)(0xF0 | (cp >> 18));
    *w++ = (char)(0x80 | ((cp >> 12) & 0x3F));
    *w++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *w++ = (char)(0x80 | (cp & 0x3F));
  }
  return w;
}

/* The rest of a string from r, the first byte that may not stand for itself
 * (s is its start): escapes unescaped in place. See read_string. */
static char *read_string_rest(char **p, const char *end, int *len, char *s, char *r) {
  while (r < end && plain[(unsigned char)*r]) r++;
  char *w = r;
  while (r < end && *r != '"') {
    unsigned char c = (unsigned char)*r;
    if (c < 0x20) goto bad;
    if (c != '\\') {
      *w++ = *r++;
      continue;
    }
    if (r + 1 >= end) goto bad;
    switch (r[1]) {
    case '"': *w++ = '"'; break;
    case '\\': *w++ = '\\'; break;
    case '/': *w++ = '/'; break;
    case 'b': *w++ = '\b'; break;
    case 'f': *w++ = '\f'; break;
    case 'n': *w++ = '\n'; break;
    case 'r': *w++ = '\r'; break;
    case 't': *w++ = '\t'; break;
    case 'u': {
      /* the fault, if any, is reported at the backslash */
      unsigned cp, lo;
      if (end - r < 6 || hex4(r + 2, &cp)) goto bad;
      if (cp >= 0xD800 && cp <= 0xDBFF) { /* a surrogate pair */
        if (end - r < 12 || r[6] != '\\' || r[7] != 'u' || hex4(r + 8, &lo) || lo < 0xDC00 ||
            lo > 0xDFFF)
          goto bad;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        r += 6;
      } else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
        goto bad;
      }
      r += 6;
      w = put_utf8(w, cp);
      continue;
    }
    default: goto bad;
    }
    r += 2;
  }
  if (r >= end) goto bad;
  *w = '\0'; /* w <= r: the closing quote or earlier */
  *p = r + 1;
  *len = (int)(w - s);
  return s;
bad:
  *p = r;
  return NULL;
}

/* Reads the string whose opening quote is at *p (p < end), unescaping it in
 * place. Returns its start, NUL-terminated where its closing quote was, with
 * *p after that quote; NULL with *p at the fault. A \u0000 is refused: the
 * text could not be NUL-terminated. Inlined: a string without escapes (every
 * name and nearly every value libpg_query writes) ends in the first 16-byte
 * block or two; the rest is read_string_rest's. */
static inline char *read_string(char **p, const char *end, int *len) {
  char *s = *p + 1, *r = s;
#ifdef __SSE2__
  const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1F);
  while (end - r >= 16) {
    __m128i b = _mm_loadu_si128((const __m128i *)r);
    __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(b, quote), _mm_cmpeq_epi8(b, bslash)),
                               _mm_cmpeq_epi8(_mm_min_epu8(b, ctl), b)); /* b <= 0x1F */
    int mask = _mm_movemask_epi8(hit);
    if (mask) {
      r += __builtin_ctz((unsigned)mask);
      if (*r != '"') break; /* an escape or a control: the slow way */
      *r = '\0';
      *p = r + 1;
      *len = (int)(r - s);
      return s;
    }
    r += 16;
  }
#endif
  return read_string_rest(p, end, len, s, r);
}

/* Reads a number at *p; sets v->ival (integer part, saturated). */
static int read_number(char **p, const char *end, pj *v) {
  char *s = *p;
  int neg = 0;
  long long x = 0;
  if (s < end && *s == '-') neg = 1, s++;
  if (s >= end || *s < '0' || *s > '9') return -1;
  if (*s == '0' && s + 1 < end && s[1] >= '0' && s[1] <= '9') return -1; /* no leading zeros */
  while (s < end && *s >= '0' && *s <= '9') {
    if (x < 10000000000LL) x = x * 10 + (*s - '0');
    s++;
  }
  if (s < end && *s == '.') {
    s++;
    if (s >= end || *s < '0' || *s > '9') return -1;
    while (s < end && *s >= '0' && *s <= '9') s++;
  }
  if (s < end && (*s == 'e' || *s == 'E')) {
    /* the exponent moves the integer part: read the whole number the slow way */
    s++;
    if (s < end && (*s == '+' || *s == '-')) s++;
    if (s >= end || *s < '0' || *s > '9') return -1;
    while (s < end && *s >= '0' && *s <= '9') s++;
    char small[64], *tmp = small;
    size_t n = (size_t)(s - *p);
    if (n >= sizeof small && !(tmp = malloc(n + 1))) return -1;
    memcpy(tmp, *p, n);
    tmp[n] = '\0';
    double d = strtod(tmp, NULL);
    if (tmp != small) free(tmp);
    x = d >= 2147483647.0 ? 2147483647LL : d <= -2147483648.0 ? -2147483648LL : (long long)d;
    neg = 0;
  }
  if (neg) x = -x;
  v->ival = x > 2147483647LL ? 2147483647 : x < -2147483648LL ? (int)-2147483648LL : (int)x;
  *p = s;
  return 0;
}

static int json_literal(char **p, const char *end, const char *word, size_t n) {
  if ((size_t)(end - *p) < n || memcmp(*p, word, n)) return -1;
  *p += n;
  return 0;
}

pj *pj_parse(sqlsim_arena *a, char *text, size_t len, size_t *err_offset) {
  char *p = text;
  const char *end = text + len;
  open_ctr *stack = NULL;
  int depth = 0, cap = 0;
  pj *root = NULL;
  pj_pool pool = {NULL, 0};
  for (;;) {
    /* a value is expected here (after its name, inside an object) */
    const char *key = NULL;
    int klen = 0;
    while (p < end && is_ws(*p)) p++;
    if (depth && stack[depth - 1].ctr->type == PJ_OBJ) {
      if (p >= end || *p != '"' || !(key = read_string(&p, end, &klen))) goto fail;
      while (p < end && is_ws(*p)) p++;
      if (p >= end || *p != ':') goto fail;
      p++;
      while (p < end && is_ws(*p)) p++;
    }
    if (p >= end) goto fail;
    pj *v = pj_record(a, &pool);
    v->next = v->child = NULL;
    v->str = NULL;
    v->ival = v->n = 0;
    v->key = key;
    v->klen = klen;
    if (depth) {
      open_ctr *o = &stack[depth - 1];
      if (o->last) o->last->next = v;
      else o->ctr->child = v;
      o->last = v;
      o->ctr->n++;
    } else {
      root = v;
    }
    int opened = 0;
    switch (*p) {
    case '{':
    case '[':
      v->type = *p == '{' ? PJ_OBJ : PJ_ARR;
      p++;
      if (depth == cap) stack = arena_array_grow(a, stack, depth, &cap, sizeof *stack, 32);
      stack[depth].ctr = v;
      stack[depth].last = NULL;
      depth++;
      while (p < end && is_ws(*p)) p++;
      if (p < end && *p == (v->type == PJ_OBJ ? '}' : ']')) {
        p++;
        depth--;
      } else {
        opened = 1;
      }
      break;
    case '"':
      v->type = PJ_STR;
      if (!(v->str = read_string(&p, end, &v->ival))) goto fail;
      break;
    case 't':
      v->type = PJ_TRUE;
      if (json_literal(&p, end, "true", 4)) goto fail;
      break;
    case 'f':
      v->type = PJ_FALSE;
      if (json_literal(&p, end, "false", 5)) goto fail;
      break;
    case 'n':
      v->type = PJ_NULL;
      if (json_literal(&p, end, "null", 4)) goto fail;
      break;
    default:
      v->type = PJ_NUM;
      v->str = p;
      if (read_number(&p, end, v)) goto fail;
      break;
    }
    if (opened) continue; /* its first member is next */
    /* after a value: a comma, or the end of containers */
    for (;;) {
      while (p < end && is_ws(*p)) p++;
      if (!depth) {
        if (p != end) goto fail;
        return root;
      }
      if (p >= end) goto fail;
      if (*p == ',') {
        p++;
        break;
      }
      if (*p != (stack[depth - 1].ctr->type == PJ_OBJ ? '}' : ']')) goto fail;
      p++;
      depth--;
    }
  }
fail:
  if (err_offset) *err_offset = (size_t)(p - text);
  return NULL;
}
