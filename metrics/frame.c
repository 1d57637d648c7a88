/* frame.c -- a CSV read as pandas 1.5.3's read_csv reads it (the C engine,
 * default arguments), the way Spider 2.0's evaluator reads gold and
 * predicted results.
 *
 * Three steps, each pandas' own:
 *   1. tokenize (pandas/_libs/src/parser/tokenizer.c: tokenize_bytes,
 *      end_line, parser_handle_eof): the state machine with ',' and '"',
 *      "" inside quotes, \n, \r\n and lone \r ends of line, blank and
 *      blank-only lines skipped, a UTF-8 byte order mark dropped, short rows
 *      padded with empty fields, a row longer than the one before it an
 *      error (the first data row may be longer than the header: the extra
 *      leading fields are an index, not data);
 *   2. convert each column in chunks of rows (parsers.pyx: _convert_tokens,
 *      buffer_lines = the power of two near 2^20 / width): int64, else
 *      uint64 on overflow, else float64 (precise_xstrtod, inf/Infinity),
 *      else bool (True/TRUE/true, False/FALSE/false, any case of TRUE and
 *      FALSE), else text; the 18 NA strings (not "None") are missing values,
 *      which turn an integer column into floats and a bool column into
 *      objects; a field is a C string (it ends at a NUL byte);
 *   3. join the chunks as np.concatenate promotes them (c_parser_wrapper.py:
 *      _concatenate_chunks).
 * Text cells are checked as Python's strict UTF-8 decoder checks them.
 * Entry points: s2_frame_read, s2_frame_free, s2_float_repr. */
#include "spider2.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---------------------------------------------------------------- tokenizing */

enum {
  T_START_RECORD,
  T_START_FIELD,
  T_IN_FIELD,
  T_IN_QUOTED_FIELD,
  T_QUOTE_IN_QUOTED_FIELD,
  T_EAT_CRNL,
  T_EAT_CRNL_NOP,
  T_WHITESPACE_LINE
};

#define PIECE 262144          /* bytes pandas reads at a time (DEFAULT_CHUNKSIZE) */
#define STREAM_INIT_SIZE 32   /* tokenizer.h */

/* pandas' own buffers, shadowed. A line led by blanks is read again from
 * its start: pandas backs up to the last \n, but no further than where the
 * current tokenize_bytes call began (the file's start, a 256 KiB piece's
 * start, or where the call before stopped: after the header and first row,
 * then after each buffer_lines rows). In a file with lone \r line ends that
 * is before the line, and pandas reads earlier lines again into the
 * current one until its buffers, sized at the call's start, overflow
 * ("Buffer overflow caught"). The positions, counts and capacities here are
 * pandas', so that file reads as it does there. */
typedef struct shadow {
  size_t datapos;          /* where the current call began */
  size_t piece_end;        /* the end of the piece being read */
  uint64_t stream_cap, words_cap, lines_cap, max_words_cap;
  long gone_lines, gone_words; /* consumed after each block of rows */
  size_t gone_chars;
  long limit;              /* lines at which the current call stops (0: none) */
  long buffer_lines;       /* rows a block converts (known after the header call) */
  int new_call;            /* the next byte starts a call */
} shadow;

typedef struct tok {
  char *stream;            /* every field's bytes, each followed by a NUL */
  size_t slen, scap;
  size_t field_start;      /* where the field being read starts in stream */
  uint32_t *words;         /* each field's start in stream */
  long nwords, wcap;
  long *line_start;        /* each line's first field */
  long *line_fields;       /* its fields */
  long *line_no;           /* its line in the file (1-based, blank lines counted) */
  long lines, lcap;
  long file_lines;         /* lines of the file passed so far */
  int state;
  shadow sh;
  char err[200];
} tok;

static const char overflow_msg[] =
    "Error tokenizing data. C error: Buffer overflow caught - possible malformed input file.";

static int tok_grow_stream(tok *t, size_t more) {
  if (t->slen + more <= t->scap) return 0;
  size_t cap = t->scap ? t->scap : 4096;
  while (cap < t->slen + more) cap *= 2;
  if (cap > (size_t)UINT32_MAX) {
    snprintf(t->err, sizeof t->err, "the file's fields are larger than 4 GiB");
    return -1;
  }
  char *p = realloc(t->stream, cap);
  if (!p) return -1;
  t->stream = p;
  t->scap = cap;
  return 0;
}

/* make_stream_space(nbytes), on the shadowed capacities. */
static void shadow_space(tok *t, uint64_t nbytes) {
  shadow *h = &t->sh;
  uint64_t slen = t->slen - h->gone_chars, wlen = (uint64_t)(t->nwords - h->gone_words),
           lines = (uint64_t)(t->lines - h->gone_lines);
  while (slen + nbytes * 2 >= h->stream_cap) h->stream_cap = h->stream_cap ? h->stream_cap << 1 : 2;
  uint64_t length = wlen + nbytes < h->max_words_cap ? h->max_words_cap - nbytes - 1 : wlen;
  while (length + nbytes >= h->words_cap) h->words_cap = h->words_cap ? h->words_cap << 1 : 2;
  while (lines + 1 + nbytes >= h->lines_cap) h->lines_cap = h->lines_cap ? h->lines_cap << 1 : 2;
}

static int push_char(tok *t, char c) {
  if (t->slen - t->sh.gone_chars >= t->sh.stream_cap) {
    snprintf(t->err, sizeof t->err, "%s", overflow_msg);
    return -1;
  }
  if (t->slen >= t->scap && tok_grow_stream(t, 1)) return -1;
  t->stream[t->slen++] = c;
  return 0;
}

