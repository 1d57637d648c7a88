/* test_parse.c -- parse + normalize: equivalent spellings give one tree,
 * names resolve through the schema, errors point at the user's bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "sqlsim.h"

static sqlsim_catalog *cat;
static const sqlsim_schema *concert, *club;

static int setup(void **state) {
  (void)state;
  sqlsim_error err = {0};
  if (sqlsim_catalog_load_tables_json(SQLSIM_SOURCE_DIR "/tests/data/tables_small.json", &cat, &err))
    fail_msg("%s", err.message);
  concert = sqlsim_catalog_find(cat, "concert");
  club = sqlsim_catalog_find(cat, "club");
  return 0;
}

static int teardown(void **state) {
  (void)state;
  sqlsim_catalog_free(cat);
  return 0;
}

static sqlsim_query *parse_ok(const char *sql, const sqlsim_schema *s) {
  sqlsim_query *q = NULL;
  sqlsim_error err = {0};
  if (sqlsim_parse(sql, strlen(sql), s, 0, &q, &err))
    fail_msg("parse failed: %s: %s at %d", sql, err.message, err.offset);
  return q;
}

/* Pairs that must normalize to the same tree. */
static const char *same[][2] = {
    {"SELECT T1.name FROM singer AS T1 WHERE T1.age > 20 AND T1.country = 'France'",
     "select name from SINGER where country = 'France' and 20 < age"},
    {"SELECT name FROM singer WHERE age != 30", "SELECT name FROM singer WHERE 30 <> age"},
    {"SELECT name FROM singer WHERE country = \"France\"",
     "SELECT name FROM singer WHERE country = 'France'"},
    {"SELECT `Name` FROM [singer] WHERE Age == 3", "SELECT name FROM singer WHERE age = 3"},
    {"SELECT name FROM singer WHERE age IN (3, 1, 2)", "SELECT name FROM singer WHERE age IN (1, 2, 3)"},
    {"SELECT name FROM singer WHERE a OR b AND c", "SELECT name FROM singer WHERE c AND b OR a"},
    {"SELECT age + 1 FROM singer", "SELECT 1 + age FROM singer"},
    {"SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id",
     "SELECT b.name FROM concert AS a JOIN stadium AS b ON b.stadium_id = a.stadium_id"},
    {"SELECT name FROM singer LIMIT 2, 5", "SELECT name FROM singer LIMIT 5 OFFSET 2"},
    {"SELECT name FROM singer WHERE age IS 3", "SELECT name FROM singer WHERE age IS NOT DISTINCT FROM 3"},
    {"SELECT * FROM singer WHERE singer_id IN (SELECT singer_id FROM singer_in_concert)",
     "SELECT * FROM singer WHERE singer_id = ANY (SELECT singer_id FROM singer_in_concert)"},
};

/* Pairs that must not. */
static const char *differ[][2] = {
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age >= 20"},
    {"SELECT name FROM singer WHERE age > 20", "SELECT name FROM singer WHERE age < 20"},
    {"SELECT name FROM singer", "SELECT name FROM stadium"},
    {"SELECT name - age FROM singer", "SELECT age - name FROM singer"},
    {"SELECT name FROM singer WHERE age = 5", "SELECT name FROM singer WHERE age = 5.0"},
    {"SELECT T1.name FROM singer AS T1 JOIN singer AS T2 ON T1.age = T2.age",
     "SELECT T2.name FROM singer AS T1 JOIN singer AS T2 ON T1.age = T2.age"},
};

static void test_same(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
    sqlsim_query *a = parse_ok(same[i][0], concert), *b = parse_ok(same[i][1], concert);
    if (sqlsim_node_cmp(a->root, b->root) != 0) {
      char *sa = sqlsim_print_sql(a->root, 0), *sb = sqlsim_print_sql(b->root, 0);
      fail_msg("case %zu should be equal:\n  %s\n  %s", i, sa, sb);
    }
    sqlsim_query_free(a);
    sqlsim_query_free(b);
  }
}

