/* test_sqlfuncs.c -- the replaced SQL functions (exec/sqlfuncs.c) give
 * SQLite's own results, and stop at the deadline where SQLite's would not.
 *
 * Differential: the same expression runs on a plain connection (SQLite's
 * built-ins) and on one with sqlsim's functions registered, over values drawn
 * from an alphabet chosen to hit every rule: wildcards, escapes, classes and
 * ranges, ASCII case, multi-byte and broken UTF-8, embedded NULs, blobs,
 * numbers and NULL. Results must agree in type and bytes, errors included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec/sandbox.h"

static sqlite3 *builtin, *ours;
static sbx_guard guard;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* A random string of up to max pieces from the alphabet. */
static void random_text(char *out, size_t cap, int max) {
  static const char *const pieces[] = {"a", "A", "b", "B", "z", "%", "_", "*", "?", "[", "]", "^", "-", "\\",
                                       "é", "É", "\xc3", "\x80", "\xff", "\xf0\x9f\x98\x80", " ", "x", "ab",
                                       "[a-c]", "[^a]", "[]]", "[-]", "!", "'", "0", "9"};
  size_t n = 0;
  int k = (int)(next() % (uint64_t)(max + 1));
  out[0] = '\0';
  for (int i = 0; i < k; i++) {
    const char *p = pieces[next() % (sizeof pieces / sizeof pieces[0])];
    size_t l = strlen(p);
    if (n + l + 1 >= cap) break;
    memcpy(out + n, p, l);
    n += l;
    out[n] = '\0';
  }
}

/* Binds argument i: text, or now and then a blob, a number or NULL. */
static void bind_arg(sqlite3_stmt *a, sqlite3_stmt *b, int i, const char *text, int kinds) {
  int pick = kinds ? (int)(next() % 8) : 0;
  for (int s = 0; s < 2; s++) {
    sqlite3_stmt *st = s ? b : a;
    if (pick == 5) sqlite3_bind_blob(st, i, text, (int)strlen(text), SQLITE_TRANSIENT);
    else if (pick == 6) sqlite3_bind_int(st, i, (int)strlen(text) * 7 - 3);
    else if (pick == 7) sqlite3_bind_null(st, i);
    else sqlite3_bind_text(st, i, text, -1, SQLITE_TRANSIENT);
  }
}

/* Runs sql (with bound arguments) on both connections; fails the test with
 * the arguments when the results differ. */