/* Pushes the run of bytes at data[i..) that cannot end the field (none of
 * stops), as push_char would one by one: the index after it, or (size_t)-1. */
static size_t push_run(tok *t, const char *data, size_t i, size_t end, int quoted) {
  size_t j = i;
  if (quoted) {
    const char *q = memchr(data + i, '"', end - i);
    j = q ? (size_t)(q - data) : end;
  } else {
    while (j < end && data[j] != ',' && data[j] != '\n' && data[j] != '\r') j++;
  }
  size_t n = j - i;
  if (t->slen - t->sh.gone_chars + n > t->sh.stream_cap) { /* pandas overflows inside the run: one by one */
    for (; i < j; i++)
      if (push_char(t, data[i])) return (size_t)-1;
    return j;
  }
  if (t->slen + n > t->scap && tok_grow_stream(t, n)) return (size_t)-1;
  memcpy(t->stream + t->slen, data + i, n);
  t->slen += n;
  return j;
}

static int grow_lines(tok *t) {
  if (t->lines + 1 < t->lcap) return 0;
  long cap = t->lcap ? t->lcap * 2 : 256;
  long *a = realloc(t->line_start, sizeof *a * (size_t)cap);
  if (a) t->line_start = a;
  long *b = realloc(t->line_fields, sizeof *b * (size_t)cap);
  if (b) t->line_fields = b;
  long *c = realloc(t->line_no, sizeof *c * (size_t)cap);
  if (c) t->line_no = c;
  if (!a || !b || !c) return -1;
  t->lcap = cap;
  return 0;
}

/* end_field: the field read so far is ended (NUL-terminated) and counted. */
static int end_field(tok *t) {
  if ((uint64_t)(t->nwords - t->sh.gone_words) >= t->sh.words_cap) {
    snprintf(t->err, sizeof t->err, "%s", overflow_msg);
    return -1;
  }
  if (push_char(t, '\0')) return -1;
  if (t->nwords >= t->wcap) {
    long cap = t->wcap ? t->wcap * 2 : 1024;
    uint32_t *w = realloc(t->words, sizeof *w * (size_t)cap);
    if (!w) return -1;
    t->words = w;
    t->wcap = cap;
  }
  if (t->nwords >= S2_MAX_CELLS) {
    snprintf(t->err, sizeof t->err, "more than %ld fields", S2_MAX_CELLS);
    return -1;
  }
  t->words[t->nwords++] = (uint32_t)t->field_start;
  t->line_fields[t->lines]++;
  t->field_start = t->slen;
  return 0;
}

/* Lines a block of rows is converted after, and pandas' buffers emptied of
 * those rows (parser_consume_rows). */
static void block_end(tok *t) {
  shadow *h = &t->sh;
  long upto = h->gone_lines + h->buffer_lines; /* the block's rows and the line before them go */
  h->gone_lines = upto;
  h->gone_words = t->line_start[upto];
  h->gone_chars = t->words[t->line_start[upto]];
}

/* end_line: a line is kept (header_end 0, no expected count: a line is
 * compared with the one before it), padded, or refused. Then, at a call's
 * line limit, the call ends (1). */
static int end_line(tok *t) {
  long fields = t->line_fields[t->lines];
  long ex = t->lines > 0 ? t->line_fields[t->lines - 1] : -1;
  if (t->lines > 1 && fields > ex) {
    t->file_lines++;
    snprintf(t->err, sizeof t->err, "Error tokenizing data. C error: Expected %ld fields in line %ld, saw %ld", ex,
             t->file_lines, fields);
    return -1;
  }
  if (t->lines >= 1 && fields < ex) {
    shadow_space(t, (uint64_t)(ex - fields));
    if (tok_grow_stream(t, (size_t)(ex - fields))) return -1;
    while (fields < ex) {
      if (end_field(t)) return -1;
      fields++;
    }
  }
  t->file_lines++;
  t->line_no[t->lines] = t->file_lines;
  t->lines++;
  if (grow_lines(t)) return -1;
  t->line_start[t->lines] = t->line_start[t->lines - 1] + fields;
  t->line_fields[t->lines] = 0;
  if ((uint64_t)(t->lines - t->sh.gone_lines) >= t->sh.lines_cap) {
    snprintf(t->err, sizeof t->err, "%s", overflow_msg);
    return -1;
  }
  shadow *h = &t->sh;
  if (t->lines != h->limit) return 0;
  if (!h->buffer_lines) { /* the header call: the table's width gives the block size */
    long heuristic = (1L << 20) / (t->line_fields[1] ? t->line_fields[1] : 1);
    h->buffer_lines = 1;
    while (h->buffer_lines * 2 < heuristic) h->buffer_lines *= 2;
  } else {
    block_end(t);
  }
  h->limit = h->gone_lines + 1 + h->buffer_lines;
  h->new_call = 1;
  return 0;
}

/* A tokenize_bytes call begins at i: its space made, a byte order mark
 * dropped while no line has ended. */
static size_t call_begin(tok *t, const char *data, size_t n, size_t i) {
  shadow *h = &t->sh;
  if (i >= h->piece_end) h->piece_end = i + PIECE < n ? i + PIECE : n;
  h->datapos = i;
  h->new_call = 0;
  shadow_space(t, h->piece_end - i);
  if (t->file_lines == 0 && h->piece_end - i >= 3 && (unsigned char)data[i] == 0xef &&
      (unsigned char)data[i + 1] == 0xbb && (unsigned char)data[i + 2] == 0xbf) {
    i += 3;
    h->datapos = i;
  }
  return i;
}

#define IS_BLANK(c) ((c) == ' ' || (c) == '\t')

