/* test_engines.c -- the server engines (exec/url.c, guard.c, cells.c,
 * remote.c, pg.c, mysql.c) and the loader (load/load.c).
 *
 * The URL, the guard and the cell hashes are checked without a server; the
 * rest on the throwaway servers tests/servers.sh starts (ctest's "servers"
 * fixture sets SQLSIM_SERVERS_DIR): values typed and hashed as the Python
 * drivers compare them, the time limit, the row limit, writes refused by the
 * server's read-only transaction, a killed session reconnected, and sqlsim
 * load's types, notes and refusal to overwrite. Without SQLSIM_SERVERS_DIR the
 * server tests fail (run them through ctest, or tests/servers.sh run). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <libpq-fe.h>
#include <math.h>
#include <mysql.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core.h"
#include "exec/server.h"

/* ---------------------------------------------------------------- URLs */

static void test_url(void **state) {
  (void)state;
  srv_url u;
  sqlsim_error e = {0};
  assert_int_equal(srv_url_parse("postgresql://ann:s%40cret@db.example:5433/{db_id}?host=/run/pg", "spider_1", &u, &e), 0);
  assert_ptr_equal(u.engine, &exec_postgres);
  assert_string_equal(u.user, "ann");
  assert_string_equal(u.password, "s@cret");
  assert_string_equal(u.host, "/run/pg"); /* libpq's host parameter wins */
  assert_int_equal(u.port, 5433);
  assert_string_equal(u.dbname, "spider_1");
  assert_non_null(strstr(u.text, "/spider_1?host=/run/pg"));
  srv_url_clear(&u);
  assert_int_equal(srv_url_parse("mysql://root@/BIRD?socket=/tmp/my.sock", NULL, &u, &e), 0);
  assert_ptr_equal(u.engine, &exec_mysql);
  assert_string_equal(u.socket, "/tmp/my.sock");
  assert_null(u.host);
  assert_string_equal(u.dbname, "BIRD");
  srv_url_clear(&u);
  /* a db_id is encoded where the URL needs it, and must be a name */
  assert_int_equal(srv_url_parse("mysql://r@h/{db_id}", "a b", &u, &e), 0);
  assert_string_equal(u.dbname, "a b");
  assert_non_null(strstr(u.text, "a%20b"));
  srv_url_clear(&u);
  assert_int_not_equal(srv_url_parse("mysql://r@h/{db_id}", "../x", &u, &e), 0);
  assert_int_not_equal(srv_url_parse("mysql://r@h/{db_id}", NULL, &u, &e), 0);
  assert_int_not_equal(srv_url_parse("mysql://r@h:99999/x", NULL, &u, &e), 0);
  assert_int_not_equal(srv_url_parse("mysql://r@h/x?sslmode=on", NULL, &u, &e), 0);
  assert_non_null(strstr(e.message, "sslmode"));
  assert_int_not_equal(srv_url_parse("mysql://r@h/x%zz", NULL, &u, &e), 0);
  assert_int_not_equal(srv_url_parse("sqlite:///x.db", NULL, &u, &e), 0);
  /* a password file, and a missing one */
  char pf[] = "/tmp/sqlsim_pw_XXXXXX";
  int fd = mkstemp(pf);
  assert_int_equal(write(fd, "hunter2\n", 8), 8);
  close(fd);
  char url[200];
  snprintf(url, sizeof url, "mysql://r@h/x?password_file=%s", pf);
  assert_int_equal(srv_url_parse(url, NULL, &u, &e), 0);
  assert_string_equal(u.password, "hunter2");
  assert_null(strstr(u.text, "password_file"));
  srv_url_clear(&u);
  unlink(pf);
  assert_int_equal(srv_url_parse(url, NULL, &u, &e), SQLSIM_EIO);
  assert_null(strstr(e.message, "hunter2"));
  /* the password is never shown */
  char *r = srv_url_redact("postgresql://ann:hunter2@h/db?password=hunter2&x=1");
  assert_null(strstr(r, "hunter2"));
  assert_non_null(strstr(r, "ann:***@h/db?password=***&x=1"));
  free(r);
  char *x = srv_url_expand("postgresql:///{db_id}?options=-csearch_path%3D{db_id}", "cars", &e);
  assert_string_equal(x, "postgresql:///cars?options=-csearch_path%3Dcars");
  free(x);
}