static void test_differ(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++) {
    sqlsim_query *a = parse_ok(differ[i][0], concert), *b = parse_ok(differ[i][1], concert);
    if (sqlsim_node_cmp(a->root, b->root) == 0) fail_msg("case %zu should differ", i);
    sqlsim_query_free(a);
    sqlsim_query_free(b);
  }
}

/* Finds the first node of a kind in pre-order. */
typedef struct {
  int kind, skip;
  sqlsim_node *found;
} find_ctx;
static int find_pre(sqlsim_node *n, sqlsim_node *p, void *c) {
  (void)p;
  find_ctx *f = c;
  if (n->kind == f->kind && f->skip-- == 0) {
    f->found = n;
    return SQLSIM_WALK_ABORT;
  }
  return SQLSIM_WALK_CONTINUE;
}
static sqlsim_node *find(sqlsim_query *q, int kind, int skip) {
  find_ctx f = {kind, skip, NULL};
  sqlsim_walk(q->root, find_pre, NULL, &f);
  return f.found;
}

static void test_resolution(void **state) {
  (void)state;
  /* Unqualified column resolved to its table through the schema. */
  sqlsim_query *q = parse_ok(
      "SELECT capacity FROM concert AS c JOIN stadium AS s ON c.stadium_id = s.stadium_id", concert);
  sqlsim_node *col = find(q, SQLSIM_N_COLUMN, 0);
  assert_int_equal(col->table, sqlsim_schema_find_table(concert, "stadium"));
  assert_int_equal(col->column, sqlsim_schema_find_column(concert, col->table, "Capacity"));
  assert_int_equal(q->nunresolved, 0);
  sqlsim_query_free(q);

  /* Ambiguous: stadium_id is in both tables. */
  q = parse_ok("SELECT stadium_id FROM concert JOIN stadium ON 1", concert);
  assert_true(find(q, SQLSIM_N_COLUMN, 0)->flags & SQLSIM_F_AMBIGUOUS);
  assert_int_equal(q->nunresolved, 1);
  sqlsim_query_free(q);

  /* Unknown names are kept and flagged. */
  q = parse_ok("SELECT nosuch FROM singer JOIN nowhere", concert);
  assert_true(find(q, SQLSIM_N_COLUMN, 0)->flags & SQLSIM_F_UNRESOLVED);
  assert_true(find(q, SQLSIM_N_TABLE, 1)->flags & SQLSIM_F_UNRESOLVED);
  assert_string_equal(find(q, SQLSIM_N_COLUMN, 0)->text, "nosuch");
  sqlsim_query_free(q);

  /* Self-join: two instances of one table. */
  q = parse_ok("SELECT a.name FROM singer AS a JOIN singer AS b ON a.age < b.age", concert);
  sqlsim_node *t0 = find(q, SQLSIM_N_TABLE, 0), *t1 = find(q, SQLSIM_N_TABLE, 1);
  assert_int_equal(t0->table, t1->table);
  assert_int_not_equal(t0->instance, t1->instance);
  assert_ptr_equal(find(q, SQLSIM_N_COLUMN, 0)->source, t0);
  sqlsim_query_free(q);

  /* Correlated subquery column. */
  q = parse_ok("SELECT name FROM stadium AS s WHERE EXISTS (SELECT 1 FROM concert AS c "
               "WHERE c.stadium_id = s.stadium_id)",
               concert);
  int outer = 0;
  for (int k = 0; k < 4; k++) {
    sqlsim_node *c = find(q, SQLSIM_N_COLUMN, k);
    if (c && (c->flags & SQLSIM_F_OUTER)) outer++;
  }
  assert_int_equal(outer, 1);
  sqlsim_query_free(q);

  /* A double-quoted word that names no column is the string SQLite reads. */
  q = parse_ok("SELECT \"Name\" FROM event WHERE type = \"Meeting\"", club);
  /* "Name" is no column of event either, so it too is a string, as in SQLite. */
  assert_string_equal(find(q, SQLSIM_N_CONST, 0)->text, "Name");
  assert_int_equal(find(q, SQLSIM_N_CONST, 1)->op, SQLSIM_CONST_STRING);
  assert_string_equal(find(q, SQLSIM_N_CONST, 1)->text, "Meeting");
  assert_string_equal(find(q, SQLSIM_N_COLUMN, 0)->text, "type");
  sqlsim_query_free(q);
  q = parse_ok("SELECT \"first name\" FROM member", club);
  assert_int_equal(find(q, SQLSIM_N_COLUMN, 0)->column,
                   sqlsim_schema_find_column(club, 0, "first name"));
  sqlsim_query_free(q);

  /* Select-list alias in ORDER BY and WHERE; CTE names. */
  q = parse_ok("WITH x AS (SELECT age AS a FROM singer) SELECT a AS b FROM x ORDER BY b", concert);
  assert_int_equal(q->nunresolved, 0);
  assert_true(find(q, SQLSIM_N_TABLE, 1)->flags & SQLSIM_F_CTEREF);
  sqlsim_query_free(q);
}