/* parser_handle_eof: the last line closed, or a quote left open. */
static int tokenize_eof(tok *t) {
  switch (t->state) {
  case T_START_RECORD:
  case T_WHITESPACE_LINE:
  case T_EAT_CRNL_NOP:
    return 0;
  case T_IN_QUOTED_FIELD:
    snprintf(t->err, sizeof t->err, "Error tokenizing data. C error: EOF inside string starting at row %ld",
             t->file_lines);
    return -1;
  case T_IN_FIELD:
  case T_START_FIELD:
  case T_QUOTE_IN_QUOTED_FIELD:
    if (end_field(t)) return -1;
    break;
  default:
    break;
  }
  return end_line(t);
}

/* tokenize_bytes over the whole input, its calls and pieces as pandas
 * makes them (see shadow). */
static int tokenize(tok *t, const char *data, size_t n) {
  shadow *h = &t->sh;
  h->stream_cap = STREAM_INIT_SIZE;
  h->words_cap = h->max_words_cap = h->lines_cap = STREAM_INIT_SIZE / 10;
  h->limit = 2;
  size_t i = 0;
  h->new_call = 1;
  for (; i < n; i++) {
    if (h->new_call || i >= h->piece_end) {
      i = call_begin(t, data, n, i);
      if (i >= n) break;
    }
    char c = data[i];
  again:
    switch (t->state) {
    case T_WHITESPACE_LINE:
      if (c == '\n') {
        t->file_lines++;
        t->state = T_START_RECORD;
      } else if (c == '\r') {
        t->file_lines++;
        t->state = T_EAT_CRNL_NOP;
      } else if (!(IS_BLANK(c) && c != ',')) { /* back to the last \n, no further than the call's start */
        size_t p = i;
        while (p > h->datapos && data[p] != '\n') p--;
        if (data[p] == '\n') p++;
        i = p;
        c = data[i];
        t->state = T_START_FIELD;
        goto again;
      }
      break;
    case T_START_RECORD:
      if (c == '\n') {
        t->file_lines++;
        break;
      } else if (c == '\r') {
        t->file_lines++;
        t->state = T_EAT_CRNL_NOP;
        break;
      } else if (IS_BLANK(c) && c != ',') {
        t->state = T_WHITESPACE_LINE;
        break;
      }
      t->state = T_START_FIELD;
      /* fall through */
    case T_START_FIELD:
      if (c == '\n') {
        if (end_field(t)) return -1;
        t->state = T_START_RECORD;
        if (end_line(t)) return -1;
      } else if (c == '\r') {
        if (end_field(t)) return -1;
        t->state = T_EAT_CRNL;
      } else if (c == '"') {
        t->state = T_IN_QUOTED_FIELD;
      } else if (c == ',') {
        if (end_field(t)) return -1;
      } else {
        if (push_char(t, c)) return -1;
        t->state = T_IN_FIELD;
      }
      break;
    case T_IN_FIELD:
      if (c == '\n') {
        if (end_field(t)) return -1;
        t->state = T_START_RECORD;
        if (end_line(t)) return -1;
      } else if (c == '\r') {
        if (end_field(t)) return -1;
        t->state = T_EAT_CRNL;
      } else if (c == ',') {
        if (end_field(t)) return -1;
        t->state = T_START_FIELD;
      } else {
        size_t j = push_run(t, data, i, h->piece_end, 0);
        if (j == (size_t)-1) return -1;
        i = j - 1;
      }
      break;
    case T_IN_QUOTED_FIELD:
      if (c == '"') {
        t->state = T_QUOTE_IN_QUOTED_FIELD;
      } else {
        size_t j = push_run(t, data, i, h->piece_end, 1);
        if (j == (size_t)-1) return -1;
        i = j - 1;
      }
      break;
    case T_QUOTE_IN_QUOTED_FIELD:
      if (c == '"') {
        if (push_char(t, c)) return -1;
        t->state = T_IN_QUOTED_FIELD;
      } else if (c == ',') {
        if (end_field(t)) return -1;
        t->state = T_START_FIELD;
      } else if (c == '\n') {
        if (end_field(t)) return -1;
        t->state = T_START_RECORD;
        if (end_line(t)) return -1;
      } else if (c == '\r') {
        if (end_field(t)) return -1;
        t->state = T_EAT_CRNL;
      } else {
        if (push_char(t, c)) return -1;
        t->state = T_IN_FIELD;
      }
      break;
    case T_EAT_CRNL:
      if (c == '\n') {
        t->state = T_START_RECORD;
        if (end_line(t)) return -1;
      } else if (c == ',') { /* a \r-ended line, then a line that starts with an empty field */
        if (end_line(t) || end_field(t)) return -1;
        t->state = T_START_FIELD;
      } else {
        t->state = T_START_RECORD;
        if (end_line(t)) return -1;
        if (h->new_call) { /* this character starts the next line, and the next call */
          i--;
          break;
        }
        goto again;
      }
      break;
    case T_EAT_CRNL_NOP: /* after a skipped line's \r: \n and ',' are eaten, anything else read again */
      t->state = T_START_RECORD;
      if (c != '\n' && c != ',') goto again;
      break;
    }
  }
  return tokenize_eof(t);
}

static void tok_free(tok *t) {
  free(t->words);
  free(t->line_start);
  free(t->line_fields);
  free(t->line_no);
}

/* ---------------------------------------------------------------- numbers as pandas reads them */

static int isspace_ascii(char c) { return c == ' ' || (unsigned char)(c - '\t') < 5; }
static int isdigit_ascii(char c) { return (unsigned char)(c - '0') < 10; }

enum { NUM_OK, NUM_INVALID, NUM_OVERFLOW };

