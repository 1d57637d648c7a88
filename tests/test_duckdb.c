/* test_duckdb.c -- the DuckDB engine (exec/duckdb.c) through the engine
 * table: its URL, sqlsim load into a file, its values as DuckDB's Python
 * client makes them, the hostile set (writes, files, extensions, settings,
 * runaway queries, huge results: refused or stopped, the file byte for byte
 * the same, nothing written beside it), the missing library said, and a
 * pair judged by synthetic execution as DuckDB answers it. Needs libduckdb
 * (setup.sh installs it), no server. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sqlsim.h"
#include "exec/server.h"

static char work[64];        /* a temporary folder: the source, the DuckDB files */
static char target[160];     /* duckdb://<work>/{db_id}.duckdb */
static char dbpath[160];     /* <work>/load_test.duckdb */

static uint64_t h_of(int type, long long i, double x, const char *p) {
  srv_cell c = {type, i, x, p, p ? strlen(p) : 0};
  double num;
  unsigned char kind;
  return srv_cell_hash(&c, &num, &kind);
}

/* A SQLite file to load: tables with the values a loader must type. */
static void make_source(const char *path) {
  sqlite3 *db;
  unlink(path);
  assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
  assert_int_equal(
      sqlite3_exec(db,
                   "CREATE TABLE Dept (deptno INTEGER PRIMARY KEY, dname TEXT NOT NULL, budget NUMERIC(10,2));"
                   "INSERT INTO Dept VALUES (10, 'ACCOUNTING', 1000.5), (20, 'RESEARCH', 2000), (30, 'SALES', NULL);"
                   "CREATE TABLE \"Emp Table\" (empno INT PRIMARY KEY, ename TEXT, sal REAL, hired DATE, seen DATETIME,"
                   " age INT, photo BLOB, deptno INT REFERENCES Dept(deptno), \"Mixed Case\" TEXT);"
                   "INSERT INTO \"Emp Table\" VALUES (1, 'KING', 5000, '1981-11-17', '1981-11-17 10:00:00', 40,"
                   " x'00ff', 10, 'a\tb\\c\nd'),"
                   " (2, 'BLAKE', 2850.5, '1981-05-01', '1981-05-01', '', NULL, 30, NULL),"
                   " (3, 'O''Brien', NULL, NULL, NULL, 31, x'', 99, 'x');"
                   "CREATE TABLE t (a INT, b INT); INSERT INTO t VALUES (7, 2), (9, 3), (1, 4);",
                   NULL, NULL, NULL),
      SQLITE_OK);
  sqlite3_close(db);
}