/* ---------------------------------------------------------------- the guard */

typedef struct guard_case {
  int kind;
  const char *sql;
  int status; /* 0: sent */
} guard_case;

static void test_guard(void **state) {
  (void)state;
  enum { P = 1, M = 2, R = SQLSIM_EXEC_REFUSED, X = SQLSIM_EXEC_MULTI, E = SQLSIM_EXEC_ERROR };
  static const guard_case cases[] = {
      {P, "SELECT 1", 0}, {M, "select 1;", 0}, {P, "  -- c\n(SELECT 1) UNION (SELECT 2);  ;", 0},
      {P, "WITH x AS (SELECT 1) SELECT * FROM x", 0}, {P, "VALUES (1)", 0}, {P, "TABLE t", 0},
      {P, "/* a /* nested */ comment */ SELECT 1", 0}, {M, "SELECT `pg_read_file`(1)", 0},
      {P, "SELECT 'pg_read_file(1)', \"x\"", 0}, {P, "SELECT $tag$ ; set_config( $tag$", 0},
      {P, "SELECT E'\\'', 1", 0}, {M, "SELECT 'a\\'; DELETE FROM t', 2", 0}, {M, "SELECT 1 # ; drop\n", 0},
      {M, "SELECT @x := 1", 0},
      /* only reading statements */
      {P, "INSERT INTO t VALUES (1)", R}, {P, "DELETE FROM t", R}, {M, "DROP TABLE t", R}, {P, "SET x = 1", R},
      {P, "COPY t TO '/tmp/x'", R}, {M, "LOAD DATA INFILE '/etc/passwd' INTO TABLE t", R}, {P, "'x'", R},
      {M, "CALL p()", R}, {P, "", E}, {P, " ; ", E}, {P, "/* open", E}, {P, "SELECT 'open", E},
      /* one statement */
      {P, "SELECT 1; SELECT 2", X}, {M, "SELECT 1; DROP TABLE t", X}, {P, "SELECT 1 -- ;\n; DELETE FROM t", X},
      /* functions that reach outside the query, however written */
      {P, "SELECT pg_read_file('/etc/passwd')", R}, {P, "SELECT PG_READ_FILE ('/etc/passwd')", R},
      {P, "SELECT pg_catalog.pg_read_file('/etc/passwd')", R}, {P, "SELECT \"pg_read_file\"('/etc/passwd')", R},
      {P, "SELECT set_config('default_transaction_read_only', 'off', false)", R},
      {P, "SELECT query_to_xml('select 1', true, true, '')", R}, {P, "SELECT pg_sleep(1), lo_import('/x')", R},
      {P, "SELECT pg_terminate_backend(1)", R}, {P, "SELECT pg_advisory_lock(1)", R},
      {P, "SELECT E'\\'' , pg_read_file('x') , '", R}, {M, "SELECT load_file('/etc/passwd')", R},
      {M, "SELECT 1 --load_file('/etc/passwd')", R}, {M, "SELECT \"load_file\"('/etc/passwd')", R},
      {M, "SELECT * FROM t INTO OUTFILE '/tmp/x'", R}, {M, "SELECT 1 INTO DUMPFILE '/tmp/x'", R},
      {M, "SELECT /*! load_file('/etc/passwd') */ 1", R}, {M, "SELECT get_lock('x', 1)", R},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char why[256] = "";
    int st = srv_guard(cases[i].kind == P ? &exec_postgres : &exec_mysql, cases[i].sql, why, sizeof why);
    if (st != cases[i].status) fail_msg("case %zu '%s': %d, not %d (%s)", i, cases[i].sql, st, cases[i].status, why);
    if (st) assert_true(why[0]);
  }
}

/* ---------------------------------------------------------------- cells */

static uint64_t h_of(int type, long long i, double x, const char *p) {
  srv_cell c = {type, i, x, p, p ? strlen(p) : 0};
  double num;
  unsigned char kind;
  return srv_cell_hash(&c, &num, &kind);
}