static void same(const char *sql, int nargs, char args[][96], int kinds) {
  sqlite3_stmt *a = NULL, *b = NULL;
  assert_int_equal(sqlite3_prepare_v2(builtin, sql, -1, &a, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_prepare_v2(ours, sql, -1, &b, NULL), SQLITE_OK);
  uint64_t saved = rng;
  for (int i = 0; i < nargs; i++) bind_arg(a, b, i + 1, args[i], kinds);
  (void)saved;
  int ra = sqlite3_step(a), rb = sqlite3_step(b);
  int ok = ra == rb;
  if (ok && ra == SQLITE_ROW) {
    int ta = sqlite3_column_type(a, 0), tb = sqlite3_column_type(b, 0);
    int na = sqlite3_column_bytes(a, 0), nb = sqlite3_column_bytes(b, 0);
    const void *pa = sqlite3_column_blob(a, 0), *pb = sqlite3_column_blob(b, 0);
    ok = ta == tb && na == nb && (na == 0 || !memcmp(pa, pb, (size_t)na));
  } else if (ok && ra != SQLITE_DONE) {
    ok = !strcmp(sqlite3_errmsg(builtin), sqlite3_errmsg(ours));
  }
  if (!ok) {
    fprintf(stderr, "differs: %s\n", sql);
    for (int i = 0; i < nargs; i++) {
      fprintf(stderr, "  arg %d: ", i + 1);
      for (const unsigned char *p = (const unsigned char *)args[i]; *p; p++) fprintf(stderr, "%02x ", *p);
      fprintf(stderr, "\n");
    }
    fprintf(stderr, "  builtin rc %d '%s', ours rc %d '%s'\n", ra, ra == SQLITE_ROW ? (const char *)sqlite3_column_text(a, 0) : sqlite3_errmsg(builtin), rb,
            rb == SQLITE_ROW ? (const char *)sqlite3_column_text(b, 0) : sqlite3_errmsg(ours));
  }
  sqlite3_finalize(a);
  sqlite3_finalize(b);
  assert_true(ok);
}

static int setup(void **state) {
  (void)state;
  if (sqlite3_open(":memory:", &builtin) != SQLITE_OK || sqlite3_open(":memory:", &ours) != SQLITE_OK) return -1;
  return sqlfuncs_register(ours, &guard) == SQLITE_OK ? 0 : -1;
}

static int teardown(void **state) {
  (void)state;
  sqlite3_close(builtin);
  sqlite3_close(ours);
  sqlfuncs_thread_cleanup();
  return 0;
}

static void test_like_glob(void **state) {
  (void)state;
  char args[3][96];
  for (int i = 0; i < 60000; i++) {
    random_text(args[0], sizeof args[0], 6);
    random_text(args[1], sizeof args[1], 8);
    same("SELECT ?1 LIKE ?2", 2, (char(*)[96])args, i % 4 == 0);
    same("SELECT ?2 GLOB ?1", 2, (char(*)[96])args, i % 4 == 0);
    same("SELECT like(?1, ?2)", 2, (char(*)[96])args, 0);
    random_text(args[2], sizeof args[2], 2);
    same("SELECT ?2 LIKE ?1 ESCAPE ?3", 3, (char(*)[96])args, i % 8 == 0);
  }
}

static void test_instr_replace_trim(void **state) {
  (void)state;
  char args[3][96];
  for (int i = 0; i < 60000; i++) {
    random_text(args[0], sizeof args[0], 10);
    random_text(args[1], sizeof args[1], 3);
    random_text(args[2], sizeof args[2], 3);
    same("SELECT instr(?1, ?2)", 2, (char(*)[96])args, 1);
    same("SELECT replace(?1, ?2, ?3)", 3, (char(*)[96])args, 1);
    same("SELECT trim(?1, ?2)", 2, (char(*)[96])args, 1);
    same("SELECT ltrim(?1, ?2)", 2, (char(*)[96])args, 1);
    same("SELECT rtrim(?1, ?2)", 2, (char(*)[96])args, 1);
  }
  /* embedded NULs and blobs built in SQL */
  static const char *const fixed[] = {
      "SELECT instr(x'610062', x'0062')",         "SELECT instr('a' || char(0) || 'b', 'b')",
      "SELECT replace(x'610061', x'00', 'z')",    "SELECT replace('abc', char(0) || 'a', 'z')",
      "SELECT replace(5, '', 'x')",               "SELECT typeof(replace(5, '', 'x'))",
      "SELECT instr(12345, 34)",                  "SELECT instr(x'3132', '2')",
      "SELECT trim('  x  ')",                     "SELECT rtrim('xyyx', 'x')",
      "SELECT 'abc' LIKE 'AB%' ESCAPE '%'",       "SELECT 'a%c' LIKE 'a%%c' ESCAPE '%'",
      "SELECT 'abc' LIKE 'a_c' ESCAPE '_'",       "SELECT 'a_c' LIKE 'a__c' ESCAPE '_'",
      "SELECT 'x' LIKE 'x' ESCAPE 'ab'",          "SELECT 'x' LIKE 'x' ESCAPE ''",
      "SELECT x'61' LIKE 'a'",                    "SELECT 'a' GLOB '[a'",
      "SELECT 'abc' GLOB '*[c'",                  "SELECT 'abc' GLOB 'a*[b-c]'",
      "SELECT '-' GLOB '[a-]'",                   "SELECT 'b' GLOB '[^a-c]'",
      "SELECT ']' GLOB '[]]'",                    "SELECT 'a' LIKE 'a\\'",
      "SELECT 'a' LIKE 'a\\' ESCAPE '\\'",        "SELECT printf('%d|%5.2f|%s|%q|%Q|%w', 3, 2.5, 'x', 'it''s', NULL, 'a\"b')",
      "SELECT printf('%.*c', 5, 'x')",            "SELECT printf('%.*c', -5, 'x')",
      "SELECT printf('%.4294967299c', 'x')",      "SELECT printf('%5.2147483651c|%.0c', 'x', 'y')",
      "SELECT printf('%*d|%-*d|', 4, 1, 4, 2)",   "SELECT printf()",
      "SELECT printf(NULL)",                      "SELECT format('%s %s', 1)",
      "SELECT printf('%!.3g %,d', 1.5, 1234567)", "SELECT printf('%z', 'x')",
      "SELECT printf('%c', 'éx')",                "SELECT printf('%.3c', 'é')",
  };
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) same(fixed[i], 0, NULL, 0);
}