static int setup(void **state) {
  (void)state;
  snprintf(work, sizeof work, "/tmp/sqlsim_duckdb_XXXXXX");
  if (!mkdtemp(work)) return -1;
  snprintf(target, sizeof target, "duckdb://%s/{db_id}.duckdb", work);
  snprintf(dbpath, sizeof dbpath, "%s/load_test.duckdb", work);
  char src[200];
  snprintf(src, sizeof src, "%s/source.sqlite", work);
  make_source(src);
  sqlsim_load_opts o = {0};
  sqlsim_load_report rep;
  sqlsim_error e = {0};
  if (sqlsim_load(src, target, "load_test", &o, &rep, &e)) {
    fprintf(stderr, "load: %s\n", e.message);
    return -1;
  }
  sqlsim_load_report_free(&rep);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char cmd[200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
  return system(cmd) == 0 ? 0 : -1;
}

/* One query's single row, each cell's hash. */
static void one_row(sqlsim_db *db, const char *sql, int ncols, uint64_t *out) {
  sqlsim_result r;
  sqlsim_exec_flags(db, sql, SQLSIM_EXEC_VALUES, &r);
  if (r.status != SQLSIM_EXEC_OK) fail_msg("%s: %s", sql, r.reason);
  assert_int_equal(r.ncols, ncols);
  assert_int_equal(r.nrows, 1);
  memcpy(out, r.cells, sizeof *out * (size_t)ncols);
  sqlsim_result_free(&r);
}

static sqlsim_db *open_test_db(double timeout) {
  sqlsim_db *d;
  sqlsim_error e = {0};
  sqlsim_exec_opts eo = {.timeout_s = timeout, .max_rows = 100000};
  if (sqlsim_db_connect(target, "load_test", &eo, &d, &e)) fail_msg("open: %s", e.message);
  assert_int_equal(sqlsim_db_engine(d), SQLSIM_ENGINE_DUCKDB);
  return d;
}

static void test_url(void **state) {
  (void)state;
  srv_url u;
  sqlsim_error e = {0};
  assert_int_equal(srv_url_parse("duckdb:///data/{db_id}.duckdb", "car_1", &u, &e), 0);
  assert_ptr_equal(u.engine, &exec_duckdb);
  assert_string_equal(u.dbname, "/data/car_1.duckdb");
  srv_url_clear(&u);
  assert_int_equal(srv_url_parse("DUCKDB://rel/x.duckdb", NULL, &u, &e), 0);
  assert_string_equal(u.dbname, "rel/x.duckdb");
  srv_url_clear(&u);
  assert_int_not_equal(srv_url_parse("duckdb://", NULL, &u, &e), 0);
  assert_int_not_equal(srv_url_parse("duckdb:///d/{db_id}.duckdb", NULL, &u, &e), 0);
  assert_int_not_equal(srv_url_parse("duckdb:///d/{db_id}.duckdb", "../etc", &u, &e), 0);
  assert_int_equal(sqlsim_engine_of("duckdb:///x"), SQLSIM_ENGINE_DUCKDB);
  assert_ptr_equal(exec_engine_for("duckdb:///x"), &exec_duckdb);
  /* a database file that is not there: not created by a reader */
  sqlsim_db *d;
  char missing[200];
  snprintf(missing, sizeof missing, "duckdb://%s/nothing.duckdb", work);
  assert_int_equal(sqlsim_db_connect(missing, NULL, NULL, &d, &e), SQLSIM_ENOTFOUND);
  assert_non_null(strstr(e.message, "no such database file"));
  snprintf(missing, sizeof missing, "%s/nothing.duckdb", work);
  assert_int_not_equal(access(missing, F_OK), 0);
}

static void test_load(void **state) {
  (void)state;
  char src[200];
  snprintf(src, sizeof src, "%s/source.sqlite", work);
  sqlsim_load_opts o = {0};
  sqlsim_load_report rep;
  sqlsim_error e = {0};
  /* again: refused, nothing changed; with replace: loaded again */
  assert_int_equal(sqlsim_load(src, target, "load_test", &o, &rep, &e), SQLSIM_EEXISTS);
  assert_non_null(strstr(e.message, "exists"));
  sqlsim_load_report_free(&rep);
  o.replace = 1;
  if (sqlsim_load(src, target, "load_test", &o, &rep, &e)) fail_msg("load --replace: %s", e.message);
  assert_int_equal(rep.tables, 3);
  assert_int_equal(rep.rows, 9);
  assert_non_null(strstr(rep.notes, "age: declared INT, holds text"));
  assert_non_null(strstr(rep.notes, "foreign keys not kept"));
  sqlsim_load_report_free(&rep);

  sqlsim_db *d = open_test_db(5);
  uint64_t c[8];
  /* names are matched without regard to case, however written */
  one_row(d, "SELECT sal, hired, seen, photo, \"Mixed Case\", age, ename FROM \"Emp Table\" WHERE EMPNO = 1", 7, c);
  assert_true(c[0] == cell_hash_int(5000)); /* REAL 5000.0 as Python sees it: 5000 */
  assert_true(c[1] == h_of(SRV_DATE, 0, 0, "1981-11-17"));
  assert_true(c[2] == h_of(SRV_TIMESTAMP, 0, 0, "1981-11-17 10:00:00"));
  assert_true(c[3] == cell_hash_blob("\x00\xff", 2));
  assert_true(c[4] == cell_hash_text("a\tb\\c\nd", 7));
  assert_true(c[5] == cell_hash_text("40", 2)); /* a text column now */
  assert_true(c[6] == cell_hash_text("KING", 4));
  one_row(d, "SELECT budget, dname FROM dept WHERE deptno = 10", 2, c);
  assert_true(c[0] == cell_hash_real(1000.5));
  one_row(d, "SELECT seen FROM \"Emp Table\" WHERE empno = 2", 1, c); /* a bare date in a datetime: midnight */
  assert_true(c[0] == h_of(SRV_TIMESTAMP, 0, 0, "1981-05-01 00:00:00"));
  one_row(d, "SELECT ename FROM \"Emp Table\" WHERE empno = 3", 1, c);
  assert_true(c[0] == cell_hash_text("O'Brien", 7));
  sqlsim_db_close(d);
}

/* Values as DuckDB's own client makes them, compared as Python compares. */
static void test_values(void **state) {
  (void)state;
  sqlsim_db *d = open_test_db(5);
  uint64_t c[12];
  one_row(d, "SELECT 7 / 2, 7 // 2, 1.50::DECIMAL(5,2), 0.1::DECIMAL(3,1), 0.1::DOUBLE, true, NULL, 'x'::BLOB", 8, c);
  assert_true(c[0] == cell_hash_real(3.5)); /* DuckDB's / divides as doubles */
  assert_true(c[1] == cell_hash_int(3));
  assert_true(c[2] == cell_hash_real(1.5));
  assert_true(c[3] != c[4]); /* Decimal('0.1') != 0.1 */
  assert_true(c[5] == cell_hash_int(1));
  assert_true(c[6] == cell_hash_null());
  assert_true(c[7] == cell_hash_blob("x", 1));
  one_row(d,
          "SELECT DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05.25', TIMESTAMPTZ '2020-01-02 03:04:05+00', "
          "TIME '03:04:05', INTERVAL 1 DAY, 1.5::FLOAT, -1.5::DECIMAL(38,1), 2::HUGEINT ^ 0 + 1::HUGEINT",
          8, c);
  assert_true(c[0] == h_of(SRV_DATE, 0, 0, "2020-01-02"));
  assert_true(c[0] != cell_hash_text("2020-01-02", 10));
  assert_true(c[1] == h_of(SRV_TIMESTAMP, 0, 0, "2020-01-02 03:04:05.250000"));
  assert_true(c[2] == h_of(SRV_TIMESTAMPTZ, 0, 0, "2020-01-02 03:04:05+00"));
  assert_true(c[3] == h_of(SRV_TIME, 0, 0, "03:04:05"));
  assert_true(c[4] == h_of(SRV_DURATION, 86400000000LL, 0, NULL));
  assert_true(c[5] == cell_hash_real(1.5));
  assert_true(c[6] == cell_hash_real(-1.5));
  one_row(d, "SELECT 170141183460469231731687303715884105727::HUGEINT, 18446744073709551615::UBIGINT, "
             "(-9223372036854775808)::HUGEINT, 12345678901234567890123.45::DECIMAL(30,2)", 4, c);
  assert_true(c[0] == h_of(SRV_DECIMAL, 0, 0, "170141183460469231731687303715884105727"));
  assert_true(c[1] == h_of(SRV_DECIMAL, 0, 0, "18446744073709551615"));
  assert_true(c[2] == cell_hash_int(-9223372036854775807LL - 1));
  assert_true(c[3] == h_of(SRV_DECIMAL, 0, 0, "12345678901234567890123.45"));
  /* lists, structs, enums: DuckDB's text of them */
  one_row(d, "SELECT [1, 2], {'a': 1}, 'x'::ENUM('x', 'y'), 'infinity'::DATE", 4, c);
  assert_true(c[0] == cell_hash_text("[1, 2]", 6));
  assert_true(c[1] == cell_hash_text("{'a': 1}", 8));
  assert_true(c[2] == cell_hash_text("x", 1));
  assert_true(c[3] == cell_hash_text("infinity", 8));
  sqlsim_db_close(d);
}

/* The database file's bytes. */
static char *file_bytes(const char *path, long *n) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  *n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)*n + 1);
  assert_int_equal(fread(b, 1, (size_t)*n, f), (size_t)*n);
  fclose(f);
  return b;
}