static void test_cells(void **state) {
  (void)state;
  uint64_t one = h_of(SRV_INT, 1, 0, NULL);
  /* 1 == 1.0 == Decimal('1.00') == True */
  assert_true(one == h_of(SRV_REAL, 0, 1.0, NULL));
  assert_true(one == h_of(SRV_DECIMAL, 0, 0, "1.00"));
  assert_true(one == cell_hash_int(1) && one == cell_hash_real(1.0));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "-0.000") == h_of(SRV_INT, 0, 0, NULL));
  /* a Decimal equals a float only when exactly equal */
  assert_true(h_of(SRV_DECIMAL, 0, 0, "0.5") == h_of(SRV_REAL, 0, 0.5, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "3.5000") == h_of(SRV_REAL, 0, 3.5, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "0.1") != h_of(SRV_REAL, 0, 0.1, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "0.1") == h_of(SRV_DECIMAL, 0, 0, "0.10"));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "0.3333") != h_of(SRV_DECIMAL, 0, 0, "0.33333333333333333333"));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "12345678901234567168") == h_of(SRV_REAL, 0, 12345678901234567168.0, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "12345678901234567169") != h_of(SRV_REAL, 0, 12345678901234567168.0, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "9223372036854775807") == h_of(SRV_INT, 9223372036854775807LL, 0, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "1E+2") == h_of(SRV_INT, 100, 0, NULL));
  /* NaN equals nothing, itself included */
  assert_true(h_of(SRV_REAL, 0, NAN, NULL) != h_of(SRV_REAL, 0, NAN, NULL));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "NaN") != h_of(SRV_DECIMAL, 0, 0, "NaN"));
  assert_true(h_of(SRV_DECIMAL, 0, 0, "Infinity") == h_of(SRV_REAL, 0, INFINITY, NULL));
  /* dates equal only dates; text is text */
  uint64_t d = h_of(SRV_DATE, 0, 0, "2019-01-01");
  assert_true(d != h_of(SRV_TEXT, 0, 0, "2019-01-01"));
  assert_true(d != h_of(SRV_TIMESTAMP, 0, 0, "2019-01-01 00:00:00"));
  assert_true(h_of(SRV_TIMESTAMP, 0, 0, "2019-01-01 10:00:00") == h_of(SRV_TIMESTAMP, 0, 0, "2019-01-01 10:00:00.000"));
  assert_true(h_of(SRV_TIMESTAMPTZ, 0, 0, "2019-01-01 05:30:00+05:30") ==
              h_of(SRV_TIMESTAMPTZ, 0, 0, "2019-01-01 00:00:00+00"));
  assert_true(h_of(SRV_TIMESTAMPTZ, 0, 0, "2019-01-01 00:00:00+00") != h_of(SRV_TIMESTAMP, 0, 0, "2019-01-01 00:00:00"));
  assert_true(h_of(SRV_DURATION, 86400000000LL, 0, NULL) != h_of(SRV_INT, 86400000000LL, 0, NULL));
  assert_true(h_of(SRV_TEXT, 0, 0, "ab") != h_of(SRV_BLOB, 0, 0, "ab"));
  assert_true(h_of(SRV_TEXT, 0, 0, "ab") == cell_hash_text("ab", 2));
}

/* ---------------------------------------------------------------- on the servers */

static const char *servers(void) {
  const char *dir = getenv("SQLSIM_SERVERS_DIR");
  if (!dir) fail_msg("SQLSIM_SERVERS_DIR is not set: run through ctest (its servers fixture) or tests/servers.sh run");
  return dir;
}

/* The URL of a server's database as the reader role (admin 0) or its
 * superuser (1). */
static void url_of(char *buf, size_t n, const exec_engine *kind, const char *db, int admin) {
  if (kind == &exec_postgres) snprintf(buf, n, "postgresql://%s@/%s?host=%s", admin ? "sqlsim" : "reader", db, servers());
  else snprintf(buf, n, "mysql://%s@/%s?socket=%s/my.sock", admin ? "root" : "reader", db, servers());
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
                   " (3, 'O''Brien', NULL, NULL, NULL, 31, x'', 99, 'x');",
                   NULL, NULL, NULL),
      SQLITE_OK);
  sqlite3_close(db);
}