/* str_to_int64: leading and trailing ASCII spaces, a sign, digits. */
static int to_int64(const char *p, int64_t *out) {
  while (isspace_ascii(*p)) p++;
  int neg = 0;
  if (*p == '-') {
    neg = 1;
    p++;
  } else if (*p == '+') {
    p++;
  }
  if (!isdigit_ascii(*p)) return NUM_INVALID;
  int64_t v = 0;
  if (neg) {
    int64_t pre_min = INT64_MIN / 10;
    int dig_pre_min = -(int)(INT64_MIN % 10);
    for (; isdigit_ascii(*p); p++) {
      int d = *p - '0';
      if (v > pre_min || (v == pre_min && d <= dig_pre_min)) v = v * 10 - d;
      else return NUM_OVERFLOW;
    }
  } else {
    int64_t pre_max = INT64_MAX / 10;
    int dig_pre_max = (int)(INT64_MAX % 10);
    for (; isdigit_ascii(*p); p++) {
      int d = *p - '0';
      if (v < pre_max || (v == pre_max && d <= dig_pre_max)) v = v * 10 + d;
      else return NUM_OVERFLOW;
    }
  }
  while (isspace_ascii(*p)) p++;
  if (*p) return NUM_INVALID;
  *out = v;
  return NUM_OK;
}

typedef struct uint_state {
  int seen_sint, seen_uint, seen_null;
} uint_state;

/* str_to_uint64: a '-' anywhere first is a signed value (0, no error). */
static int to_uint64(uint_state *st, const char *p, uint64_t *out) {
  while (isspace_ascii(*p)) p++;
  if (*p == '-') {
    st->seen_sint = 1;
    *out = 0;
    return NUM_OK;
  } else if (*p == '+') {
    p++;
  }
  if (!isdigit_ascii(*p)) return NUM_INVALID;
  uint64_t v = 0, pre_max = UINT64_MAX / 10;
  int dig_pre_max = (int)(UINT64_MAX % 10);
  for (; isdigit_ascii(*p); p++) {
    int d = *p - '0';
    if (v < pre_max || (v == pre_max && d <= dig_pre_max)) v = v * 10 + (uint64_t)d;
    else return NUM_OVERFLOW;
  }
  while (isspace_ascii(*p)) p++;
  if (*p) return NUM_INVALID;
  if (v > (uint64_t)INT64_MAX) st->seen_uint = 1;
  *out = v;
  return NUM_OK;
}

/* precise_xstrtod with pandas' defaults (decimal '.', sci 'E', no thousands
 * separator, trailing spaces skipped): at most 17 digits kept, accumulated
 * in a double, scaled by a table of powers of ten. Not always the nearest
 * double (99999999999999999999 reads as 1.0000000000000002e+20): what
 * pandas reads is what the script compares. 0 with *out, or -1. */
static int pandas_strtod(const char *str, double *out) {
  static const double e[] = {
      1e0,   1e1,   1e2,   1e3,   1e4,   1e5,   1e6,   1e7,   1e8,   1e9,   1e10,  1e11,  1e12,  1e13,  1e14,
      1e15,  1e16,  1e17,  1e18,  1e19,  1e20,  1e21,  1e22,  1e23,  1e24,  1e25,  1e26,  1e27,  1e28,  1e29,
      1e30,  1e31,  1e32,  1e33,  1e34,  1e35,  1e36,  1e37,  1e38,  1e39,  1e40,  1e41,  1e42,  1e43,  1e44,
      1e45,  1e46,  1e47,  1e48,  1e49,  1e50,  1e51,  1e52,  1e53,  1e54,  1e55,  1e56,  1e57,  1e58,  1e59,
      1e60,  1e61,  1e62,  1e63,  1e64,  1e65,  1e66,  1e67,  1e68,  1e69,  1e70,  1e71,  1e72,  1e73,  1e74,
      1e75,  1e76,  1e77,  1e78,  1e79,  1e80,  1e81,  1e82,  1e83,  1e84,  1e85,  1e86,  1e87,  1e88,  1e89,
      1e90,  1e91,  1e92,  1e93,  1e94,  1e95,  1e96,  1e97,  1e98,  1e99,  1e100, 1e101, 1e102, 1e103, 1e104,
      1e105, 1e106, 1e107, 1e108, 1e109, 1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
      1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129, 1e130, 1e131, 1e132, 1e133, 1e134,
      1e135, 1e136, 1e137, 1e138, 1e139, 1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149,
      1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159, 1e160, 1e161, 1e162, 1e163, 1e164,
      1e165, 1e166, 1e167, 1e168, 1e169, 1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179,
      1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189, 1e190, 1e191, 1e192, 1e193, 1e194,
      1e195, 1e196, 1e197, 1e198, 1e199, 1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
      1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219, 1e220, 1e221, 1e222, 1e223, 1e224,
      1e225, 1e226, 1e227, 1e228, 1e229, 1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
      1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249, 1e250, 1e251, 1e252, 1e253, 1e254,
      1e255, 1e256, 1e257, 1e258, 1e259, 1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269,
      1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279, 1e280, 1e281, 1e282, 1e283, 1e284,
      1e285, 1e286, 1e287, 1e288, 1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299,
      1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308};
  const char *p = str;
  const int max_digits = 17;
  while (isspace_ascii(*p)) p++;
  int negative = 0;
  if (*p == '-') {
    negative = 1;
    p++;
  } else if (*p == '+') {
    p++;
  }
  double number = 0.;
  int exponent = 0, num_digits = 0, num_decimals = 0;
  for (; isdigit_ascii(*p); p++) {
    if (num_digits < max_digits) {
      number = number * 10. + (*p - '0');
      num_digits++;
    } else {
      ++exponent;
    }
  }
  if (*p == '.') {
    p++;
    for (; num_digits < max_digits && isdigit_ascii(*p); p++) {
      number = number * 10. + (*p - '0');
      num_digits++;
      num_decimals++;
    }
    if (num_digits >= max_digits)
      while (isdigit_ascii(*p)) ++p;
    exponent -= num_decimals;
  }
  if (num_digits == 0) return -1;
  if (negative) number = -number;
  if (*p == 'e' || *p == 'E') {
    int eneg = 0;
    ++p;
    if (*p == '-') {
      eneg = 1;
      p++;
    } else if (*p == '+') {
      p++;
    }
    int ed = 0;
    uint32_t n = 0; /* pandas' int, wrapping as the machine wraps it */
    for (; ed < max_digits && isdigit_ascii(*p); p++, ed++) n = n * 10u + (uint32_t)(*p - '0');
    int32_t nn = (int32_t)n;
    exponent = (int)(eneg ? (uint32_t)exponent - (uint32_t)nn : (uint32_t)exponent + (uint32_t)nn);
    if (ed == 0) p--; /* no digits: the 'e' is not part of the number (the sign stays eaten) */
  }
  if (exponent > 308) return -1;
  if (exponent > 0) number *= e[exponent];
  else if (exponent < -308) {
    if (exponent < -616) number = 0.;
    else {
      number /= e[-308 - exponent];
      number /= e[308];
    }
  } else {
    number /= e[-exponent];
  }
  if (number == HUGE_VAL || number == -HUGE_VAL) return -1;
  while (isspace_ascii(*p)) p++;
  if (p == str || *p) return -1;
  *out = number;
  return 0;
}