static int entries(const char *path) {
  DIR *dd = opendir(path);
  int n = 0;
  for (struct dirent *x; dd && (x = readdir(dd));) n++;
  if (dd) closedir(dd);
  return n;
}

static void test_hostile(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int status;
  } cases[] = {
      {"DROP TABLE dept", SQLSIM_EXEC_REFUSED},
      {"INSERT INTO dept VALUES (1, 'x', 1)", SQLSIM_EXEC_REFUSED},
      {"UPDATE dept SET budget = 0", SQLSIM_EXEC_REFUSED},
      {"DELETE FROM dept", SQLSIM_EXEC_REFUSED},
      {"CREATE TABLE x (a INT)", SQLSIM_EXEC_REFUSED},
      {"COPY dept TO '/tmp/sqlsim-duckdb-stolen.csv'", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM read_csv('/etc/passwd')", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM READ_CSV_AUTO ('/etc/passwd')", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM read_parquet('/tmp/x.parquet')", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM read_text('/etc/passwd')", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM glob('/etc/*')", SQLSIM_EXEC_REFUSED},
      {"SELECT * FROM query('SELECT 1')", SQLSIM_EXEC_REFUSED},
      {"ATTACH '/tmp/sqlsim-duckdb-other.duckdb' AS o", SQLSIM_EXEC_REFUSED},
      {"INSTALL httpfs", SQLSIM_EXEC_REFUSED},
      {"LOAD httpfs", SQLSIM_EXEC_REFUSED},
      {"SET threads = 64", SQLSIM_EXEC_REFUSED},
      {"PRAGMA database_list", SQLSIM_EXEC_REFUSED},
      {"CALL checkpoint()", SQLSIM_EXEC_REFUSED},
      {"EXPORT DATABASE '/tmp/sqlsim-duckdb-export'", SQLSIM_EXEC_REFUSED},
      {"SELECT 1; DELETE FROM dept", SQLSIM_EXEC_MULTI},
      /* past the text check: the database's own walls */
      {"SELECT * FROM '/etc/passwd'", SQLSIM_EXEC_ERROR},
      {"SELECT * FROM \"read_csv\"('/etc/passwd')", SQLSIM_EXEC_REFUSED},
      {"SELECT current_setting('enable_external_access')", SQLSIM_EXEC_OK},
  };
  long n0;
  char *before = file_bytes(dbpath, &n0);
  int dir_before = entries(work);
  sqlsim_db *d = open_test_db(2);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_result r;
    sqlsim_exec(d, cases[i].sql, &r);
    if (r.status != cases[i].status)
      fail_msg("'%s': status %d, not %d (%s)", cases[i].sql, r.status, cases[i].status, r.reason);
    if (r.status) assert_true(r.reason[0]);
    sqlsim_result_free(&r);
  }
  /* runaway queries stop at the limit; a huge result at the row cap */
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  sqlsim_result r;
  sqlsim_exec(d, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r", &r);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  assert_int_equal(r.status, SQLSIM_EXEC_TIMEOUT);
  assert_true(t1.tv_sec - t0.tv_sec <= 60); /* stopped, not run to its end (not a speed check) */
  sqlsim_result_free(&r);
  /* the caps, on a connection whose time limit a loaded machine cannot reach
     first (the 256 MiB result took over 2 s on CI's) */
  sqlsim_db *big = open_test_db(300);
  sqlsim_exec(big, "SELECT a.range * b.range FROM range(100000) a, range(100000) b", &r);
  assert_int_equal(r.status, SQLSIM_EXEC_TOO_BIG); /* over max_rows (100000) */
  sqlsim_result_free(&r);
  sqlsim_exec(big, "SELECT repeat('x', 1000000) FROM range(400)", &r);
  assert_int_equal(r.status, SQLSIM_EXEC_TOO_BIG); /* over the result budget */
  sqlsim_result_free(&r);
  sqlsim_exec(big, "SELECT length(string_agg(repeat('x', 1000), ',')) FROM range(1000000)", &r);
  if (r.status != SQLSIM_EXEC_TOO_BIG) /* past DuckDB's memory_limit: stopped as SQLite's budget stops */
    fail_msg("a GiB aggregate: status %d (%s)", r.status, r.reason);
  sqlsim_result_free(&r);
  sqlsim_db_close(big);
  sqlsim_exec(d, "SELECT count(*) FROM dept", &r); /* and the connection still answers */
  assert_int_equal(r.status, SQLSIM_EXEC_OK);
  sqlsim_result_free(&r);
  sqlsim_db_close(d);
  long n1;
  char *after = file_bytes(dbpath, &n1);
  assert_int_equal(n0, n1);
  assert_memory_equal(before, after, (size_t)n0);
  assert_int_equal(entries(work), dir_before); /* no file beside it (.wal, .tmp) */
  assert_int_not_equal(access("/tmp/sqlsim-duckdb-stolen.csv", F_OK), 0);
  free(before);
  free(after);
}

