/* json.c -- a record's fields as JSON: the sink the per-item lines, the
 * stream's answers and sqlsim_record_to_json write through. Numbers as
 * sb_json_num writes them (six significant digits, null when not finite). */
#include "record.h"

#include <string.h>

/* The comma before a value at this depth, but for the first. */
static void sep(record_json *j) {
  if (j->more[j->depth]) sb_putc(j->sb, ',');
  j->more[j->depth] = 1;
}

static void j_key(void *ctx, const char *key) {
  record_json *j = ctx;
  sep(j);
  sb_json_str(j->sb, key);
  sb_putc(j->sb, ':');
  j->more[j->depth] = 2; /* the value that follows takes no comma */
}

/* Before a value: a comma unless it follows its key. */
static void value(record_json *j) {
  if (j->more[j->depth] == 2) j->more[j->depth] = 1;
  else sep(j);
}

static void j_null(void *ctx) {
  record_json *j = ctx;
  value(j);
  sb_puts(j->sb, "null");
}

static void j_bool(void *ctx, int v) {
  record_json *j = ctx;
  value(j);
  sb_puts(j->sb, v ? "true" : "false");
}

static void j_int(void *ctx, long long v) {
  record_json *j = ctx;
  value(j);
  sb_printf(j->sb, "%lld", v);
}

static void j_num(void *ctx, double v) {
  record_json *j = ctx;
  value(j);
  sb_json_num(j->sb, v);
}

static void j_str(void *ctx, const char *s) {
  record_json *j = ctx;
  value(j);
  if (s) sb_json_str(j->sb, s);
  else sb_puts(j->sb, "null");
}

static void j_json(void *ctx, const char *text) {
  record_json *j = ctx;
  value(j);
  sb_puts(j->sb, text);
}

static void j_begin(void *ctx, int array) {
  record_json *j = ctx;
  value(j);
  sb_putc(j->sb, array ? '[' : '{');
  if (j->depth + 1 < (int)sizeof j->more) j->depth++;
  j->more[j->depth] = 0;
}

static void j_end(void *ctx, int array) {
  record_json *j = ctx;
  if (j->depth > 0) j->depth--;
  sb_putc(j->sb, array ? ']' : '}');
}

const sqlsim_sink record_json_sink = {j_key, j_null, j_bool, j_int, j_num, j_str, j_json, j_begin, j_end};

void record_json_init(record_json *j, strbuf *sb, int after_member) {
  memset(j, 0, sizeof *j);
  j->sb = sb;
  j->more[0] = after_member ? 1 : 0;
}