/* One query's single row, each cell's hash (nrows and status checked). */
static void one_row(sqlsim_db *db, const char *sql, int ncols, uint64_t *out) {
  sqlsim_result r;
  sqlsim_exec_flags(db, sql, SQLSIM_EXEC_VALUES, &r);
  if (r.status != SQLSIM_EXEC_OK) fail_msg("%s: %s", sql, r.reason);
  assert_int_equal(r.ncols, ncols);
  assert_int_equal(r.nrows, 1);
  memcpy(out, r.cells, sizeof *out * (size_t)ncols);
  sqlsim_result_free(&r);
}

static void load_and_read(const exec_engine *kind) {
  char path[] = "/tmp/sqlsim_load_XXXXXX.sqlite";
  int fd = mkstemps(path, 7);
  close(fd);
  make_source(path);
  char admin[512], reader[512];
  const char *db = kind == &exec_postgres ? "load_test" : "Load_Test";
  url_of(admin, sizeof admin, kind, "{db_id}", 1);
  url_of(reader, sizeof reader, kind, db, 0);
  sqlsim_load_opts o = {0};
  sqlsim_load_report rep;
  sqlsim_error e = {0};
  if (sqlsim_load(path, admin, db, &o, &rep, &e)) fail_msg("load: %s", e.message);
  assert_int_equal(rep.tables, 2);
  assert_int_equal(rep.rows, 6);
  /* age (declared INT) holds '' and is text; the employee in dept 99 breaks the key */
  assert_non_null(strstr(rep.notes, "age: declared INT, holds text"));
  assert_non_null(strstr(rep.notes, "foreign key (deptno) -> Dept (deptno) not kept"));
  sqlsim_load_report_free(&rep);
  /* again: refused, nothing changed; with replace: loaded again */
  assert_int_equal(sqlsim_load(path, admin, db, &o, &rep, &e), SQLSIM_EEXISTS);
  assert_non_null(strstr(e.message, "exists"));
  sqlsim_load_report_free(&rep);
  o.replace = 1;
  if (sqlsim_load(path, admin, db, &o, &rep, &e)) fail_msg("load --replace: %s", e.message);
  assert_int_equal(rep.rows, 6);
  sqlsim_load_report_free(&rep);
  unlink(path);

  sqlsim_db *d;
  sqlsim_exec_opts eo = {.timeout_s = 5};
  if (sqlsim_db_open(reader, &eo, &d, &e)) fail_msg("open %s: %s", reader, e.message);
  assert_int_equal(sqlsim_db_engine(d), kind == &exec_postgres ? SQLSIM_ENGINE_POSTGRES : SQLSIM_ENGINE_MYSQL);
  uint64_t c[8];
  /* plain names are folded in PostgreSQL (queries write them unquoted); others stay */
  one_row(d,
          kind == &exec_postgres
              ? "SELECT sal, hired, seen, photo, \"Mixed Case\", age, ename FROM \"Emp Table\" WHERE EMPNO = 1"
              : "SELECT sal, hired, seen, photo, `Mixed Case`, age, ename FROM `Emp Table` WHERE EMPNO = 1",
          7, c);
  assert_true(c[0] == cell_hash_int(5000)); /* REAL 5000.0 as Python sees it: 5000 */
  assert_true(c[1] == h_of(SRV_DATE, 0, 0, "1981-11-17"));
  assert_true(c[2] == h_of(SRV_TIMESTAMP, 0, 0, "1981-11-17 10:00:00"));
  assert_true(c[3] == cell_hash_blob("\x00\xff", 2));
  assert_true(c[4] == cell_hash_text("a\tb\\c\nd", 7));
  assert_true(c[5] == cell_hash_text("40", 2)); /* a text column now */
  assert_true(c[6] == cell_hash_text("KING", 4));
  one_row(d, kind == &exec_postgres ? "SELECT budget, dname FROM dept WHERE deptno = 10"
                                  : "SELECT budget, dname FROM Dept WHERE deptno = 10", 2, c);
  assert_true(c[0] == cell_hash_real(1000.5));
  /* a datetime column holding a bare date: midnight */
  one_row(d, kind == &exec_postgres ? "SELECT seen FROM \"Emp Table\" WHERE empno = 2" : "SELECT seen FROM `Emp Table` WHERE empno = 2", 1, c);
  assert_true(c[0] == h_of(SRV_TIMESTAMP, 0, 0, "1981-05-01 00:00:00"));
  sqlsim_db_close(d);
}