/* Without the library: what a duckdb:// URL says (the test program run
 * again with --missing-library, a process that has not looked for it). */
static int missing_library(void) {
  setenv("SQLSIM_DUCKDB", "/nonexistent/libduckdb.so", 1);
  sqlsim_db *d;
  sqlsim_error e = {0};
  int rc = sqlsim_db_connect("duckdb:///tmp/x.duckdb", NULL, NULL, &d, &e);
  printf("%s\n", e.message);
  return rc == SQLSIM_EIO && strstr(e.message, "setup.sh installs it") && strstr(e.message, "SQLSIM_DUCKDB") ? 0 : 1;
}

static void test_missing_library(void **state) {
  (void)state;
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    execl("/proc/self/exe", "test_duckdb", "--missing-library", (char *)NULL);
    _exit(2);
  }
  int st;
  waitpid(pid, &st, 0);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* A pair judged as DuckDB answers it: its / divides as doubles, SQLite's as
 * integers. */
static void test_synth_on_duckdb(void **state) {
  (void)state;
  char src[200];
  snprintf(src, sizeof src, "%s/source.sqlite", work);
  sqlsim_config cfg = {.metrics = SQLSIM_M_SYNTH | SQLSIM_M_STRICT, .sqlite = src, .engine = NULL};
  sqlsim_evaluator *sq, *dk;
  sqlsim_error e = {0};
  assert_int_equal(sqlsim_evaluator_new(&cfg, &sq, &e), 0);
  /* the same schema, the pair judged on DuckDB (the dialect: DuckDB's) */
  cfg.sqlite = NULL;
  char tables[200];
  snprintf(tables, sizeof tables, "%s/tables.json", work);
  FILE *f = fopen(tables, "w");
  fputs("[{\"db_id\":\"load_test\",\"table_names_original\":[\"t\"],\"table_names\":[\"t\"],\"column_names_original\":"
        "[[-1,\"*\"],[0,\"a\"],[0,\"b\"]],\"column_names\":[[-1,\"*\"],[0,\"a\"],[0,\"b\"]],\"column_types\":[\"text\","
        "\"number\",\"number\"],\"primary_keys\":[],\"foreign_keys\":[]}]",
        f);
  fclose(f);
  cfg.tables = tables;
  cfg.engine = target;
  if (sqlsim_evaluator_new(&cfg, &dk, &e)) fail_msg("evaluator on DuckDB: %s", e.message);
  sqlsim_record r;
  /* a / b against a // b: the same on SQLite's integers, not on DuckDB */
  const char *gold = "SELECT a / b FROM t", *pred = "SELECT a // b FROM t";
  assert_int_equal(sqlsim_evaluate(dk, gold, pred, "load_test", &r, &e), 0);
  if (!r.has_synth) fail_msg("no synthetic verdict on DuckDB: %s", r.synth_err);
  assert_int_equal(r.synth.strict, 0);
  sqlsim_record_clear(&r);
  /* a / b against CAST(a AS DOUBLE) / b: the same on DuckDB */
  assert_int_equal(sqlsim_evaluate(dk, gold, "SELECT CAST(a AS DOUBLE) / b FROM t", "load_test", &r, &e), 0);
  assert_true(r.has_synth);
  if (r.synth.strict != 1) fail_msg("refuted on DuckDB: %s", r.synth.strict_why);
  sqlsim_record_clear(&r);
  sqlsim_evaluator_free(sq);
  sqlsim_evaluator_free(dk);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--missing-library")) return missing_library();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_url),        cmocka_unit_test(test_load),
      cmocka_unit_test(test_values),     cmocka_unit_test(test_hostile),
      cmocka_unit_test(test_missing_library), cmocka_unit_test(test_synth_on_duckdb),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