static void test_unordered_lists(void **state) {
  (void)state;
  sqlsim_query *q = parse_ok("SELECT country, age FROM singer GROUP BY country, age", concert);
  assert_true(q->root->kids[SQLSIM_SEL_TARGETS]->flags & SQLSIM_F_UNORDERED);
  assert_true(q->root->kids[SQLSIM_SEL_GROUP]->flags & SQLSIM_F_UNORDERED);
  /* written order kept */
  assert_string_equal(q->root->kids[SQLSIM_SEL_TARGETS]->kids[0]->kids[0]->text, "country");
  sqlsim_query_free(q);
}

/* SQLite: compound operators have one precedence, left to right. */
static void test_compound_associativity(void **state) {
  (void)state;
  sqlsim_query *q = parse_ok("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3", NULL);
  assert_int_equal(q->root->op, SQLSIM_SET_INTERSECT);
  assert_int_equal(q->root->kids[SQLSIM_SEL_LARG]->op, SQLSIM_SET_UNION);
  sqlsim_query_free(q);
}

static void test_errors(void **state) {
  (void)state;
  static const struct {
    const char *sql;
    int code, offset;
    const char *msg;
  } cases[] = {
      {"SELECT `a` FROM t WHERE", SQLSIM_ESYNTAX, 23, "syntax error at end of input"},
      {"SELECT `a`, `b` FRM t", SQLSIM_ESYNTAX, 20, "syntax error"},
      {"SELECT 1; SELECT 2", SQLSIM_EMULTI, 10, "more than one statement"},
      {"DELETE FROM t", SQLSIM_EUNSUPPORTED, 0, "only SELECT"},
      {"", SQLSIM_ESYNTAX, 0, "empty query"},
      {"SELECT 'oops", SQLSIM_ESYNTAX, 7, "unterminated string"},
      /* two operands side by side before a || run, as SQLite refuses them (the run's
       * parentheses once made ROW a row constructor: a tree that printed otherwise) */
      {"SELECT x WHERE ROW ?1 || 2 = y", SQLSIM_ESYNTAX, 19, "syntax error"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    int rc = sqlsim_parse(cases[i].sql, strlen(cases[i].sql), NULL, 0, &q, &err);
    assert_null(q);
    if (rc != cases[i].code || err.offset != cases[i].offset || !strstr(err.message, cases[i].msg))
      fail_msg("case %zu (%s): rc %d offset %d message %s", i, cases[i].sql, rc, err.offset,
               err.message);
  }
}

static void test_dialect_flags(void **state) {
  (void)state;
  static const char *cases[] = {"SELECT x::int FROM t", "SELECT a FROM t WHERE a ILIKE 'x'",
                                "SELECT EXTRACT(YEAR FROM d) FROM t"};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_query *q = parse_ok(cases[i], NULL);
    if (q->ndialect == 0) fail_msg("case %zu not flagged as another dialect", i);
    sqlsim_query_free(q);
  }
  sqlsim_query *q = parse_ok("SELECT CAST(x AS REAL), strftime('%Y', d) FROM t", NULL);
  assert_int_equal(q->ndialect, 0);
  sqlsim_query_free(q);
}

