/* test_spider2.c -- Spider 2.0's judgement (metrics/frame.c, metrics/spider2.c,
 * spider2/run.c): CSV read as pandas 1.5.3 reads it (each case's expected
 * dtypes and values are what pandas.read_csv gave for the same bytes),
 * Python's repr of floats, compare_pandas_table's rules in lite's and snow's
 * scripts (each expectation checked against the scripts themselves), the
 * row-by-row judgement (--rows) on each kind of misalignment, a result's
 * rows saved as the scripts save them, a prediction file's SQL, and whole
 * runs through sqlsim_spider2_run with hostile files among the others. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core.h"
#include "metrics/spider2.h"

/* ---------------------------------------------------------------- the reader */

typedef struct read_case {
  const char *name;
  const char *csv;
  size_t len;
  const char *expect; /* dtypes, rows and each column's values as pandas gave them, or ERROR */
} read_case;

static const read_case read_cases[] = {
    {"E_bad_utf8", "a\n\xff""\n", 4,
     "ERROR\n"},
    {"E_bad_utf8_header", "\xff""a\n1\n", 5,
     "ERROR\n"},
    {"E_blank_only", "\n\n  \n", 5,
     "ERROR\n"},
    {"E_cr_overflow", "a,b\r1,2\r3,4\r ,x\r5,6\r", 20,
     "ERROR\n"},
    {"E_empty", "", 0,
     "ERROR\n"},
    {"E_eof_in_quote", "a\n\"abc\n", 7,
     "ERROR\n"},
    {"E_too_many", "a,b\n1,2\n3,4,5\n", 14,
     "ERROR\n"},
    {"blank_lines", "\n\na\n\n1\n   \n2\n", 13,
     "dtypes int64\nrows 2\ni:1\ti:2\n"},
    {"bom", "\xef""\xbb""\xbf""a\n1\n", 7,
     "dtypes int64\nrows 1\ni:1\n"},
    {"bool_cases", "a\ntRuE\nfalse\nTRUE\n", 18,
     "dtypes bool\nrows 3\nb:True\tb:False\tb:True\n"},
    {"bool_na", "a\nTrue\nNA\n", 10,
     "dtypes object\nrows 2\nb:True\tf:nan\n"},
    {"cr_ws_backtrack", "a\r1\r \r2\r", 8,
     "dtypes int64\nrows 2\ni:1\ti:2\n"},
    {"crlf", "a,b\r\n1,2\r\n", 10,
     "dtypes int64 int64\nrows 1\ni:1\ni:2\n"},
    {"dup_names", "a,a,a.1\n1,2,3\n", 14,
     "dtypes int64 int64 int64\nrows 1\ni:1\ni:2\ni:3\n"},
    {"exp_overflow", "a\n1e308\n1e309\n", 14,
     "dtypes object\nrows 2\ns:\"1e308\"\ts:\"1e309\"\n"},
    {"float_text_order", "a\n1.5\n99999999999999999999\n", 27,
     "dtypes float64\nrows 2\nf:1.5\tf:1.0000000000000002e+20\n"},
    {"header_only", "a,b\n", 4,
     "dtypes object object\nrows 0\n\n\n"},
    {"implicit_index", "a,b\n1,2,3\n4,5,6\n", 16,
     "dtypes int64 int64\nrows 2\ni:2\ti:5\ni:3\ti:6\n"},
    {"inf", "a\ninf\n-Infinity\n+INF\n", 21,
     "dtypes float64\nrows 3\nf:inf\tf:-inf\tf:inf\n"},
    {"int64_min_na", "a\n-9223372036854775808\nNA\n", 26,
     "dtypes float64\nrows 2\nf:nan\tf:nan\n"},
    {"int_na_float", "a\n1\n\n3\n", 7,
     "dtypes int64\nrows 2\ni:1\ti:3\n"},
    {"ints", "a,b\n1,2\n3,4\n", 12,
     "dtypes int64 int64\nrows 2\ni:1\ti:3\ni:2\ti:4\n"},
    {"lone_cr", "a,b\r1,2\r3,4\r", 12,
     "dtypes int64 int64\nrows 2\ni:1\ti:3\ni:2\ti:4\n"},
    {"mixed_float_int", "a,b\n1,1.5\n2,2.5\n", 16,
     "dtypes int64 float64\nrows 2\ni:1\ti:2\nf:1.5\tf:2.5\n"},
    {"na_strings", "a,b\nnull,#N/A\n1,x\n", 18,
     "dtypes float64 object\nrows 2\nf:nan\tf:1.0\nf:nan\ts:\"x\"\n"},
    {"none_is_text", "a\nNone\n1\n", 9,
     "dtypes object\nrows 2\ns:\"None\"\ts:\"1\"\n"},
    {"nul_cut", "a,b\nab\x00""cd,2\n", 12,
     "dtypes object int64\nrows 1\ns:\"ab\"\ni:2\n"},
    {"overflow_first", "a\n99999999999999999999abc\n1.5\n", 30,
     "dtypes object\nrows 2\ns:\"99999999999999999999abc\"\ts:\"1.5\"\n"},
    {"overflow_text", "a\n18446744073709551616\n", 23,
     "dtypes object\nrows 1\ns:\"18446744073709551616\"\n"},
    {"precise_xstrtod", "a\n0.1\n1e-400\n123456789012345678901\n", 35,
     "dtypes float64\nrows 3\nf:0.1\tf:0.0\tf:1.2345678901234568e+20\n"},
    {"quotes", "a\n\"x\"\"y\"\n\"p\"q\"r\n\"m\nn\"\n", 22,
     "dtypes object\nrows 3\ns:\"x\\\"y\"\ts:\"pq\\\"r\"\ts:\"m\\nn\"\n"},
    {"short_rows", "a,b,c\n1\n2,3\n", 12,
     "dtypes int64 float64 float64\nrows 2\ni:1\ti:2\nf:nan\tf:3.0\nf:nan\tf:nan\n"},
    {"spaces_int", "a\n 5 \n+6\n007\n", 13,
     "dtypes int64\nrows 3\ni:5\ti:6\ti:7\n"},
    {"uint64", "a\n18446744073709551615\n1\n", 25,
     "dtypes uint64\nrows 2\ni:18446744073709551615\ti:1\n"},
    {"uint64_na_text", "a\n18446744073709551615\n\n", 24,
     "dtypes uint64\nrows 1\ni:18446744073709551615\n"},
    {"uint64_neg_text", "a\n9223372036854775808\n-1\n", 25,
     "dtypes object\nrows 2\ns:\"9223372036854775808\"\ts:\"-1\"\n"},
    {"ws_led_field", "a,b\n  x,1\n", 10,
     "dtypes object int64\nrows 1\ns:\"  x\"\ni:1\n"},
};