/* The process's CPU time, which the machine's load does not stretch. */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Calls SQLite's built-ins cannot bound stop at the deadline (or run in
 * linear time), and a printf precision past the value limit is refused. */
static void test_bounded(void **state) {
  (void)state;
  sqlite3_limit(ours, SQLITE_LIMIT_LENGTH, 16 << 20);
  static const struct {
    const char *sql;
    int stops; /* 1: stops at the deadline, 0: completes */
  } cases[] = {
      {"SELECT printf('%.*c', 12000000, 'a') LIKE '%' || printf('%.*c', 5000, 'a') || 'b'", 1},
      {"SELECT printf('%.*c', 12000000, 'a') GLOB '*' || printf('%.*c', 5000, 'a') || 'b'", 1},
      {"SELECT length(trim(printf('%.*c', 12000000, 'a'), printf('%.*c', 1000000, 'b') || 'a'))", 1},
      {"SELECT instr(printf('%.*c', 12000000, 'a'), printf('%.*c', 6000000, 'a') || 'b')", 0},
      {"SELECT length(replace(printf('%.*c', 12000000, 'a'), printf('%.*c', 6000000, 'a') || 'b', 'x'))", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_prepare_v2(ours, cases[i].sql, -1, &st, NULL), SQLITE_OK);
    guard.stopped = 0;
    /* The deadline is on the monotonic clock: 0.5 s for the calls that must
     * stop at it; 120 s for those that must complete, so that a loaded
     * machine cannot stop them (SQLite's own versions run for hours here,
     * so they would still be stopped). */
    guard.deadline = sbx_clock() + (cases[i].stops ? 0.5 : 120);
    double c0 = cpu_now();
    int rc = sqlite3_step(st);
    double took = cpu_now() - c0;
    sqlite3_finalize(st);
    /* a gross bound on the work, in CPU time (the load does not add to it):
     * building the 12 MB arguments under a sanitizer takes about a second */
    if (took > 20) fprintf(stderr, "%s: %.2f s of CPU\n", cases[i].sql, took);
    assert_true(took < 20);
    assert_int_equal(rc, cases[i].stops ? SQLITE_INTERRUPT : SQLITE_ROW);
    assert_int_equal(guard.stopped, cases[i].stops);
  }
  guard.deadline = 0;
  sqlite3_stmt *st;
  double c0 = cpu_now();
  assert_int_equal(sqlite3_prepare_v2(ours, "SELECT printf('%.*c', 999999999, 'x')", -1, &st, NULL), SQLITE_OK);
  assert_int_equal(sqlite3_step(st), SQLITE_TOOBIG);
  sqlite3_finalize(st);
  assert_true(cpu_now() - c0 < 0.5); /* refused before building it */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_like_glob),
      cmocka_unit_test(test_instr_replace_trim),
      cmocka_unit_test(test_bounded),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