/* _try_double's fallback: inf, +inf, Infinity, +Infinity, -inf, -Infinity
 * in any case. */
static int inf_word(const char *w, double *out) {
  if (!strcasecmp(w, "inf") || !strcasecmp(w, "+inf") || !strcasecmp(w, "Infinity") ||
      !strcasecmp(w, "+Infinity")) {
    *out = HUGE_VAL;
    return 0;
  }
  if (!strcasecmp(w, "-inf") || !strcasecmp(w, "-Infinity")) {
    *out = -HUGE_VAL;
    return 0;
  }
  return -1;
}

/* STR_NA_VALUES of pandas 1.5.3 (parsers.pyx): "None" is not one. */
static int is_na(const char *w) {
  static const char *const na[] = {"",    "#N/A", "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN",
                                   "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A",     "NA",       "NULL",
                                   "NaN",  "n/a",  "nan",      "null"};
  switch (w[0]) {
  case '\0': return 1;
  case '#': case '-': case '1': case '<': case 'N': case 'n': break;
  default: return 0;
  }
  for (size_t k = 1; k < sizeof na / sizeof na[0]; k++)
    if (!strcmp(w, na[k])) return 1;
  return 0;
}

static int true_word(const char *w) { return !strcmp(w, "True") || !strcmp(w, "TRUE") || !strcmp(w, "true"); }
static int false_word(const char *w) { return !strcmp(w, "False") || !strcmp(w, "FALSE") || !strcmp(w, "false"); }

/* Python's strict UTF-8 decoder: no overlong forms, no surrogates, nothing
 * past U+10FFFF. Returns -1 when s is valid, else the offset of the first
 * byte it cannot decode. */
long s2_utf8_bad(const unsigned char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned c = s[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t k;
    unsigned lo = 0x80, hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) k = 1;
    else if (c == 0xe0) k = 2, lo = 0xa0;
    else if (c == 0xed) k = 2, hi = 0x9f;
    else if (c >= 0xe1 && c <= 0xef) k = 2;
    else if (c == 0xf0) k = 3, lo = 0x90;
    else if (c == 0xf4) k = 3, hi = 0x8f;
    else if (c >= 0xf1 && c <= 0xf3) k = 3;
    else return (long)i;
    if (i + 1 >= n || s[i + 1] < lo || s[i + 1] > hi) return (long)i;
    for (size_t j = 2; j <= k; j++)
      if (i + j >= n || s[i + j] < 0x80 || s[i + j] > 0xbf) return (long)i;
    i += k + 1;
  }
  return -1;
}

/* ---------------------------------------------------------------- columns */

typedef struct reader {
  tok t;
  const char *stream;
  long width;              /* fields of every data row */
  char err[300];
} reader;

static const char *word(const reader *R, long row, long col) {
  return R->stream + R->t.words[R->t.line_start[row + 1] + col];
}

/* A text cell, decoded as Python decodes it (strict UTF-8), or -1 with the
 * error UnicodeDecodeError gives. */
static int str_cell(reader *R, long row, const char *w, s2_value *v) {
  size_t n = strlen(w);
  long bad = s2_utf8_bad((const unsigned char *)w, n);
  if (bad >= 0) {
    snprintf(R->err, sizeof R->err, "line %ld: 'utf-8' codec can't decode byte 0x%02x in position %ld",
             R->t.line_no[row + 1], (unsigned char)w[bad], bad);
    return -1;
  }
  v->kind = S2_V_STR;
  v->s = w;
  v->len = (uint32_t)n;
  return 0;
}

static void nan_cell(s2_value *v) {
  v->kind = S2_V_FLOAT;
  v->x = NAN;
  v->s = NULL;
  v->len = 0;
}

/* _string_box_utf8: text, the NA strings missing when na_filter. */
static int convert_object(reader *R, long col, long r0, long r1, int na_filter, s2_value *out) {
  for (long r = r0; r < r1; r++) {
    const char *w = word(R, r, col);
    if (na_filter && is_na(w)) nan_cell(&out[r - r0]);
    else if (str_cell(R, r, w, &out[r - r0])) return -1;
  }
  return 0;
}

