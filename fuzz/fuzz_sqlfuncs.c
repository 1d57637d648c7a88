/* fuzz_sqlfuncs.c -- sqlsim's LIKE, GLOB, instr, replace, trim and printf
 * against SQLite's own, on arguments the fuzzer makes (split at NUL bytes). */
#include "fuzz_common.h"
#include "exec/sandbox.h"

#include <sqlite3.h>
#include <stdio.h>

static sqlite3 *builtin, *ours;
static sbx_guard guard;

static const char *const exprs[] = {
    "SELECT ?2 LIKE ?1",   "SELECT ?2 GLOB ?1",     "SELECT ?2 LIKE ?1 ESCAPE ?3", "SELECT instr(?1, ?2)",
    "SELECT replace(?1, ?2, ?3)", "SELECT trim(?1, ?2)", "SELECT ltrim(?1, ?2)",   "SELECT rtrim(?1, ?2)",
    "SELECT printf(?1, ?2, ?3)", "SELECT instr(CAST(?1 AS BLOB), CAST(?2 AS BLOB))",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!builtin) {
    sqlite3_open(":memory:", &builtin);
    sqlite3_open(":memory:", &ours);
    sqlfuncs_register(ours, &guard);
    /* values up to 20,000 bytes: the built-in printf spins once per unit of
     * a %c precision (a precision past the limit is decided by ours alone),
     * and past half its limit it grows its buffer one append at a time, which
     * the sanitizer's realloc makes quadratic */
    sqlite3_limit(builtin, SQLITE_LIMIT_LENGTH, 20000);
    sqlite3_limit(ours, SQLITE_LIMIT_LENGTH, 20000);
  }
  if (size < 1 || size > 4096) return 0;
  const char *arg[3] = {"", "", ""};
  int len[3] = {0, 0, 0};
  const char *p = (const char *)data + 1, *end = (const char *)data + size;
  for (int k = 0; k < 3 && p <= end; k++) {
    const char *z = memchr(p, 0, (size_t)(end - p));
    arg[k] = p;
    len[k] = (int)((z ? z : end) - p);
    p = z ? z + 1 : end + 1;
  }
  const char *sql = exprs[data[0] % (sizeof exprs / sizeof exprs[0])];
  sqlite3_stmt *a = NULL, *b = NULL;
  if (sqlite3_prepare_v2(builtin, sql, -1, &a, NULL) || sqlite3_prepare_v2(ours, sql, -1, &b, NULL)) abort();
  for (int k = 0; k < 3; k++) {
    int asblob = (data[0] >> (4 + k)) & 1;
    if (k + 1 > sqlite3_bind_parameter_count(a)) break;
    if (asblob) {
      sqlite3_bind_blob(a, k + 1, arg[k], len[k], SQLITE_STATIC);
      sqlite3_bind_blob(b, k + 1, arg[k], len[k], SQLITE_STATIC);
    } else {
      sqlite3_bind_text(a, k + 1, arg[k], len[k], SQLITE_STATIC);
      sqlite3_bind_text(b, k + 1, arg[k], len[k], SQLITE_STATIC);
    }
  }
  int rb = sqlite3_step(b);
  if (rb == SQLITE_TOOBIG && !strncmp(sql, "SELECT printf", 13)) { /* the one case ours decides without SQLite */
    sqlite3_finalize(a);
    sqlite3_finalize(b);
    return 0;
  }
  int ra = sqlite3_step(a);
  int same = ra == rb;
  if (same && ra == SQLITE_ROW) {
    int n = sqlite3_column_bytes(a, 0);
    same = sqlite3_column_type(a, 0) == sqlite3_column_type(b, 0) && n == sqlite3_column_bytes(b, 0) &&
           (n == 0 || !memcmp(sqlite3_column_blob(a, 0), sqlite3_column_blob(b, 0), (size_t)n));
  } else if (same && ra != SQLITE_DONE) {
    same = !strcmp(sqlite3_errmsg(builtin), sqlite3_errmsg(ours));
  }
  if (!same) {
    fprintf(stderr, "differs: %s: rc %d vs %d\n", sql, ra, rb);
    abort();
  }
  sqlite3_finalize(a);
  sqlite3_finalize(b);
  return 0;
}