/* A select item's alias keeps the user's spelling (SQLite names the result
 * column with it): the word after AS, or PostgreSQL's reading of a quoted one,
 * never a word of the same letters elsewhere (the column itself, a later
 * keyword). */
static void test_alias_spelling(void **state) {
  (void)state;
  static const char *cases[][2] = {
      {"SELECT age AS \"Age\" FROM singer", "AS Age "},
      {"SELECT age AS Years FROM singer WHERE years = 1", "AS Years"},
      {"SELECT age = 1 AS \"and\" FROM singer WHERE age > 1 AND age < 9", "AS \"and\""},
      {"SELECT age Years FROM singer", "AS Years"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    sqlsim_query *q = parse_ok(cases[i][0], concert);
    char *s = sqlsim_print_sql(q->root, 0);
    if (!strstr(s, cases[i][1])) fail_msg("%s: printed %s, want %s", cases[i][0], s, cases[i][1]);
    free(s);
    sqlsim_query_free(q);
  }
}

/* Forms SQLite runs that sqlsim once refused (issue 45): every one parses,
 * and its printed SQL prepares in SQLite too. The keyword forms are made from
 * words in every place SQLite reads a name (an alias with and without AS, a
 * table alias, a CTE, a subquery's column, ORDER BY an alias): wherever SQLite
 * prepares the text, sqlsim must read it. */
static void test_sqlite_forms(void **state) {
  (void)state;
  sqlite3 *db;
  assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
  assert_int_equal(sqlite3_exec(db,
                                "CREATE TABLE singer (singer_id INT PRIMARY KEY, name TEXT, age INT);"
                                "CREATE TABLE sic (singer_id INT, concert_id INT);",
                                NULL, NULL, NULL),
                   SQLITE_OK);
  static const char *fixed[] = {
      "SELECT * FROM singer NATURAL LEFT JOIN sic",
      "SELECT * FROM singer NATURAL LEFT OUTER JOIN sic",
      "SELECT name FROM singer CROSS JOIN sic ON singer.singer_id = sic.singer_id",
      "SELECT name FROM singer CROSS JOIN sic USING (singer_id)",
      "SELECT x.name FROM (singer JOIN sic ON singer.singer_id = sic.singer_id) AS x",
      "SELECT count(*) FROM (singer AS s JOIN sic AS c ON s.singer_id = c.singer_id) x WHERE x.age > 30",
  };
  static const char *words[] = {"day", "end", "do", "desc", "asc", "for", "cross", "left", "natural", "column",
                                "analyze", "cast", "filter", "over", "window", "offset", "row", "rows", "key",
                                "range", "first", "last", "current_date", "replace", "match", "year", "value"};
  static const char *forms[] = {"SELECT name AS %s FROM singer", "SELECT name %s FROM singer",
                                "SELECT %s.name FROM singer AS %s", "SELECT %s.name FROM singer %s",
                                "WITH %s AS (SELECT name FROM singer) SELECT * FROM %s",
                                "SELECT %s FROM (SELECT name AS %s FROM singer)",
                                "SELECT count(*) AS %s FROM singer ORDER BY %s"};
  char sql[256];
  int checked = 0;
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] + sizeof words / sizeof words[0] * 7; i++) {
    if (i < sizeof fixed / sizeof fixed[0]) {
      snprintf(sql, sizeof sql, "%s", fixed[i]);
    } else {
      size_t k = i - sizeof fixed / sizeof fixed[0];
      const char *w = words[k / 7];
      snprintf(sql, sizeof sql, forms[k % 7], w, w);
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
      assert_true(i >= sizeof fixed / sizeof fixed[0]); /* the fixed forms all run */
      continue;
    }
    sqlite3_finalize(st);
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    if (sqlsim_parse(sql, strlen(sql), NULL, 0, &q, &err)) fail_msg("%s: %s", sql, err.message);
    char *printed = sqlsim_print_sql(q->root, 0);
    if (sqlite3_prepare_v2(db, printed, -1, &st, NULL) != SQLITE_OK) fail_msg("%s printed as %s: %s", sql, printed, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    free(printed);
    sqlsim_query_free(q);
    checked++;
  }
  assert_true(checked > 150);
  sqlite3_close(db);
}