/* _try_int64: 1 when every cell is an integer or NA (na: how many NA),
 * 0 when one is not, NUM_OVERFLOW (as -2) when one does not fit. */
static int try_int64(reader *R, long col, long r0, long r1, s2_value *out, long *na) {
  *na = 0;
  for (long r = r0; r < r1; r++) {
    const char *w = word(R, r, col);
    s2_value *v = &out[r - r0];
    if (is_na(w)) {
      (*na)++;
      nan_cell(v);
      continue;
    }
    int64_t x;
    int rc = to_int64(w, &x);
    if (rc == NUM_OVERFLOW) return -2;
    if (rc) return 0;
    v->kind = S2_V_INT;
    v->i = x;
    v->len = 0;
  }
  return 1;
}

/* _try_uint64 (after int64 overflowed): 1 uint64 column, 0 not integers
 * (the next dtype is tried), -2 OverflowError (object, NA filtered), -3
 * ValueError (object, NA kept as text). */
static int try_uint64(reader *R, long col, long r0, long r1, s2_value *out) {
  uint_state st = {0, 0, 0};
  for (long r = r0; r < r1; r++) {
    const char *w = word(R, r, col);
    s2_value *v = &out[r - r0];
    v->kind = S2_V_UINT;
    v->len = 0;
    if (is_na(w)) {
      st.seen_null = 1;
      v->u = 0;
      continue;
    }
    int rc = to_uint64(&st, w, &v->u);
    if (rc == NUM_OVERFLOW) return -2;
    if (rc) return 0;
  }
  if (st.seen_uint && (st.seen_sint || st.seen_null)) return -3;
  if (st.seen_sint) return -2;
  return 1;
}

static int try_double(reader *R, long col, long r0, long r1, s2_value *out) {
  for (long r = r0; r < r1; r++) {
    const char *w = word(R, r, col);
    s2_value *v = &out[r - r0];
    if (is_na(w)) {
      nan_cell(v);
      continue;
    }
    double x;
    if (pandas_strtod(w, &x) && inf_word(w, &x)) return 0;
    v->kind = S2_V_FLOAT;
    v->x = x;
    v->s = w;
    v->len = (uint32_t)strlen(w);
  }
  return 1;
}

/* _try_bool_flex: 1 bools (na: NA cells, NaN), 0 not. */
static int try_bool(reader *R, long col, long r0, long r1, s2_value *out, long *na) {
  *na = 0;
  for (long r = r0; r < r1; r++) {
    const char *w = word(R, r, col);
    s2_value *v = &out[r - r0];
    if (is_na(w)) {
      (*na)++;
      nan_cell(v);
      continue;
    }
    int b;
    if (true_word(w) || !strcasecmp(w, "TRUE")) b = 1;
    else if (false_word(w) || !strcasecmp(w, "FALSE")) b = 0;
    else return 0;
    v->kind = S2_V_BOOL;
    v->i = b;
    v->len = 0;
  }
  return 1;
}

/* _convert_tokens over rows [r0, r1) of col: its dtype and cells. */
static int convert_chunk(reader *R, long col, long r0, long r1, s2_value *out, s2_dtype *dt) {
  long na;
  int rc = try_int64(R, col, r0, r1, out, &na);
  if (rc == 1) {
    if (na > 0) { /* _maybe_upcast: integers with NA are floats, and the NA marker's value
                     (INT64_MIN) is NA too wherever it was read */
      for (long k = 0; k < r1 - r0; k++)
        if (out[k].kind == S2_V_INT) {
          out[k].x = out[k].i == INT64_MIN ? NAN : (double)out[k].i;
          out[k].kind = S2_V_FLOAT;
          out[k].s = NULL;
        }
      *dt = S2_FLOAT64;
    } else {
      *dt = S2_INT64;
    }
    return 0;
  }
  if (rc == -2) {
    rc = try_uint64(R, col, r0, r1, out);
    if (rc == 1) {
      *dt = S2_UINT64;
      return 0;
    }
    if (rc == -2 || rc == -3) {
      *dt = S2_OBJECT;
      return convert_object(R, col, r0, r1, rc == -2, out);
    }
  }
  if (try_double(R, col, r0, r1, out)) {
    *dt = S2_FLOAT64;
    return 0;
  }
  if (try_bool(R, col, r0, r1, out, &na)) {
    *dt = na > 0 ? S2_OBJECT : S2_BOOL; /* bools with NA are objects: True, False, nan */
    return 0;
  }
  *dt = S2_OBJECT;
  return convert_object(R, col, r0, r1, 1, out);
}

/* np.concatenate's promotion of two chunks' dtypes. */
static s2_dtype promote(s2_dtype a, s2_dtype b) {
  if (a == b) return a;
  if (a == S2_OBJECT || b == S2_OBJECT) return S2_OBJECT;
  if (a == S2_BOOL) return b;
  if (b == S2_BOOL) return a;
  return S2_FLOAT64; /* int64 with uint64, either with float64 */
}

/* A cell of a chunk of dtype from, as a column of dtype to holds it. */
static void cast_cell(s2_value *v, s2_dtype to) {
  if (to == S2_OBJECT) return; /* np.concatenate into objects: each value as the Python object it was */
  if (to == S2_FLOAT64) {
    if (v->kind == S2_V_INT || v->kind == S2_V_BOOL) v->x = (double)v->i;
    else if (v->kind == S2_V_UINT) v->x = (double)v->u;
    else return;
    v->kind = S2_V_FLOAT;
    v->s = NULL;
    v->len = 0;
  } else if (to == S2_INT64 && v->kind == S2_V_BOOL) {
    v->kind = S2_V_INT;
  } else if (to == S2_UINT64 && v->kind == S2_V_BOOL) {
    v->u = (uint64_t)v->i;
    v->kind = S2_V_UINT;
  }
}