static void test_pg_load(void **state) {
  (void)state;
  load_and_read(&exec_postgres);
}
static void test_my_load(void **state) {
  (void)state;
  load_and_read(&exec_mysql);
}

/* Values as the drivers make them: the server's own arithmetic, compared as
 * Python compares its values. */
static void values(const exec_engine *kind) {
  char url[512];
  url_of(url, sizeof url, kind, kind == &exec_postgres ? "postgres" : "mysql", 0);
  sqlsim_db *d;
  sqlsim_error e = {0};
  sqlsim_exec_opts eo = {.timeout_s = 5};
  if (sqlsim_db_open(url, &eo, &d, &e)) fail_msg("open: %s", e.message);
  uint64_t c[8];
  if (kind == &exec_postgres) {
    one_row(d, "SELECT 7/2, 7/2.0, 1.50::numeric, 0.1::numeric, 0.1::float8, true, NULL, 'x'::bytea", 8, c);
    assert_true(c[0] == cell_hash_int(3));  /* integer division */
    assert_true(c[1] == cell_hash_real(3.5)); /* numeric 3.5000000000000000 == 3.5 */
    assert_true(c[2] == cell_hash_real(1.5));
    assert_true(c[3] != c[4]);               /* Decimal('0.1') != 0.1 */
    assert_true(c[5] == cell_hash_int(1));   /* True == 1 */
    assert_true(c[6] == cell_hash_null());
    assert_true(c[7] == cell_hash_blob("x", 1));
    one_row(d, "SELECT DATE '2019-01-01', CAST('2019-01-01' AS DATE) = DATE '2019-01-01', INTERVAL '1 day', 'a' = 'A'",
            4, c);
    assert_true(c[0] == h_of(SRV_DATE, 0, 0, "2019-01-01"));
    assert_true(c[1] == cell_hash_int(1));
    assert_true(c[2] == h_of(SRV_DURATION, 86400000000LL, 0, NULL));
    assert_true(c[3] == cell_hash_int(0)); /* text compares with case */
  } else {
    one_row(d, "SELECT 7/2, 7 DIV 2, SUM(3), 1.50, 0.1, CAST(0.1 AS DOUBLE), TRUE, NULL", 8, c);
    assert_true(c[0] == cell_hash_real(3.5)); /* DECIMAL 3.5000: division is not integer division */
    assert_true(c[1] == cell_hash_int(3));
    assert_true(c[2] == cell_hash_int(3));    /* SUM is a DECIMAL: Decimal('3') == 3 */
    assert_true(c[3] == cell_hash_real(1.5));
    assert_true(c[4] != c[5]);
    assert_true(c[6] == cell_hash_int(1));
    assert_true(c[7] == cell_hash_null());
    one_row(d, "SELECT CAST('2019-01-01' AS DATE), 'a' = 'A', CAST('25:00:00' AS TIME), IF(1 > 0, 'y', 'n')", 4, c);
    assert_true(c[0] == h_of(SRV_DATE, 0, 0, "2019-01-01"));
    assert_true(c[1] == cell_hash_int(1)); /* the default collation ignores case */
    assert_true(c[2] == h_of(SRV_DURATION, 90000000000LL, 0, NULL));
    assert_true(c[3] == cell_hash_text("y", 1));
  }
  sqlsim_db_close(d);
}

static void test_pg_values(void **state) {
  (void)state;
  values(&exec_postgres);
}
static void test_my_values(void **state) {
  (void)state;
  values(&exec_mysql);
}

static void expect(sqlsim_db *d, const char *sql, int status, const char *reason_part) {
  sqlsim_result r;
  sqlsim_exec(d, sql, &r);
  if (r.status != status) fail_msg("%s: status %d (%s), not %d", sql, r.status, r.reason, status);
  if (reason_part && !strstr(r.reason, reason_part)) fail_msg("%s: '%s' lacks '%s'", sql, r.reason, reason_part);
  assert_true(r.total_s < 60); /* stopped, not waited out (the limits are 0.5 s and 30 s) */
  sqlsim_result_free(&r);
}

/* What the sandbox's tests throw at SQLite, at a server: stopped within its
 * limits, writes refused by the server itself. */