/* Each dialect's forms read as that dialect reads them: pairs (a text in
 * the dialect, the same query in SQLite's) that must give one tree, and
 * pairs of one text read in two dialects that must not. */
static void test_dialects(void **state) {
  (void)state;
  enum { S = 0, P = SQLSIM_PARSE_POSTGRES, M = SQLSIM_PARSE_MYSQL, MP = SQLSIM_PARSE_MYSQL | SQLSIM_PARSE_PIPES_AS_CONCAT,
         MQ = SQLSIM_PARSE_MYSQL | SQLSIM_PARSE_ANSI_QUOTES, D = SQLSIM_PARSE_POSTGRES | SQLSIM_PARSE_DUCKDB };
  static const struct {
    unsigned opts;
    const char *text, *sqlite;
  } alike[] = {
      {M, "SELECT name FROM singer WHERE country = 'it\\'s' OR country = \"dq\"",
       "SELECT name FROM singer WHERE country = 'it''s' OR country = 'dq'"},
      {M, "SELECT name FROM singer WHERE age = 1 || age = 2", "SELECT name FROM singer WHERE age = 1 OR age = 2"},
      {MP, "SELECT name || country FROM singer", "SELECT name || country FROM singer"},
      {MQ, "SELECT \"name\" FROM singer", "SELECT name FROM singer"},
      {M, "SELECT name FROM singer WHERE age = 1 && age <=> 2", "SELECT name FROM singer WHERE age = 1 AND age IS 2"},
      {M, "SELECT age DIV 2, age MOD 3 FROM singer # a comment", "SELECT age / 2, age % 3 FROM singer"},
      {M, "SELECT name FROM singer WHERE age > 1 -- comment", "SELECT name FROM singer WHERE age > 1"},
      {M, "SELECT age --1 FROM singer", "SELECT age - (-1) FROM singer"},
      {M, "SELECT `name` FROM `singer` LIMIT 1, 2", "SELECT name FROM singer LIMIT 2 OFFSET 1"},
      {M, "SELECT GROUP_CONCAT(name SEPARATOR ';') FROM singer", "SELECT GROUP_CONCAT(name, ';') FROM singer"},
      {M, "SELECT CURRENT_TIMESTAMP() FROM singer", "SELECT CURRENT_TIMESTAMP FROM singer"},
      {M, "SELECT name FROM singer WHERE country LIKE 'a\\%b'", "SELECT name FROM singer WHERE country LIKE 'a\\%b'"},
      {P, "SELECT name FROM singer WHERE country ILIKE '%fr%'", "SELECT name FROM singer WHERE country ILIKE '%fr%'"},
      {P, "SELECT age::text, E'it\\'s', $$x$$, $t$y$t$ FROM singer",
       "SELECT CAST(age AS text), 'it''s', 'x', 'y' FROM singer"},
      {P, "SELECT name FROM singer WHERE age = 1 OR age = 2 LIMIT ALL", "SELECT name FROM singer WHERE age = 1 OR age = 2"},
      /* DuckDB's date functions: the SQLite forms they mean */
      {D, "SELECT strftime(song_release_year, '%Y') FROM singer", "SELECT strftime('%Y', song_release_year) FROM singer"},
      {D, "SELECT name FROM singer WHERE year(song_release_year) > 2000 AND month(song_release_year) = 5",
       "SELECT name FROM singer WHERE CAST(strftime('%Y', song_release_year) AS INTEGER) > 2000 AND "
       "CAST(strftime('%m', song_release_year) AS INTEGER) = 5"},
      {D, "SELECT EXTRACT(day FROM song_release_year), date_part('hour', song_release_year) FROM singer",
       "SELECT CAST(strftime('%d', song_release_year) AS INTEGER), CAST(strftime('%H', song_release_year) AS INTEGER) "
       "FROM singer"},
      {D, "SELECT date_diff('day', song_release_year, today()) FROM singer",
       "SELECT CAST(julianday(date('now')) - julianday(song_release_year) AS INTEGER) FROM singer"},
  };
  for (size_t i = 0; i < sizeof alike / sizeof alike[0]; i++) {
    sqlsim_query *a = NULL, *b = NULL;
    sqlsim_error err = {0};
    if (sqlsim_parse(alike[i].text, strlen(alike[i].text), concert, alike[i].opts, &a, &err))
      fail_msg("case %zu: %s: %s at %d", i, alike[i].text, err.message, err.offset);
    b = parse_ok(alike[i].sqlite, concert);
    char *x = sqlsim_print_sql(a->root, 0), *y = sqlsim_print_sql(b->root, 0);
    if (strcmp(x, y)) fail_msg("case %zu: %s\n  reads as %s\n  not as   %s", i, alike[i].text, x, y);
    free(x), free(y);
    sqlsim_query_free(a), sqlsim_query_free(b);
  }
  /* one text, two readings */
  static const struct {
    const char *text;
    unsigned a, b;
  } twice[] = {
      {"SELECT name || country FROM singer", S, M},         /* concatenation, or OR */
      {"SELECT name FROM singer WHERE country = \"x\"", M, MQ}, /* a string, or a name */
      {"SELECT strftime(name, '%Y') FROM singer", P, D},       /* PostgreSQL's own strftime, or DuckDB's */
  };
  for (size_t i = 0; i < sizeof twice / sizeof twice[0]; i++) {
    sqlsim_query *a = NULL, *b = NULL;
    sqlsim_error err = {0};
    assert_int_equal(sqlsim_parse(twice[i].text, strlen(twice[i].text), concert, twice[i].a, &a, &err), 0);
    assert_int_equal(sqlsim_parse(twice[i].text, strlen(twice[i].text), concert, twice[i].b, &b, &err), 0);
    char *x = sqlsim_print_sql(a->root, 0), *y = sqlsim_print_sql(b->root, 0);
    if (!strcmp(x, y)) fail_msg("case %zu: %s reads as %s in both dialects", i, twice[i].text, x);
    free(x), free(y);
    sqlsim_query_free(a), sqlsim_query_free(b);
  }
  /* what a dialect does not have is refused, with the position in the text */
  static const struct {
    const char *text;
    unsigned opts;
  } refused[] = {
      {"SELECT 'it\\'s' FROM singer", S},   /* SQLite has no backslash escapes: the string ends early */
      {"SELECT `name` FROM singer", P},      /* PostgreSQL has no backticks */
      {"SELECT name FROM singer LIMIT 1, 2", P},
      {"SELECT $$open FROM singer", P},
      {"SELECT 'open FROM singer", M},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    if (!sqlsim_parse(refused[i].text, strlen(refused[i].text), concert, refused[i].opts, &q, &err))
      fail_msg("refused case %zu read: %s", i, refused[i].text);
    assert_true(err.offset >= 0 && err.offset <= (int)strlen(refused[i].text));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same),       cmocka_unit_test(test_differ),
      cmocka_unit_test(test_resolution), cmocka_unit_test(test_unordered_lists),
      cmocka_unit_test(test_compound_associativity), cmocka_unit_test(test_errors),
      cmocka_unit_test(test_dialect_flags),    cmocka_unit_test(test_alias_spelling),
      cmocka_unit_test(test_sqlite_forms),       cmocka_unit_test(test_dialects),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