/* One column, in chunks of buffer_lines rows, joined. */
static int convert_column(reader *R, long col, long nrows, long buffer_lines, s2_column *out) {
  out->v = malloc(sizeof *out->v * (size_t)(nrows ? nrows : 1));
  if (!out->v) {
    snprintf(R->err, sizeof R->err, "out of memory");
    return -1;
  }
  if (nrows == 0) {
    out->dtype = S2_OBJECT;
    return 0;
  }
  s2_dtype all = S2_BOOL;
  int first = 1, mixed = 0;
  for (long r0 = 0; r0 < nrows; r0 += buffer_lines) {
    long r1 = r0 + buffer_lines < nrows ? r0 + buffer_lines : nrows;
    s2_dtype dt;
    if (convert_chunk(R, col, r0, r1, out->v + r0, &dt)) return -1;
    if (first) all = dt;
    else if (dt != all) mixed = 1, all = promote(all, dt);
    first = 0;
  }
  if (mixed)
    for (long r = 0; r < nrows; r++) cast_cell(&out->v[r], all);
  out->dtype = all;
  return 0;
}

void s2_frame_free(s2_frame *f) {
  if (!f) return;
  for (int c = 0; c < f->ncols; c++) free(f->cols[c].v);
  free(f->cols);
  free(f->text);
  free(f);
}

int s2_frame_read(const char *data, size_t n, s2_frame **out, sqlsim_error *err) {
  *out = NULL;
  if (n > S2_MAX_CSV_BYTES)
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "the file is larger than %zu MiB", S2_MAX_CSV_BYTES >> 20);
  reader R;
  memset(&R, 0, sizeof R);
  tok *t = &R.t;
  if (grow_lines(t) || tok_grow_stream(t, 2 * n + 64)) {
    tok_free(t);
    free(t->stream);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  t->line_start[0] = 0;
  t->line_fields[0] = 0;
  if (tokenize(t, data, n)) {
    int rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s", t->err[0] ? t->err : "out of memory");
    tok_free(t);
    free(t->stream);
    return rc;
  }
  if (t->lines == 0) {
    tok_free(t);
    free(t->stream);
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "No columns to parse from file");
  }
  R.stream = t->stream;
  long header = t->line_fields[0];
  for (long k = 0; k < header; k++) { /* the names are decoded too */
    const char *w = t->stream + t->words[k];
    long bad = s2_utf8_bad((const unsigned char *)w, strlen(w));
    if (bad >= 0) {
      int rc = sqlsim_error_set(err, SQLSIM_EFORMAT, -1,
                                "line %ld: 'utf-8' codec can't decode byte 0x%02x in position %ld", t->line_no[0],
                                (unsigned char)w[bad], bad);
      tok_free(t);
      free(t->stream);
      return rc;
    }
  }
  long nrows = t->lines - 1;
  long width = nrows > 0 ? t->line_fields[1] : header;
  long leading = width > header ? width - header : 0;
  long heuristic = (1L << 20) / width, buffer_lines = 1;
  while (buffer_lines * 2 < heuristic) buffer_lines *= 2;
  s2_frame *f = calloc(1, sizeof *f);
  s2_column *cols = f ? calloc((size_t)width, sizeof *cols) : NULL;
  if (!cols) {
    free(f);
    tok_free(t);
    free(t->stream);
    return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  }
  f->cols = cols;
  f->nrows = nrows;
  f->text = t->stream;
  int rc = 0;
  for (long c = 0; c < width && !rc; c++) {
    rc = convert_column(&R, c, nrows, buffer_lines, &cols[f->ncols]);
    f->ncols++;
  }
  if (!rc && leading) { /* the implicit index: converted (its errors count), then left out */
    for (long c = 0; c < leading; c++) free(cols[c].v);
    memmove(cols, cols + leading, sizeof *cols * (size_t)(width - leading));
    f->ncols -= (int)leading;
  }
  tok_free(t);
  if (rc) {
    s2_frame_free(f);
    return sqlsim_error_set(err, SQLSIM_EFORMAT, -1, "%s", R.err);
  }
  *out = f;
  return 0;
}

/* ---------------------------------------------------------------- Python's repr of a float */

/* The digits of the p-digit decimal nearest x, its exponent, and whether it
 * reads back as x. */
static int digits_at(double x, int p, char *dig, int *exp10) {
  char buf[40];
  snprintf(buf, sizeof buf, "%.*e", p - 1, x);
  int k = 0;
  const char *q = buf;
  for (; *q && *q != 'e'; q++)
    if (isdigit_ascii(*q)) dig[k++] = *q;
  dig[k] = '\0';
  *exp10 = atoi(q + 1);
  return strtod(buf, NULL) == x;
}

/* dig (n digits, the last one changed by delta) as a decimal that reads back as x. */
static int neighbour(double x, char *dig, int n, int *exp10, int delta) {
  char d[24];
  memcpy(d, dig, (size_t)n + 1);
  int e = *exp10, i = n - 1;
  if (delta > 0) {
    while (i >= 0 && d[i] == '9') d[i--] = '0';
    if (i < 0) {
      memmove(d + 1, d, (size_t)n);
      d[0] = '1';
      d[n] = '\0';
      e++;
    } else {
      d[i]++;
    }
  } else {
    while (i >= 0 && d[i] == '0') d[i--] = '9';
    if (i < 0) return 0;
    d[i]--;
    if (d[0] == '0') return 0;
  }
  char buf[48];
  snprintf(buf, sizeof buf, "%c.%se%d", d[0], d + 1, e);
  if (strtod(buf, NULL) != x) return 0;
  memcpy(dig, d, (size_t)n + 1);
  *exp10 = e;
  return 1;
}