static void limits(const exec_engine *kind) {
  char url[512];
  url_of(url, sizeof url, kind, kind == &exec_postgres ? "load_test" : "load_test", 0);
  sqlsim_db *d;
  sqlsim_error e = {0};
  sqlsim_exec_opts eo = {.timeout_s = 0.5, .max_rows = 1000};
  if (sqlsim_db_open(url, &eo, &d, &e)) fail_msg("open: %s", e.message);
  if (kind == &exec_postgres) {
    expect(d, "SELECT pg_sleep(30)", SQLSIM_EXEC_TIMEOUT, "time limit");
    expect(d, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c",
           SQLSIM_EXEC_TIMEOUT, NULL);
    expect(d, "SELECT count(*) FROM generate_series(1, 10) a, generate_series(1, 10) b, generate_series(1, 10) c, "
              "generate_series(1, 10) d, generate_series(1, 10) e, generate_series(1, 10) f, generate_series(1, 10) g, "
              "generate_series(1, 10) h, generate_series(1, 10) i, generate_series(1, 10) j, generate_series(1, 10) k, "
              "generate_series(1, 10) l",
           SQLSIM_EXEC_TIMEOUT, NULL);
    /* past the 1,000-row cap, small enough that a loaded sanitizer build gets
     * the rows within the 0.5 s limit (100,000 did not on CI's fresh clone) */
    expect(d, "SELECT * FROM generate_series(1, 5000)", SQLSIM_EXEC_TOO_BIG, "rows");
    expect(d, "WITH x AS (DELETE FROM dept RETURNING *) SELECT * FROM x", SQLSIM_EXEC_REFUSED, "read-only");
    expect(d, "SELECT * INTO newt FROM dept", SQLSIM_EXEC_REFUSED, "read-only");
    expect(d, "SELECT nextval('s')", SQLSIM_EXEC_ERROR, NULL);
    expect(d, "SELECT * FROM dept FOR UPDATE", SQLSIM_EXEC_REFUSED, NULL);
  } else {
    expect(d, "SELECT SLEEP(30)", SQLSIM_EXEC_TIMEOUT, "time limit");
    /* MariaDB ends a runaway recursion itself (max_recursive_iterations, 1000) */
    expect(d, "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c",
           SQLSIM_EXEC_OK, NULL);
    expect(d, "SELECT BENCHMARK(10000000000, MD5('x'))", SQLSIM_EXEC_TIMEOUT, NULL);
    expect(d, "SELECT seq FROM seq_1_to_5000", SQLSIM_EXEC_TOO_BIG, "rows");
    /* a 12-way cross join: 10^12 rows to count */
    expect(d, "SELECT count(*) FROM seq_1_to_10 a, seq_1_to_10 b, seq_1_to_10 c, seq_1_to_10 d, seq_1_to_10 e, "
              "seq_1_to_10 f, seq_1_to_10 g, seq_1_to_10 h, seq_1_to_10 i, seq_1_to_10 j, seq_1_to_10 k, seq_1_to_10 l "
              "WHERE a.seq + b.seq + c.seq + d.seq + e.seq + f.seq + g.seq + h.seq + i.seq + j.seq + k.seq + l.seq > 0",
           SQLSIM_EXEC_TIMEOUT, NULL);
  }
  /* the session still answers */
  expect(d, "SELECT 1", SQLSIM_EXEC_OK, NULL);
  sqlsim_db_close(d);
  /* bytes: a result over the budget (256 MiB) is stopped as it arrives (a
   * time limit no machine reaches first) */
  eo.timeout_s = 120;
  if (sqlsim_db_open(url, &eo, &d, &e)) fail_msg("open: %s", e.message);
  expect(d,
         kind == &exec_postgres ? "SELECT repeat('x', 1000000), g FROM generate_series(1, 400) g"
                              : "SELECT REPEAT('x', 1000000), seq FROM seq_1_to_400",
         SQLSIM_EXEC_TOO_BIG, "MiB");
  sqlsim_db_close(d);
}

static void test_pg_limits(void **state) {
  (void)state;
  limits(&exec_postgres);
}
static void test_my_limits(void **state) {
  (void)state;
  limits(&exec_mysql);
}