static void json_text(strbuf *sb, const char *s, size_t n) {
  sb_putc(sb, '"');
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') sb_putc(sb, '\\'), sb_putc(sb, (char)c);
    else if (c == '\n') sb_puts(sb, "\\n");
    else if (c == '\r') sb_puts(sb, "\\r");
    else if (c == '\t') sb_puts(sb, "\\t");
    else if (c < 0x20) sb_printf(sb, "\\u%04x", c);
    else sb_putc(sb, (char)c);
  }
  sb_putc(sb, '"');
}

/* A frame as the test's reference listed pandas' (each column's tolist()). */
static char *render(const s2_frame *f) {
  static const char *dn[] = {"int64", "uint64", "float64", "bool", "object"};
  strbuf sb = {0};
  sb_puts(&sb, "dtypes");
  for (int k = 0; k < f->ncols; k++) sb_printf(&sb, " %s", dn[f->cols[k].dtype]);
  sb_printf(&sb, "\nrows %ld\n", f->nrows);
  for (int k = 0; k < f->ncols; k++) {
    for (long r = 0; r < f->nrows; r++) {
      const s2_value *v = &f->cols[k].v[r];
      char b[48];
      if (r) sb_putc(&sb, '\t');
      switch (v->kind) {
      case S2_V_INT: sb_printf(&sb, "i:%lld", (long long)v->i); break;
      case S2_V_UINT: sb_printf(&sb, "i:%llu", (unsigned long long)v->u); break;
      case S2_V_FLOAT: s2_float_repr(v->x, v->s, v->len, b), sb_printf(&sb, "f:%s", b); break;
      case S2_V_BOOL: sb_puts(&sb, v->i ? "b:True" : "b:False"); break;
      default: sb_puts(&sb, "s:"), json_text(&sb, v->s, v->len);
      }
    }
    sb_putc(&sb, '\n');
  }
  return sb_take(&sb);
}