/* An n-digit decimal that reads back as a: the nearest one, else the
 * other one beside a (at a power of two the interval is lopsided): 1 with
 * dig and exp10, else 0. */
static int shortest_at(double a, int n, char *dig, int *exp10) {
  if (digits_at(a, n, dig, exp10)) return 1;
  return neighbour(a, dig, n, exp10, +1) || neighbour(a, dig, n, exp10, -1);
}

/* The significant digits of a decimal text and its exponent, when the text
 * is a plain decimal of at most 15 digits: 1, else 0. *exact: pandas read
 * it as the nearest double (at most 15 digits in all and a power of ten up
 * to 22: one rounding of exact numbers), so no check against strtod is
 * needed. */
static int text_digits(const char *s, uint32_t len, char *dig, int *nd, int *exp10, int *exact) {
  const char *p = s, *end = s + len;
  while (p < end && isspace_ascii(*p)) p++;
  if (p < end && (*p == '-' || *p == '+')) p++;
  int n = 0, point = -1, lead = 0, seen = 0, total = 0;
  for (; p < end && (isdigit_ascii(*p) || (*p == '.' && point < 0)); p++) {
    if (*p == '.') {
      point = total;
      continue;
    }
    total++;
    if (!seen && *p == '0') {
      lead++;
      continue;
    }
    seen = 1;
    if (n >= 20) return 0;
    dig[n++] = *p;
  }
  if (point < 0) point = total;
  long e = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    p++;
    int neg = 0;
    if (p < end && (*p == '-' || *p == '+')) neg = *p++ == '-';
    if (p == end || !isdigit_ascii(*p)) return 0;
    for (; p < end && isdigit_ascii(*p); p++) {
      e = e * 10 + (*p - '0');
      if (e > 1000) return 0;
    }
    if (neg) e = -e;
  }
  while (p < end && isspace_ascii(*p)) p++;
  if (p != end || n == 0) return 0;
  long pe = e - (total - point); /* pandas' power of ten: the exponent less the decimals */
  *exact = total <= 15 && pe >= -22 && pe <= 22;
  while (n > 1 && dig[n - 1] == '0') n--;
  dig[n] = '\0';
  *nd = n;
  *exp10 = (int)(point - lead - 1 + e);
  return 1;
}

/* The decimal digits of v (no sign), into dig: their count. */
static int u64_digits(uint64_t v, char *dig) {
  char t[24];
  int k = 0;
  do t[k++] = (char)('0' + v % 10), v /= 10;
  while (v);
  for (int i = 0; i < k; i++) dig[i] = t[k - 1 - i];
  dig[k] = '\0';
  return k;
}

int s2_float_repr(double x, const char *text, uint32_t len, char *buf) {
  if (isnan(x)) return sprintf(buf, "nan");
  if (isinf(x)) return sprintf(buf, x < 0 ? "-inf" : "inf");
  char *o = buf;
  if (signbit(x)) *o++ = '-';
  double a = fabs(x);
  if (a == 0) return (int)(o - buf) + sprintf(o, "0.0");
  char dig[24];
  int n = 0, e10 = 0;
  int exact = 0, from_text = 0, hi = 17;
  if (a < 1e16 && a == floor(a)) { /* an integral value: its digits */
    n = u64_digits((uint64_t)a, dig);
    e10 = n - 1;
    while (n > 1 && dig[n - 1] == '0') n--;
    dig[n] = '\0';
    from_text = 1;
  } else if (text && a >= DBL_MIN && text_digits(text, len, dig, &n, &e10, &exact)) {
    /* a text of at most 15 digits that reads as x is x's shortest (two such decimals never read
       as one double); a longer one bounds the search. (A subnormal has fewer digits of
       precision: its text may be longer than its repr.) */
    if (n <= 15 && (exact || strtod(text, NULL) == x)) from_text = 1;
    else if (n <= 17 && strtod(text, NULL) == x) hi = n;
  }
  if (!from_text) {
    /* the fewest digits some decimal in x's rounding interval has (reads back: monotonic in n),
       then the nearest such decimal: Python's repr */
    int lo = 1;
    if (hi > 1 && !shortest_at(a, hi - 1, dig, &e10)) lo = hi;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (shortest_at(a, mid, dig, &e10)) hi = mid;
      else lo = mid + 1;
    }
    n = lo;
    shortest_at(a, n, dig, &e10);
    while (n > 1 && dig[n - 1] == '0') n--;
    dig[n] = '\0';
  }
  int decpt = e10 + 1;
  if (decpt <= -4 || decpt > 16) { /* d[.ddd]e+XX */
    *o++ = dig[0];
    if (n > 1) {
      *o++ = '.';
      memcpy(o, dig + 1, (size_t)n - 1);
      o += n - 1;
    }
    o += sprintf(o, "e%c%02d", e10 < 0 ? '-' : '+', abs(e10));
  } else if (decpt <= 0) {
    *o++ = '0';
    *o++ = '.';
    for (int k = 0; k < -decpt; k++) *o++ = '0';
    memcpy(o, dig, (size_t)n);
    o += n;
  } else if (decpt >= n) {
    memcpy(o, dig, (size_t)n);
    o += n;
    for (int k = n; k < decpt; k++) *o++ = '0';
    *o++ = '.';
    *o++ = '0';
  } else {
    memcpy(o, dig, (size_t)decpt);
    o += decpt;
    *o++ = '.';
    memcpy(o, dig + decpt, (size_t)(n - decpt));
    o += n - decpt;
  }
  *o = '\0';
  return (int)(o - buf);
}