/* A session the server ends is opened again once, and said. */
static void test_pg_reconnect(void **state) {
  (void)state;
  char url[512], conninfo[512];
  url_of(url, sizeof url, &exec_postgres, "postgres", 0);
  sqlsim_db *d;
  sqlsim_error e = {0};
  sqlsim_exec_opts eo = {.timeout_s = 5};
  if (sqlsim_db_open(url, &eo, &d, &e)) fail_msg("open: %s", e.message);
  sqlsim_result r;
  sqlsim_exec(d, "SELECT pg_backend_pid()", &r);
  assert_int_equal(r.status, SQLSIM_EXEC_OK);
  sqlsim_result_free(&r);
  snprintf(conninfo, sizeof conninfo, "host=%s user=sqlsim dbname=postgres", servers());
  PGconn *admin = PQconnectdb(conninfo);
  assert_int_equal(PQstatus(admin), CONNECTION_OK);
  PGresult *k = PQexec(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'reader'");
  assert_int_equal(PQresultStatus(k), PGRES_TUPLES_OK);
  PQclear(k);
  PQfinish(admin);
  sqlsim_exec(d, "SELECT 41 + 1", &r);
  if (r.status != SQLSIM_EXEC_OK) fail_msg("after the session was ended: %s", r.reason);
  assert_true(r.reconnected);
  assert_true(r.cells[0] == cell_hash_int(42));
  sqlsim_result_free(&r);
  assert_int_equal(sqlsim_db_reconnects(d), 1);
  sqlsim_db_close(d);
}

static void test_my_reconnect(void **state) {
  (void)state;
  char url[512], sock[512];
  url_of(url, sizeof url, &exec_mysql, "mysql", 0);
  sqlsim_db *d;
  sqlsim_error e = {0};
  sqlsim_exec_opts eo = {.timeout_s = 5};
  if (sqlsim_db_open(url, &eo, &d, &e)) fail_msg("open: %s", e.message);
  snprintf(sock, sizeof sock, "%s/my.sock", servers());
  MYSQL *admin = mysql_init(NULL);
  assert_non_null(mysql_real_connect(admin, NULL, "root", NULL, NULL, 0, sock, 0));
  MYSQL_RES *res;
  assert_int_equal(mysql_query(admin, "SELECT id FROM information_schema.processlist WHERE user = 'reader'"), 0);
  assert_non_null(res = mysql_store_result(admin));
  MYSQL_ROW row;
  while ((row = mysql_fetch_row(res))) {
    char kill[64];
    snprintf(kill, sizeof kill, "KILL %s", row[0]);
    mysql_query(admin, kill);
  }
  mysql_free_result(res);
  mysql_close(admin);
  sqlsim_result r;
  sqlsim_exec(d, "SELECT 41 + 1", &r);
  if (r.status != SQLSIM_EXEC_OK) fail_msg("after the session was killed: %s", r.reason);
  assert_true(r.reconnected);
  sqlsim_result_free(&r);
  assert_int_equal(sqlsim_db_reconnects(d), 1);
  sqlsim_db_close(d);
}

/* A server that is not there: an error naming it, the password not shown. */
static void test_no_server(void **state) {
  (void)state;
  sqlsim_db *d;
  sqlsim_error e = {0};
  char url[512];
  snprintf(url, sizeof url, "postgresql://ann:hunter2@/x?host=%s/nothing-here", servers());
  assert_int_not_equal(sqlsim_db_open(url, NULL, &d, &e), 0);
  assert_null(strstr(e.message, "hunter2"));
  assert_non_null(strstr(e.message, "ann:***@"));
  snprintf(url, sizeof url, "mysql://ann:hunter2@/x?socket=%s/nothing.sock", servers());
  assert_int_not_equal(sqlsim_db_open(url, NULL, &d, &e), 0);
  assert_null(strstr(e.message, "hunter2"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_url),          cmocka_unit_test(test_guard),       cmocka_unit_test(test_cells),
      cmocka_unit_test(test_pg_load),      cmocka_unit_test(test_my_load),     cmocka_unit_test(test_pg_values),
      cmocka_unit_test(test_my_values),    cmocka_unit_test(test_pg_limits),   cmocka_unit_test(test_my_limits),
      cmocka_unit_test(test_pg_reconnect), cmocka_unit_test(test_my_reconnect), cmocka_unit_test(test_no_server),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