static void test_read_as_pandas(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof read_cases / sizeof read_cases[0]; k++) {
    const read_case *c = &read_cases[k];
    s2_frame *f = NULL;
    sqlsim_error e = {0};
    int rc = s2_frame_read(c->csv, c->len, &f, &e);
    char *got = rc ? strdup("ERROR\n") : render(f);
    if (strcmp(got, c->expect)) fail_msg("%s: read as\n%s\npandas read\n%s", c->name, got, c->expect);
    if (rc && !e.message[0]) fail_msg("%s: an error without a message", c->name);
    free(got);
    s2_frame_free(f);
  }
}

/* Error messages name the line. */
static void test_read_errors(void **state) {
  (void)state;
  s2_frame *f;
  sqlsim_error e = {0};
  const char *bad = "a,b\n1,2\n3,4,5\n";
  assert_int_not_equal(s2_frame_read(bad, strlen(bad), &f, &e), 0);
  assert_non_null(strstr(e.message, "Expected 2 fields in line 3, saw 3"));
  const char *utf = "a\nok\n\xc3\x28\n";
  assert_int_not_equal(s2_frame_read(utf, strlen(utf), &f, &e), 0);
  assert_non_null(strstr(e.message, "line 3"));
  assert_non_null(strstr(e.message, "utf-8"));
}

static void test_float_repr(void **state) {
  (void)state;
  static const struct {
    double x;
    const char *repr;
  } cases[] = {{0.1, "0.1"},       {1e16, "1e+16"},      {1e15, "1000000000000000.0"}, {1e-5, "1e-05"},
               {0.0001, "0.0001"}, {-0.0, "-0.0"},       {5e-324, "5e-324"},           {0.1 + 0.2, "0.30000000000000004"},
               {1.5, "1.5"},       {123456789.0, "123456789.0"}, {2.5e-7, "2.5e-07"},  {1.7976931348623157e308, "1.7976931348623157e+308"},
               {9007199254740993.0, "9007199254740992.0"}, {1e22, "1e+22"}, {1e23, "1e+23"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char b[48];
    s2_float_repr(cases[k].x, NULL, 0, b);
    assert_string_equal(b, cases[k].repr);
  }
  char b[48]; /* a subnormal's text is longer than its repr */
  s2_float_repr(5e-324, "4.9e-324", 8, b);
  assert_string_equal(b, "5e-324");
  s2_float_repr(0.25, "0.2500", 6, b);
  assert_string_equal(b, "0.25");
}

/* ---------------------------------------------------------------- the judgement */

static char gold_dir[64];

static void put_file(const char *dir, const char *name, const char *text) {
  char p[512];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *f = fopen(p, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* A gold directory of one task: its variants (name, text pairs ended by
 * NULL) and its eval line's rule, for the flavor. */
static void make_gold(int flavor, const char *rule, const char *const *files) {
  char cmd[200];
  if (gold_dir[0]) {
    snprintf(cmd, sizeof cmd, "rm -rf %s", gold_dir);
    assert_int_equal(system(cmd), 0);
  }
  snprintf(gold_dir, sizeof gold_dir, "/tmp/sqlsim_s2gold_XXXXXX");
  assert_non_null(mkdtemp(gold_dir));
  char res[128], line[512];
  snprintf(res, sizeof res, "%s/exec_result", gold_dir);
  mkdir(res, 0755);
  for (int k = 0; files[k]; k += 2) put_file(res, files[k], files[k + 1]);
  snprintf(line, sizeof line, "{\"instance_id\": \"t1\"%s%s}\n", rule[0] ? ", " : "", rule);
  put_file(gold_dir, flavor == S2_SNOW ? "spider2snow_eval.jsonl" : "spider2lite_eval.jsonl", line);
}

/* The verdict on pred for the task t1 of the current gold. */
static s2_verdict judge(int flavor, const char *pred, int rows) {
  s2_gold_set *g;
  sqlsim_error e = {0};
  if (s2_gold_open(gold_dir, flavor, &g, &e)) fail_msg("gold: %s", e.message);
  s2_task_gold t;
  assert_int_equal(s2_task_gold_load(g, "t1", &t), 0);
  s2_frame *f = NULL;
  if (s2_frame_read(pred, strlen(pred), &f, &e)) fail_msg("pred: %s", e.message);
  s2_verdict v;
  s2_judge(&t, f, rows, &v);
  s2_frame_free(f);
  s2_task_gold_clear(&t);
  s2_gold_close(g);
  return v;
}

typedef struct judge_case {
  const char *what;
  const char *rule;          /* the eval line's members */
  const char *files[8];      /* gold variants: name, text, ... */
  const char *pred;
  int lite, snow;            /* the scripts' scores (run on the same files) */
} judge_case;

/* Each expectation is what lite's and snow's evaluate.py (e12c5f1e) gave for
 * the same gold and prediction (bench/agree_spider2.py runs them). */
static const judge_case judge_cases[] = {
    {"columns reordered, renamed, one added", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a,b\n1,x\n2,y\n"}, "q,b,a,z\n7,x,1,0\n7,y,2,0\n", 1, 1},
    {"rows in another order, ignore_order false", "\"condition_cols\": [], \"ignore_order\": false",
     {"t1.csv", "a\n1\n2\n"}, "a\n2\n1\n", 0, 0},
    {"rows in another order, ignore_order true", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\n1\n2\n"}, "a\n2\n1\n", 1, 1},
    {"0.01 off is past math.isclose's 0.01 (1.01 - 1.0 > 0.01)", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\n1.0\n"}, "a\n1.01\n", 0, 0},
    {"0.009 off is within", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\n1.0\n"}, "a\n1.009\n", 1, 1},
    {"a missing value is 0", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a,b\n0,1\n"}, "a,b\n,1\n", 1, 1},
    {"ints and floats sorted by their text: 10.0 before 9.0", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\n10\n9\n"}, "a,b\n9.0,x\n10.0,x\n", 1, 1},
    {"within 0.01 but sorted apart by text", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\n2\n10\n"}, "a\n2.001\n9.995\n", 0, 0},
    {"condition_cols [0] for one variant _a: lite reads 0 as no columns, snow as column 0",
     "\"condition_cols\": [0], \"ignore_order\": true", {"t1_a.csv", "a,b\n1,2\n"}, "a\n1\n", 0, 1},
    {"nested condition_cols, one per variant", "\"condition_cols\": [[0], [1]], \"ignore_order\": true",
     {"t1_a.csv", "a,b\n1,9\n", "t1_b.csv", "a,b\n8,2\n"}, "x\n2\n", 1, 1},
    {"a position past the gold's columns: iloc raises", "\"condition_cols\": [5], \"ignore_order\": true",
     {"t1.csv", "a,b\n1,2\n"}, "a,b\n1,2\n", 0, 0},
    {"a negative position counts from the end", "\"condition_cols\": [-1], \"ignore_order\": true",
     {"t1.csv", "a,b\n1,2\n"}, "z\n2\n", 1, 1},
    {"nested condition_cols for a single gold: iloc raises", "\"condition_cols\": [[0]], \"ignore_order\": true",
     {"t1.csv", "a,b\n1,2\n"}, "a,b\n1,2\n", 0, 0},
    {"fewer lists than variants, the first matching", "\"condition_cols\": [[0]], \"ignore_order\": true",
     {"t1_a.csv", "a\n1\n", "t1_b.csv", "a\n2\n"}, "a\n1\n", 1, 1},
    {"fewer lists than variants, the second reached: IndexError", "\"condition_cols\": [[0]], \"ignore_order\": true",
     {"t1_a.csv", "a\n1\n", "t1_b.csv", "a\n2\n"}, "a\n2\n", 0, 0},
    {"bools against ints: True is 1", "\"condition_cols\": [], \"ignore_order\": true",
     {"t1.csv", "a\nTrue\nFalse\n"}, "a\n1\n0\n", 1, 1},
    {"text against a number", "\"condition_cols\": [], \"ignore_order\": true", {"t1.csv", "a\nx\n"}, "a\n1\n", 0, 0},
    {"one variant unreadable: every variant is read first, the item fails",
     "\"condition_cols\": [], \"ignore_order\": true", {"t1_a.csv", "a\n1\n", "t1_b.csv", "a,b\n1,2\n3,4,5\n"},
     "a\n1\n", 0, 0},
    {"header only against header only", "\"condition_cols\": [], \"ignore_order\": true", {"t1.csv", "a\n"},
     "b\n", 1, 1},
    {"no ignore_order: lite reads it as false, snow raises KeyError", "\"condition_cols\": []",
     {"t1.csv", "a\n1\n2\n"}, "a\n1\n2\n", 1, 0},
};

static void test_judge_rules(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof judge_cases / sizeof judge_cases[0]; k++) {
    const judge_case *c = &judge_cases[k];
    for (int flavor = S2_LITE; flavor <= S2_SNOW; flavor++) {
      make_gold(flavor, c->rule, c->files);
      s2_verdict v = judge(flavor, c->pred, 0);
      int want = flavor == S2_LITE ? c->lite : c->snow;
      if (v.score != want)
        fail_msg("%s (%s): score %d, the script's %d (%s)", c->what, flavor == S2_LITE ? "lite" : "snow", v.score,
                 want, v.error);
    }
  }
}

/* --rows: the matched columns' values must come from the same predicted rows
 * (Spider2 #226: the script checks each column alone). */
typedef struct rows_case {
  const char *what;
  const char *rule, *gold, *pred;
  int score, rows;
} rows_case;

static const rows_case rows_cases[] = {
    {"rows equal within the tolerance, sorted by text into other places", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n0.999,x\n1.001,y\n", "a,b\n1.0,x\n0.995,y\n", 1, 1},
    {"within the tolerance, but the rows swapped", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n0.999,x\n5,y\n", "a,b\n1.0,y\n5,x\n", 1, 0},
    {"two columns, values swapped between rows", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1,x\n2,y\n", "a,b\n1,y\n2,x\n", 1, 0},
    {"each column sorted on its own (#226)", "\"condition_cols\": [], \"ignore_order\": true",
     "name,score\na,3\nb,1\nc,2\n", "name,score\na,1\nb,2\nc,3\n", 1, 0},
    {"one pair swapped in one column of three", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b,c\n1,x,p\n2,y,q\n3,z,r\n", "a,b,c\n1,x,q\n2,y,p\n3,z,r\n", 1, 0},
    {"rows shuffled whole, columns reordered", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1,x\n2,y\n", "b,a\ny,2\nx,1\n", 1, 1},
    {"only condition_cols must align", "\"condition_cols\": [0], \"ignore_order\": true",
     "a,b\n1,x\n2,y\n", "a,b\n1,y\n2,x\n", 1, 1},
    {"repeated values in a column", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1,x\n1,y\n", "a,b\n1,y\n1,x\n", 1, 1},
    {"two gold columns equal, one predicted column", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1,1\n2,2\n", "a\n1\n2\n", 1, 1},
    {"within the tolerance, row by row", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1.0,x\n2.0,y\n", "a,b\n2.005,y\n1.005,x\n", 1, 1},
    {"the right columns exist twice, one aligned", "\"condition_cols\": [], \"ignore_order\": true",
     "a,b\n1,x\n2,y\n", "a,b,b2\n1,y,x\n2,x,y\n", 1, 1},
    {"in order, misaligned", "\"condition_cols\": [], \"ignore_order\": false", "a,b\n1,x\n2,y\n",
     "a,b\n1,y\n2,x\n", 0, 0},
};

static void test_rows(void **state) {
  (void)state;
  for (size_t k = 0; k < sizeof rows_cases / sizeof rows_cases[0]; k++) {
    const rows_case *c = &rows_cases[k];
    const char *files[] = {"t1.csv", c->gold, NULL};
    make_gold(S2_LITE, c->rule, files);
    s2_verdict v = judge(S2_LITE, c->pred, 1);
    if (v.score != c->score || v.rows != c->rows)
      fail_msg("%s: score %d rows %d, want %d and %d", c->what, v.score, v.rows, c->score, c->rows);
    v = judge(S2_LITE, c->pred, 0);
    assert_int_equal(v.score, c->score); /* --rows never changes the score */
    assert_int_equal(v.rows, -1);
  }
}

/* ---------------------------------------------------------------- rows saved, SQL read */

static void test_rows_csv(void **state) {
  (void)state;
  /* read_sql_query(chunksize=500) then to_csv, as pandas 1.5.3 wrote these */
  sqlsim_value c1[] = {{.type = SQLSIM_V_INT, .i = 1}, {.type = SQLSIM_V_NULL}};
  sqlsim_value c2[] = {{.type = SQLSIM_V_INT, .i = 1}, {.type = SQLSIM_V_REAL, .x = 2.5}};
  sqlsim_value c3[] = {{.type = SQLSIM_V_INT, .i = 1}, {.type = SQLSIM_V_TEXT, .p = "x", .n = 1},
                       {.type = SQLSIM_V_TEXT, .p = "y", .n = 1}, {.type = SQLSIM_V_NULL}};
  sqlsim_value c4[] = {{.type = SQLSIM_V_NULL}};
  sqlsim_value c5[] = {{.type = SQLSIM_V_TEXT, .p = "a\"b", .n = 3}, {.type = SQLSIM_V_TEXT, .p = "c,d", .n = 3},
                       {.type = SQLSIM_V_TEXT, .p = "e\nf", .n = 3}, {.type = SQLSIM_V_TEXT, .p = "g\rh", .n = 3},
                       {.type = SQLSIM_V_TEXT, .p = "", .n = 0}};
  sqlsim_value c6[] = {{.type = SQLSIM_V_BLOB, .p = "\x00\xff'", .n = 3}};
  sqlsim_value c7[] = {{.type = SQLSIM_V_REAL, .x = 1e16}, {.type = SQLSIM_V_REAL, .x = 1e-5},
                       {.type = SQLSIM_V_REAL, .x = 0.1 + 0.2}, {.type = SQLSIM_V_REAL, .x = HUGE_VAL}};
  struct {
    const sqlsim_value *v;
    long nrows;
    int ncols;
    const char *csv;
  } cases[] = {{c1, 2, 1, "0\n1.0\n\"\"\n"},
               {c2, 2, 1, "0\n1.0\n2.5\n"},
               {c3, 2, 2, "0,1\n1,x\ny,\n"},
               {c4, 1, 1, "0\n\"\"\n"},
               {c4, 0, 1, "0\n"},
               {c5, 5, 1, "0\n\"a\"\"b\"\n\"c,d\"\n\"e\nf\"\ng\rh\n\"\"\n"},
               {c6, 1, 1, "0\n\"b\"\"\\x00\\xff'\"\"\"\n"},
               {c7, 4, 1, "0\n1e+16\n1e-05\n0.30000000000000004\ninf\n"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char *out;
    size_t len;
    assert_int_equal(sqlsim_spider2_rows_csv(cases[k].v, cases[k].nrows, cases[k].ncols, 500, &out, &len, NULL), 0);
    assert_string_equal(out, cases[k].csv);
    free(out);
  }
  /* text that is not UTF-8 cannot be fetched by Python's sqlite3 */
  sqlsim_value bad[] = {{.type = SQLSIM_V_TEXT, .p = "\xff", .n = 1}};
  char *out;
  size_t len;
  sqlsim_error e = {0};
  assert_int_not_equal(sqlsim_spider2_rows_csv(bad, 1, 1, 500, &out, &len, &e), 0);
  /* chunks infer on their own: 500 ints, then a chunk with a NULL is floats */
  sqlsim_value *many = calloc(501, sizeof *many);
  for (int k = 0; k < 500; k++) many[k] = (sqlsim_value){.type = SQLSIM_V_INT, .i = k};
  many[500].type = SQLSIM_V_NULL;
  assert_int_equal(sqlsim_spider2_rows_csv(many, 501, 1, 500, &out, &len, NULL), 0);
  assert_non_null(strstr(out, "\n499\n\"\"\n"));
  free(out);
  free(many);
}

static void test_sql_from_file(void **state) {
  (void)state;
  static const struct {
    const char *text, *sql;
  } cases[] = {{"SELECT 1", "SELECT 1"},
               {"Here:\n```sql\nSELECT 1;\n```\nmore", "SELECT 1;"},
               {"```sql\r\n  SELECT 2 \r\n```", "SELECT 2"},
               {"```sql\nSELECT 3\n```\n```sql\nSELECT 4\n```", "SELECT 3"},
               {"```sql\nno end", "```sql\nno end"},
               {"```SQL\nSELECT 5\n```", "```SQL\nSELECT 5\n```"},
               {"a\r\nb\rc", "a\nb\nc"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char *s = s2_sql_from_file(cases[k].text, strlen(cases[k].text));
    assert_string_equal(s, cases[k].sql);
    free(s);
  }
}

/* ---------------------------------------------------------------- whole runs */

/* A folder with good, wrong and hostile predictions: every one scored, the
 * hostile ones 0 with their reason, nothing else stops. */
static void test_run_hostile(void **state) {
  (void)state;
  const char *files[] = {"t1.csv", "a,b\n1,x\n2,y\n", NULL};
  make_gold(S2_LITE, "\"condition_cols\": [], \"ignore_order\": true", files);
  char res[128], line[1024];
  snprintf(res, sizeof res, "%s/exec_result", gold_dir);
  put_file(res, "t2.csv", "a\n1\n");
  put_file(res, "t3.csv", "a\n1\n");
  put_file(res, "t4.csv", "a\n1\n");
  put_file(res, "t5.csv", "a\n1\n");
  snprintf(line, sizeof line, "%s/spider2lite_eval.jsonl", gold_dir);
  FILE *f = fopen(line, "a");
  for (int k = 2; k <= 6; k++) fprintf(f, "{\"instance_id\": \"t%d\", \"condition_cols\": [], \"ignore_order\": true}\n", k);
  fclose(f);
  char pred[128];
  snprintf(pred, sizeof pred, "%s/pred", gold_dir);
  mkdir(pred, 0755);
  put_file(pred, "t1.csv", "b,a\ny,2\nx,1\n");          /* right */
  put_file(pred, "t2.csv", "a\n\xff\xfe\n");             /* not UTF-8 */
  put_file(pred, "t3.csv", "a,b\n1,2\n3,4,5\n");         /* malformed */
  snprintf(line, sizeof line, "%s/t4.csv", pred);
  mkdir(line, 0755);                                     /* a directory */
  put_file(pred, "t5.csv", "");                          /* empty */
  put_file(pred, "other.csv", "a\n1\n");                 /* no such task */
  sqlsim_spider2_opts o = {.gold = gold_dir, .mode = -1, .jobs = 2};
  sqlsim_spider2 *s;
  sqlsim_error e = {0};
  if (sqlsim_spider2_run(&o, pred, NULL, NULL, 0, &s, &e)) fail_msg("%s", e.message);
  assert_int_equal(s->n, 5);
  assert_int_equal(s->done, 5);
  assert_int_equal(s->ignored, 1);
  assert_int_equal(s->correct, 1);
  assert_int_equal(s->tasks, 6);
  for (size_t k = 0; k < s->n; k++) {
    const char *side;
    int off;
    const char *msg = sqlsim_record_error(&s->records[k], &side, &off);
    if (k == 0) assert_null(msg);
    else if (!msg) fail_msg("%s: no reason given", s->ids[k]);
  }
  char *j = sqlsim_spider2_summary_json(s);
  assert_non_null(strstr(j, "\"tasks\":6"));
  free(j);
  sqlsim_spider2_free(s);
  /* in memory: rows as CSV text, one entry per task, unknown ids left out */
  const char *ids[] = {"t1", "t2", "nope"}, *texts[] = {"a,b\n2,y\n1,x\n", "a\n2\n", "a\n1\n"};
  o.rows = 1;
  assert_int_equal(sqlsim_spider2_run(&o, NULL, ids, texts, 3, &s, &e), 0);
  assert_int_equal(s->n, 2);
  assert_int_equal(s->correct, 1);
  assert_int_equal(s->rows_correct, 1);
  sqlsim_spider2_free(s);
  /* a gold directory without its eval file is a configuration error */
  sqlsim_spider2_opts bad = {.gold = pred, .mode = -1};
  assert_int_equal(sqlsim_spider2_run(&bad, pred, NULL, NULL, 0, &s, &e), SQLSIM_ENOTFOUND);
}

static int teardown(void **state) {
  (void)state;
  if (gold_dir[0]) {
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", gold_dir);
    if (system(cmd)) return -1;
  }
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_as_pandas), cmocka_unit_test(test_read_errors), cmocka_unit_test(test_float_repr),
      cmocka_unit_test(test_judge_rules),   cmocka_unit_test(test_rows),         cmocka_unit_test(test_rows_csv),
      cmocka_unit_test(test_sql_from_file), cmocka_unit_test(test_run_hostile),
  };
  return cmocka_run_group_tests(tests, NULL, teardown);
}
