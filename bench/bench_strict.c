/* bench_strict.c -- the strict verdict by class of wrong query, on pairs
 * made from real schemas (issue 45).
 *
 * From every schema of the tables.json files given (Spider's 166, BIRD's 11),
 * and from a copy of each as a SQLite file that declares more (number
 * columns INTEGER, CHECK (col >= 0) on every number column no key holds),
 * pairs of a gold and a mutant are made by templates, one class of mistake
 * each; every mutant of a "wrong" class answers otherwise than its gold on
 * some database the schema allows, every pair of an "equivalent" class on
 * none:
 *
 *   dup_join   IN (SELECT fk) against a JOIN: a parent with two children
 *   dup_filter the same, counted, with a filter on the child
 *   tie_lt     a.n < b.n against <= over a self-join: two rows at one value
 *   tie_text   the same on a text column (dates, names): two rows at one text
 *   boundary   n > 10 against n >= 10: a value on the literal
 *   arith      n / 60 <= 5 against n <= 300: a value the division maps onto
 *              the threshold (301 .. 359); not on a REAL column, where /
 *              divides as reals and the two agree
 *   arith_betw n / 60 BETWEEN 0 AND 5 against n BETWEEN 0 AND 300
 *   negative   SUM(n) against SUM(ABS(n)): a negative value (the declaring
 *              copy forbids one: there the pair is equivalent)
 *   zero       COUNT(*) WHERE n <> 0 against COUNT(n): a zero
 *   coincide   a < b against a <= b, two columns of a row: equal values
 *   coinc_text the same on two text columns
 *   empty      MAX(n) against ORDER BY n DESC LIMIT 1: an empty table
 *   null       COUNT(*) against COUNT(x): a NULL (needs_null expected)
 *   having     GROUP BY the child key HAVING COUNT(*) > 3 against >= 3
 *   group4..6  a parent joined to its children, GROUP BY the parent's key,
 *              HAVING COUNT(*) > n-1 against > n: a group of exactly n (4, 5, 6)
 *              children (issue 53: the solver's kind)
 *   sum_bound  HAVING SUM(n) > 100 AND MAX(n) < 75 against >= 100: rows
 *              summing to exactly 100, each under 75
 *   avg_bound  HAVING AVG(n) > 30 AND COUNT(*) = 3 against >= 30
 *   agg_nogrp  an aggregate without GROUP BY: HAVING COUNT(*) = 4 against >= 4
 *   chain2..4  a chain of 2 to 4 foreign-key joins (child, parent, grandparent
 *              .., the child's key not unique), GROUP BY the last table's key, HAVING COUNT(*) > n-1 against
 *              > n, n from 3 to 6: a group of exactly n rows through the joins
 *   eq_having  HAVING COUNT(*) >= 3 against NOT COUNT(*) < 3 (equivalent)
 *   gold_rows  a join with a literal on each side against another literal:
 *              a database where the gold returns rows at all
 *   rows_like  the same with LIKE '%ab%' on the parent's text
 *   eq_check   n >= 0 against COUNT(n) under CHECK (n >= 0)   (equivalent)
 *   eq_integer n > 3 against n >= 4 in an INTEGER column        (equivalent)
 *   eq_float   SUM(n) against SUM over the rows in another order (equivalent)
 *
 * The classes of the solver's wider subset (issue 53; written before the
 * encodings they test):
 *   left_null  LEFT JOIN .. GROUP BY the parent: COUNT(child) against
 *              COUNT(*): a parent without children
 *   left_on    a filter in a LEFT JOIN's ON against the same in WHERE: a
 *              parent whose children all fail it
 *   union_dup  UNION against OR: one value twice
 *   except_nul EXCEPT against NOT IN: a NULL child key
 *   case_group HAVING SUM(CASE WHEN n > 5 THEN 1 ELSE 0 END) >= 3 against
 *              > 3: a group of exactly three rows over 5
 *   limit_agg  the parent with most children against the one with the
 *              largest sum (ORDER BY .. DESC LIMIT 1)
 *   corr_count a correlated COUNT(*) > 2 against >= 2: a parent with
 *              exactly two children
 *   corr_dup   a correlated EXISTS against a JOIN: a parent with two children
 *   eq_left    LEFT JOIN .. WHERE child IS NOT NULL against JOIN (equivalent)
 *   eq_union   UNION against OR .. GROUP BY (equivalent; not SELECT DISTINCT,
 *              which Spider's comparison drops)
 *   eq_case    SUM(CASE .. THEN 1 ELSE 0) against COUNT(CASE .. THEN 1 END)
 *              per group                                 (equivalent)
 *   eq_exists  a correlated EXISTS against IN (equivalent)
 *
 * Each pair runs through a strict runner with witnesses (Spider's
 * semantics). Printed per class: pairs, the share refuted, the share with no
 * verdict, the share of refutations that needed a NULL, the share of
 * witnesses that load into the declared schema with its constraints enforced
 * (a fresh SQLite, PRAGMA foreign_keys = ON, the witness's own CREATE TABLE
 * and INSERT text: must be 100%), refutations dropped because their database
 * did not load (sqlsim_synth.dropped), and pairs per second.
 *
 * usage: bench_strict [--max N] [--per K] TABLES.json... */
#include "clock.h"
#include "sqlsim.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { DUP_JOIN, DUP_FILTER, TIE_LT, TIE_TEXT, BOUNDARY, ARITH, ARITH_BETWEEN, NEGATIVE, ZERO, COINCIDE,
       COINCIDE_TEXT, EMPTY, NULLS, HAVING, GOLD_ROWS, GOLD_ROWS_LIKE, GROUP4, GROUP5, GROUP6, SUM_BOUND, AVG_BOUND,
       AGG_NOGROUP, CHAIN2, CHAIN3, CHAIN4, LEFT_NULL, LEFT_ON, UNION_DUP, EXCEPT_NULL, CASE_GROUP, LIMIT_AGG, CORR_COUNT, CORR_DUP, EQ_CHECK,
       EQ_INTEGER, EQ_FLOAT, EQ_HAVING, EQ_LEFT, EQ_UNION, EQ_CASE, EQ_EXISTS, NCLASSES };
static const char *class_names[NCLASSES] = {
    "dup_join", "dup_filter", "tie_lt", "tie_text", "boundary", "arith", "arith_betw", "negative", "zero", "coincide",
    "coinc_text", "empty", "null", "having", "gold_rows", "rows_like", "group4", "group5", "group6", "sum_bound",
    "avg_bound", "agg_nogrp", "chain2", "chain3", "chain4", "left_null", "left_on", "union_dup", "except_nul", "case_group", "limit_agg",
    "corr_count", "corr_dup", "eq_check", "eq_integer", "eq_float", "eq_having", "eq_left", "eq_union", "eq_case",
    "eq_exists"};
static const int equivalent[NCLASSES] = {[EQ_CHECK] = 1, [EQ_INTEGER] = 1, [EQ_FLOAT] = 1, [EQ_HAVING] = 1,
                                         [EQ_LEFT] = 1,  [EQ_UNION] = 1,   [EQ_CASE] = 1,  [EQ_EXISTS] = 1};

typedef struct pair {
  int cls, declaring; /* the class; made on the declaring copy (INTEGER, CHECK) */
  const sqlsim_schema *s;
  char *gold, *pred;
} pair;

typedef struct tally {
  int n, refuted, no_verdict, needs_null, witnesses, load, dropped, by_solver, bounded;
  double secs, solver_s;
} tally;

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static pair *pairs;
static int npairs, cap;

static void add(int cls, int declaring, const sqlsim_schema *s, char *gold, char *pred) {
  if (npairs == cap) pairs = realloc(pairs, sizeof *pairs * (size_t)(cap = cap ? 2 * cap : 1024));
  pairs[npairs++] = (pair){cls, declaring, s, gold, pred};
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  char *s = NULL;
  if (vasprintf(&s, f, ap) < 0) s = NULL;
  va_end(ap);
  return s;
}

/* A name quoted for SQL (static buffers, sixteen in turn). */
static const char *q(const char *name) {
  static char buf[16][256];
  static int k;
  char *b = buf[k++ % 16];
  size_t o = 0;
  b[o++] = '"';
  for (const char *p = name; *p && o < sizeof buf[0] - 3; p++) {
    if (*p == '"') b[o++] = '"';
    b[o++] = *p;
  }
  b[o++] = '"';
  b[o] = 0;
  return b;
}

static int is_fk(const sqlsim_schema *s, int c) {
  for (int k = 0; k < s->nfkeys; k++)
    if (s->fkeys[k].column == c || s->fkeys[k].ref_column == c) return 1;
  return 0;
}

/* A number column no key holds. */
static int plain_number(const sqlsim_schema *s, int c) {
  const sqlsim_column *x = &s->columns[c];
  return x->numeric && !x->pk && !x->unique && !is_fk(s, c) && strcmp(x->name, "*");
}

static int single_pk(const sqlsim_schema *s, int t) {
  int pk = -1, n = 0;
  for (int i = 0; i < s->tables[t].ncolumns; i++)
    if (s->columns[s->tables[t].first_column + i].pk) pk = s->tables[t].first_column + i, n++;
  return n == 1 ? pk : -1;
}

/* Chains of foreign keys: table t0 -> t1 -> .. (each link a child's key to
 * its parent's single-column primary key), joined, grouped by the last
 * table's key: a group of exactly n rows through the joins. */
static void chain_pairs(const sqlsim_schema *s, int declaring, int *count, int per) {
  for (int f0 = 0; f0 < s->nfkeys; f0++) {
    if (s->columns[s->fkeys[f0].column].pk || s->columns[s->fkeys[f0].column].unique)
      continue; /* the first child's key repeats: many rows to one parent (else no group grows) */
    int link[4], nl = 0, t = s->columns[s->fkeys[f0].column].table;
    int seen[8] = {t}, nseen = 1;
    for (int f = f0; f >= 0 && nl < 4;) {
      int ct = s->columns[s->fkeys[f].column].table, pt = s->columns[s->fkeys[f].ref_column].table;
      if (single_pk(s, pt) != s->fkeys[f].ref_column) break;
      int dup = 0;
      for (int i = 0; i < nseen; i++) dup |= seen[i] == pt;
      if (dup || ct != seen[nseen - 1]) break;
      seen[nseen++] = pt;
      link[nl++] = f;
      int next = -1; /* the parent's own foreign key, if any */
      for (int g = 0; g < s->nfkeys && next < 0; g++)
        if (s->columns[s->fkeys[g].column].table == pt) next = g;
      f = next;
      if (nl >= 2) {
        int cls = CHAIN2 + nl - 2;
        if (count[cls] >= per) continue;
        count[cls]++;
        int n = 3 + (count[cls] + nl) % 4;
        char from[2048];
        int o = snprintf(from, sizeof from, "%s AS T0", q(s->tables[seen[0]].name));
        for (int i = 0; i < nl; i++)
          o += snprintf(from + o, sizeof from - (size_t)o, " JOIN %s AS T%d ON T%d.%s = T%d.%s",
                        q(s->tables[seen[i + 1]].name), i + 1, i, q(s->columns[s->fkeys[link[i]].column].name), i + 1,
                        q(s->columns[s->fkeys[link[i]].ref_column].name));
        const char *key = q(s->columns[s->fkeys[link[nl - 1]].ref_column].name);
        add(cls, declaring, s, fmt("SELECT T%d.%s FROM %s GROUP BY T%d.%s HAVING count(*) > %d", nl, key, from, nl, key, n - 1),
            fmt("SELECT T%d.%s FROM %s GROUP BY T%d.%s HAVING count(*) > %d", nl, key, from, nl, key, n));
      }
    }
  }
}

/* The pairs of one schema: at most `per` of each class. */
static void make_pairs(const sqlsim_schema *s, int declaring, int per) {
  int count[NCLASSES] = {0};
#define ROOM(c) (count[c] < per && ++count[c])
  for (int t = 0; t < s->ntables; t++) {
    const char *T = s->tables[t].name;
    if (!strncmp(s->tables[t].key, "sqlite_", 7)) continue;
    int first = s->tables[t].first_column, nc = s->tables[t].ncolumns, pk = single_pk(s, t);
    for (int i = 0; i < nc; i++) {
      int c = first + i;
      const char *n = s->columns[c].name;
      if (!plain_number(s, c)) continue;
      if (pk >= 0 && ROOM(TIE_LT))
        add(TIE_LT, declaring, s,
            fmt("SELECT count(*) FROM %s AS a JOIN %s AS b ON a.%s <> b.%s WHERE a.%s < b.%s", q(T), q(T),
                q(s->columns[pk].name), q(s->columns[pk].name), q(n), q(n)),
            fmt("SELECT count(*) FROM %s AS a JOIN %s AS b ON a.%s <> b.%s WHERE a.%s <= b.%s", q(T), q(T),
                q(s->columns[pk].name), q(s->columns[pk].name), q(n), q(n)));
      if (ROOM(BOUNDARY))
        add(BOUNDARY, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s > 10", q(T), q(n)),
            fmt("SELECT count(*) FROM %s WHERE %s >= 10", q(T), q(n)));
      int real = s->columns[c].type && strcasestr(s->columns[c].type, "real"); /* x / 60 divides as reals: no bucket */
      if (!real && ROOM(ARITH))
        add(ARITH, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s / 60 <= 5", q(T), q(n)),
            fmt("SELECT count(*) FROM %s WHERE %s <= 300", q(T), q(n)));
      if (ROOM(declaring ? EQ_CHECK : NEGATIVE)) {
        if (declaring)
          add(EQ_CHECK, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s >= 0", q(T), q(n)),
              fmt("SELECT count(%s) FROM %s", q(n), q(T)));
        else
          add(NEGATIVE, declaring, s, fmt("SELECT sum(%s) FROM %s", q(n), q(T)),
              fmt("SELECT sum(abs(%s)) FROM %s", q(n), q(T)));
      }
      if (ROOM(ZERO))
        add(ZERO, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s <> 0", q(T), q(n)),
            fmt("SELECT count(%s) FROM %s", q(n), q(T)));
      if (ROOM(EMPTY))
        add(EMPTY, declaring, s, fmt("SELECT max(%s) FROM %s", q(n), q(T)),
            fmt("SELECT %s FROM %s ORDER BY %s DESC LIMIT 1", q(n), q(T), q(n)));
      if (ROOM(NULLS))
        add(NULLS, declaring, s, fmt("SELECT count(*) FROM %s", q(T)), fmt("SELECT count(%s) FROM %s", q(n), q(T)));
      if (declaring && s->columns[c].type && strcasestr(s->columns[c].type, "int") && ROOM(EQ_INTEGER))
        add(EQ_INTEGER, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s > 3", q(T), q(n)),
            fmt("SELECT count(*) FROM %s WHERE %s >= 4", q(T), q(n)));
      if (!declaring && ROOM(EQ_FLOAT))
        add(EQ_FLOAT, declaring, s, fmt("SELECT sum(%s) FROM %s", q(n), q(T)),
            fmt("SELECT sum(x) FROM (SELECT %s AS x FROM %s ORDER BY %s DESC)", q(n), q(T), q(n)));
      for (int j = i + 1; j < nc; j++)
        if (plain_number(s, first + j) && ROOM(COINCIDE))
          add(COINCIDE, declaring, s,
              fmt("SELECT count(*) FROM %s WHERE %s < %s", q(T), q(n), q(s->columns[first + j].name)),
              fmt("SELECT count(*) FROM %s WHERE %s <= %s", q(T), q(n), q(s->columns[first + j].name)));
    }
  }
  for (int t = 0; t < s->ntables; t++) { /* text columns */
    const char *T = s->tables[t].name;
    int first = s->tables[t].first_column, nc = s->tables[t].ncolumns, pk = single_pk(s, t);
    for (int i = 0; i < nc; i++) {
      int c = first + i;
      const sqlsim_column *x = &s->columns[c];
      if (x->numeric || x->pk || x->unique || is_fk(s, c) || !strcmp(x->name, "*")) continue;
      if (pk >= 0 && ROOM(TIE_TEXT))
        add(TIE_TEXT, declaring, s,
            fmt("SELECT count(*) FROM %s AS a JOIN %s AS b ON a.%s <> b.%s WHERE a.%s < b.%s", q(T), q(T),
                q(s->columns[pk].name), q(s->columns[pk].name), q(x->name), q(x->name)),
            fmt("SELECT count(*) FROM %s AS a JOIN %s AS b ON a.%s <> b.%s WHERE a.%s <= b.%s", q(T), q(T),
                q(s->columns[pk].name), q(s->columns[pk].name), q(x->name), q(x->name)));
      for (int j = i + 1; j < nc; j++) {
        const sqlsim_column *y = &s->columns[first + j];
        if (y->numeric || y->pk || y->unique || is_fk(s, first + j) || !ROOM(COINCIDE_TEXT)) continue;
        add(COINCIDE_TEXT, declaring, s, fmt("SELECT count(*) FROM %s WHERE %s < %s", q(T), q(x->name), q(y->name)),
            fmt("SELECT count(*) FROM %s WHERE %s <= %s", q(T), q(x->name), q(y->name)));
      }
    }
    for (int i = 0; i < nc; i++)
      if (plain_number(s, first + i) && !(s->columns[first + i].type && strcasestr(s->columns[first + i].type, "real")) &&
          ROOM(ARITH_BETWEEN))
        add(ARITH_BETWEEN, declaring, s,
            fmt("SELECT count(*) FROM %s WHERE %s / 60 BETWEEN 0 AND 5", q(T), q(s->columns[first + i].name)),
            fmt("SELECT count(*) FROM %s WHERE %s BETWEEN 0 AND 300", q(T), q(s->columns[first + i].name)));
  }
  for (int k = 0; k < s->nfkeys; k++) { /* child C.f -> parent P.key */
    int f = s->fkeys[k].column, key = s->fkeys[k].ref_column;
    int ct = s->columns[f].table, pt = s->columns[key].table;
    if (ct == pt || !s->columns[key].pk || single_pk(s, pt) != key || s->columns[f].unique || s->columns[f].pk)
      continue; /* a child key that is unique: one child a parent, the IN and the JOIN agree */
    const char *C = s->tables[ct].name, *P = s->tables[pt].name;
    int pv = -1, pn = -1, cn = -1;
    for (int i = 0; i < s->tables[pt].ncolumns; i++) {
      int c = s->tables[pt].first_column + i;
      if (c != key && pv < 0) pv = c;
      if (plain_number(s, c) && pn < 0) pn = c;
    }
    for (int i = 0; i < s->tables[ct].ncolumns; i++)
      if (plain_number(s, s->tables[ct].first_column + i) && cn < 0) cn = s->tables[ct].first_column + i;
    if (pv >= 0 && ROOM(DUP_JOIN)) {
      char *g = fmt("SELECT %s FROM %s WHERE %s IN (SELECT %s FROM %s)", q(s->columns[pv].name), q(P),
                    q(s->columns[key].name), q(s->columns[f].name), q(C));
      add(DUP_JOIN, declaring, s, g,
          fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s", q(s->columns[pv].name), q(P), q(C),
              q(s->columns[key].name), q(s->columns[f].name)));
    }
    if (cn >= 0 && ROOM(DUP_FILTER))
      add(DUP_FILTER, declaring, s,
          fmt("SELECT count(*) FROM %s WHERE %s IN (SELECT %s FROM %s WHERE %s > 5)", q(P), q(s->columns[key].name),
              q(s->columns[f].name), q(C), q(s->columns[cn].name)),
          fmt("SELECT count(*) FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s WHERE T2.%s > 5", q(P), q(C),
              q(s->columns[key].name), q(s->columns[f].name), q(s->columns[cn].name)));
    for (int n = 4; n <= 6; n++)
      if (ROOM(GROUP4 + n - 4))
        add(GROUP4 + n - 4, declaring, s,
            fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s HAVING count(*) > %d",
                q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
                q(s->columns[key].name), n - 1),
            fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s HAVING count(*) > %d",
                q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
                q(s->columns[key].name), n));
    if (cn >= 0 && ROOM(SUM_BOUND))
      add(SUM_BOUND, declaring, s,
          fmt("SELECT %s FROM %s GROUP BY %s HAVING sum(%s) > 100 AND max(%s) < 75", q(s->columns[f].name), q(C),
              q(s->columns[f].name), q(s->columns[cn].name), q(s->columns[cn].name)),
          fmt("SELECT %s FROM %s GROUP BY %s HAVING sum(%s) >= 100 AND max(%s) < 75", q(s->columns[f].name), q(C),
              q(s->columns[f].name), q(s->columns[cn].name), q(s->columns[cn].name)));
    if (cn >= 0 && ROOM(AVG_BOUND))
      add(AVG_BOUND, declaring, s,
          fmt("SELECT %s FROM %s GROUP BY %s HAVING avg(%s) > 30 AND count(*) = 3", q(s->columns[f].name), q(C),
              q(s->columns[f].name), q(s->columns[cn].name)),
          fmt("SELECT %s FROM %s GROUP BY %s HAVING avg(%s) >= 30 AND count(*) = 3", q(s->columns[f].name), q(C),
              q(s->columns[f].name), q(s->columns[cn].name)));
    if (ROOM(AGG_NOGROUP))
      add(AGG_NOGROUP, declaring, s, fmt("SELECT count(*) FROM %s HAVING count(*) = 4", q(C)),
          fmt("SELECT count(*) FROM %s HAVING count(*) >= 4", q(C)));
    if (ROOM(EQ_HAVING))
      add(EQ_HAVING, declaring, s,
          fmt("SELECT %s FROM %s GROUP BY %s HAVING count(*) >= 3", q(s->columns[f].name), q(C), q(s->columns[f].name)),
          fmt("SELECT %s FROM %s GROUP BY %s HAVING NOT count(*) < 3", q(s->columns[f].name), q(C),
              q(s->columns[f].name)));
    if (ROOM(HAVING))
      add(HAVING, declaring, s,
          fmt("SELECT %s FROM %s GROUP BY %s HAVING count(*) > 3", q(s->columns[f].name), q(C), q(s->columns[f].name)),
          fmt("SELECT %s FROM %s GROUP BY %s HAVING count(*) >= 3", q(s->columns[f].name), q(C),
              q(s->columns[f].name)));
    { /* the solver's wider subset: outer joins, set operations, CASE, LIMIT, correlated subqueries */
      char K[256], F[256], N[256]; /* copies: q()'s buffers are reused */
      snprintf(K, sizeof K, "%s", q(s->columns[key].name));
      snprintf(F, sizeof F, "%s", q(s->columns[f].name));
      if (ROOM(LEFT_NULL))
        add(LEFT_NULL, declaring, s,
            fmt("SELECT T1.%s, count(T2.%s) FROM %s AS T1 LEFT JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s", K, F,
                q(P), q(C), K, F, K),
            fmt("SELECT T1.%s, count(*) FROM %s AS T1 LEFT JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s", K, q(P),
                q(C), K, F, K));
      if (ROOM(EQ_LEFT))
        add(EQ_LEFT, declaring, s,
            fmt("SELECT T1.%s FROM %s AS T1 LEFT JOIN %s AS T2 ON T1.%s = T2.%s WHERE T2.%s IS NOT NULL", K, q(P),
                q(C), K, F, F),
            fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s", K, q(P), q(C), K, F));
      if (ROOM(EXCEPT_NULL))
        add(EXCEPT_NULL, declaring, s, fmt("SELECT %s FROM %s EXCEPT SELECT %s FROM %s", K, q(P), F, q(C)),
            fmt("SELECT %s FROM %s WHERE %s NOT IN (SELECT %s FROM %s)", K, q(P), K, F, q(C)));
      if (pv >= 0 && ROOM(CORR_DUP))
        add(CORR_DUP, declaring, s,
            fmt("SELECT T1.%s FROM %s AS T1 WHERE EXISTS (SELECT 1 FROM %s AS T2 WHERE T2.%s = T1.%s)",
                q(s->columns[pv].name), q(P), q(C), F, K),
            fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s", q(s->columns[pv].name), q(P), q(C), K, F));
      if (ROOM(CORR_COUNT))
        add(CORR_COUNT, declaring, s,
            fmt("SELECT T1.%s FROM %s AS T1 WHERE (SELECT count(*) FROM %s AS T2 WHERE T2.%s = T1.%s) > 2", K, q(P),
                q(C), F, K),
            fmt("SELECT T1.%s FROM %s AS T1 WHERE (SELECT count(*) FROM %s AS T2 WHERE T2.%s = T1.%s) >= 2", K, q(P),
                q(C), F, K));
      if (cn >= 0) {
        snprintf(N, sizeof N, "%s", q(s->columns[cn].name));
        if (ROOM(LEFT_ON))
          add(LEFT_ON, declaring, s,
              fmt("SELECT count(*) FROM %s AS T1 LEFT JOIN %s AS T2 ON T1.%s = T2.%s AND T2.%s > 5", q(P), q(C), K, F,
                  N),
              fmt("SELECT count(*) FROM %s AS T1 LEFT JOIN %s AS T2 ON T1.%s = T2.%s WHERE T2.%s > 5", q(P), q(C), K, F,
                  N));
        if (ROOM(UNION_DUP))
          add(UNION_DUP, declaring, s,
              fmt("SELECT %s FROM %s WHERE %s > 5 UNION SELECT %s FROM %s WHERE %s < 3", F, q(C), N, F, q(C), N),
              fmt("SELECT %s FROM %s WHERE %s > 5 OR %s < 3", F, q(C), N, N));
        if (ROOM(EQ_UNION))
          add(EQ_UNION, declaring, s,
              fmt("SELECT %s FROM %s WHERE %s > 5 UNION SELECT %s FROM %s WHERE %s < 3", F, q(C), N, F, q(C), N),
              fmt("SELECT %s FROM %s WHERE %s > 5 OR %s < 3 GROUP BY %s", F, q(C), N, N, F));
        if (ROOM(CASE_GROUP))
          add(CASE_GROUP, declaring, s,
              fmt("SELECT %s FROM %s GROUP BY %s HAVING sum(CASE WHEN %s > 5 THEN 1 ELSE 0 END) >= 3", F, q(C), F, N),
              fmt("SELECT %s FROM %s GROUP BY %s HAVING sum(CASE WHEN %s > 5 THEN 1 ELSE 0 END) > 3", F, q(C), F, N));
        if (ROOM(EQ_CASE))
          add(EQ_CASE, declaring, s,
              fmt("SELECT %s, sum(CASE WHEN %s > 5 THEN 1 ELSE 0 END) FROM %s GROUP BY %s", F, N, q(C), F),
              fmt("SELECT %s, count(CASE WHEN %s > 5 THEN 1 END) FROM %s GROUP BY %s", F, N, q(C), F));
        if (ROOM(LIMIT_AGG))
          add(LIMIT_AGG, declaring, s,
              fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s ORDER BY count(*) DESC "
                  "LIMIT 1",
                  K, q(P), q(C), K, F, K),
              fmt("SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s GROUP BY T1.%s ORDER BY sum(T2.%s) DESC "
                  "LIMIT 1",
                  K, q(P), q(C), K, F, K, N));
        if (pv >= 0 && ROOM(EQ_EXISTS))
          add(EQ_EXISTS, declaring, s,
              fmt("SELECT T1.%s FROM %s AS T1 WHERE EXISTS (SELECT 1 FROM %s AS T2 WHERE T2.%s = T1.%s AND T2.%s > 5)",
                  q(s->columns[pv].name), q(P), q(C), F, K, N),
              fmt("SELECT %s FROM %s WHERE %s IN (SELECT %s FROM %s WHERE %s > 5)", q(s->columns[pv].name), q(P), K, F,
                  q(C), N));
      }
    }
    int pt_text = -1;
    for (int i = 0; i < s->tables[pt].ncolumns; i++) {
      const sqlsim_column *x = &s->columns[s->tables[pt].first_column + i];
      if (!x->numeric && !x->pk && !is_fk(s, s->tables[pt].first_column + i) && pt_text < 0)
        pt_text = s->tables[pt].first_column + i;
    }
    if (pt_text >= 0 && cn >= 0 && ROOM(GOLD_ROWS_LIKE)) {
      const char *fmtq = "SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s WHERE T1.%s LIKE '%%ab%%' AND T2.%s = %d";
      add(GOLD_ROWS_LIKE, declaring, s,
          fmt(fmtq, q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
              q(s->columns[pt_text].name), q(s->columns[cn].name), 8),
          fmt(fmtq, q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
              q(s->columns[pt_text].name), q(s->columns[cn].name), 9));
    }
    if (pn >= 0 && cn >= 0 && ROOM(GOLD_ROWS)) {
      const char *fmtq = "SELECT T1.%s FROM %s AS T1 JOIN %s AS T2 ON T1.%s = T2.%s WHERE T1.%s = 7 AND T2.%s = %d";
      add(GOLD_ROWS, declaring, s,
          fmt(fmtq, q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
              q(s->columns[pn].name), q(s->columns[cn].name), 8),
          fmt(fmtq, q(s->columns[key].name), q(P), q(C), q(s->columns[key].name), q(s->columns[f].name),
              q(s->columns[pn].name), q(s->columns[cn].name), 9));
    }
  }
#undef ROOM
  chain_pairs(s, declaring, count, per);
}

/* The declaring copy of schema s as a SQLite file in dir: number columns
 * INTEGER (REAL where tables.json says real), CHECK (col >= 0) on each number
 * column no key holds, keys as declared. */
static char *declaring_copy(const sqlsim_schema *s, const char *dir) {
  char *path = fmt("%s/%s.sqlite", dir, s->db_id);
  sqlite3 *db;
  if (sqlite3_open(path, &db) != SQLITE_OK) return NULL;
  char *ddl = sqlsim_schema_ddl(s);
  /* the schema's DDL, its types replaced, a CHECK added per table */
  int rc = SQLITE_OK;
  for (int t = 0; t < s->ntables && rc == SQLITE_OK; t++) {
    const sqlsim_table *tab = &s->tables[t];
    if (!strncmp(tab->key, "sqlite_", 7)) continue;
    char *sql = fmt("CREATE TABLE %s (", q(tab->name));
    for (int i = 0; i < tab->ncolumns; i++) {
      const sqlsim_column *c = &s->columns[tab->first_column + i];
      const char *type = !c->numeric ? "TEXT" : c->type && strcasestr(c->type, "real") ? "REAL" : "INTEGER";
      char *next = fmt("%s%s%s %s", sql, i ? ", " : "", q(c->name), type);
      free(sql);
      sql = next;
    }
    int npk = 0;
    for (int i = 0; i < tab->ncolumns; i++) npk += s->columns[tab->first_column + i].pk;
    if (npk) {
      char *next = fmt("%s, PRIMARY KEY (", sql);
      free(sql);
      sql = next;
      for (int i = 0, k = 0; i < tab->ncolumns; i++)
        if (s->columns[tab->first_column + i].pk) {
          next = fmt("%s%s%s", sql, k++ ? ", " : "", q(s->columns[tab->first_column + i].name));
          free(sql);
          sql = next;
        }
      next = fmt("%s)", sql);
      free(sql);
      sql = next;
    }
    for (int k = 0; k < s->nfkeys; k++) {
      const sqlsim_column *from = &s->columns[s->fkeys[k].column], *to = &s->columns[s->fkeys[k].ref_column];
      if (from->table != t) continue;
      char *next = fmt("%s, FOREIGN KEY (%s) REFERENCES %s (%s)", sql, q(from->name), q(s->tables[to->table].name),
                       q(to->name));
      free(sql);
      sql = next;
    }
    for (int i = 0; i < tab->ncolumns; i++)
      if (plain_number(s, tab->first_column + i)) {
        char *next = fmt("%s, CHECK (%s >= 0)", sql, q(s->columns[tab->first_column + i].name));
        free(sql);
        sql = next;
      }
    char *next = fmt("%s)", sql);
    free(sql);
    sql = next;
    rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    free(sql);
  }
  free(ddl);
  sqlite3_close(db);
  if (rc != SQLITE_OK) {
    unlink(path);
    free(path);
    return NULL;
  }
  return path;
}

/* The witness's own text loads into a fresh SQLite with foreign keys
 * enforced (its CREATE TABLE carries the schema's keys and CHECKs). */
static int loads(const sqlsim_witness *w) {
  sqlite3 *db;
  if (!w->database || sqlite3_open(":memory:", &db) != SQLITE_OK) return 0;
  int ok = sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) == SQLITE_OK &&
           sqlite3_exec(db, w->database, NULL, NULL, NULL) == SQLITE_OK;
  sqlite3_close(db);
  return ok;
}

int main(int argc, char **argv) {
  int per = 3, max = 10000;
  const char *files[8];
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--per") && i + 1 < argc) per = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = atoi(argv[++i]);
    else if (nfiles < 8) files[nfiles++] = argv[i];
  }
  if (!nfiles) {
    fprintf(stderr, "usage: bench_strict [--max N] [--per K] TABLES.json...\n");
    return 2;
  }
  char dir[] = "/tmp/bench_strict_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  sqlsim_catalog *cats[64];
  int ncats = 0;
  for (int f = 0; f < nfiles; f++) {
    sqlsim_catalog *c;
    sqlsim_error err = {0};
    if (sqlsim_catalog_load_tables_json(files[f], &c, &err)) {
      fprintf(stderr, "%s: %s\n", files[f], err.message);
      return 1;
    }
    cats[ncats++] = c;
  }
  /* every schema as it is, then its declaring copy */
  int nschemas = 0;
  sqlsim_catalog **copies = calloc(4096, sizeof *copies);
  int ncopies = 0;
  for (int f = 0; f < nfiles; f++)
    for (int i = 0; i < sqlsim_catalog_count(cats[f]); i++) {
      const sqlsim_schema *s = sqlsim_catalog_at(cats[f], i);
      make_pairs(s, 0, per);
      nschemas++;
      char *path = declaring_copy(s, dir);
      sqlsim_catalog *c = NULL;
      if (path && ncopies < 4096 && !sqlsim_catalog_load_sqlite(path, &c, NULL)) {
        copies[ncopies++] = c;
        make_pairs(sqlsim_catalog_at(c, 0), 1, per);
      }
      if (path) unlink(path);
      free(path);
    }
  rmdir(dir);
  /* the pairs in a fixed interleaved order, at most max */
  if (npairs > max) {
    pair *keep = malloc(sizeof *keep * (size_t)max);
    for (int i = 0; i < max; i++) keep[i] = pairs[(long)i * npairs / max];
    for (int i = 0, k = 0; i < npairs; i++) { /* free the others */
      if (k < max && (long)k * npairs / max == i) {
        k++;
        continue;
      }
      free(pairs[i].gold);
      free(pairs[i].pred);
    }
    free(pairs);
    pairs = keep;
    npairs = max;
  }
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .no_solver = getenv("BENCH_STRICT_NO_SOLVER") != NULL};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  double *times = calloc((size_t)npairs + 1, sizeof *times), *ref_times = calloc((size_t)npairs + 1, sizeof *ref_times);
  int nref_times = 0;
  tally tal[NCLASSES][2];
  memset(tal, 0, sizeof tal);
  double t0 = now();
  for (int i = 0; i < npairs; i++) {
    pair *p = &pairs[i];
    tally *t = &tal[p->cls][p->declaring];
    sqlsim_synth out;
    double a = now();
    int rc = sqlsim_synth_pair(x, p->s, p->gold, p->pred, &out, NULL);
    t->secs += now() - a;
    times[i] = now() - a;
    t->n++;
    if (rc) {
      t->no_verdict++;
      if (getenv("BENCH_STRICT_SHOW")) fprintf(stderr, "error: %s | %s\n", p->gold, p->pred);
      continue;
    }
    const char *show = getenv("BENCH_STRICT_SHOW"); /* a class: its pairs without a refutation, printed */
    static int shown;
    int eqc = equivalent[p->cls] || (p->cls == NEGATIVE && p->declaring);
    if (show && !strcmp(show, class_names[p->cls]) && (eqc ? out.strict == 0 : out.strict != 0) && shown++ < 8)
      fprintf(stderr, "%s | %s | %s\n  strict %d: %s\n%s\n", p->s->db_id, p->gold, p->pred, out.strict, out.strict_why,
              out.witness ? out.witness->database : "");
    if (out.strict == 0 && !out.witness && getenv("BENCH_STRICT_SHOW") && !strcmp(getenv("BENCH_STRICT_SHOW"), "nowit"))
      fprintf(stderr, "no witness: %s | %s | %s\n  %s\n", p->s->db_id, p->gold, p->pred, out.strict_why);
    t->refuted += out.strict == 0;
    t->no_verdict += out.strict < 0;
    t->by_solver += out.by_solver;
    t->bounded += out.bound > 0;
    t->solver_s += out.solver_s;
    if (out.by_solver) ref_times[nref_times++] = out.solver_s;
    t->needs_null += out.strict == 0 && out.needs_null == 1;
    t->dropped += out.dropped;
    if (out.witness) {
      t->witnesses++;
      int ok = loads(out.witness);
      t->load += ok;
      if (!ok && getenv("BENCH_STRICT_SHOW") && !strcmp(getenv("BENCH_STRICT_SHOW"), "load"))
        fprintf(stderr, "does not load: %s | %s\n%s\n", p->gold, p->pred, out.witness->database);
    }
    sqlsim_witness_free(out.witness);
  }
  double total = now() - t0;
  printf("%d pairs from %d schemas (and their declaring copies: INTEGER, CHECK (n >= 0)); strict with witnesses, "
         "Spider's semantics, one thread\n\n",
         npairs, nschemas);
  printf("%-11s %-9s %6s %9s %10s %8s %11s %10s %14s %8s %8s %8s\n", "class", "schema", "pairs", "refuted",
         "by solver", "bounded", "no verdict", "need NULL", "witness loads", "dropped", "pairs/s", "solver");
  int all = 0, all_wit = 0, all_load = 0, false_ref = 0, eq_n = 0;
  for (int c = 0; c < NCLASSES; c++)
    for (int d = 0; d < 2; d++) {
      tally *t = &tal[c][d];
      if (!t->n) continue;
      int eq = equivalent[c] || (c == NEGATIVE && d);
      printf("%-11s %-9s %6d %8.1f%% %9.1f%% %7.1f%% %10.1f%% %9.1f%% %8d/%-5d %8d %8.0f %7.0f%%%s\n", class_names[c],
             d ? "declared" : "as given", t->n, 100.0 * t->refuted / t->n, 100.0 * t->by_solver / t->n,
             100.0 * t->bounded / t->n, 100.0 * t->no_verdict / t->n,
             t->refuted ? 100.0 * t->needs_null / t->refuted : 0.0, t->load, t->witnesses, t->dropped,
             t->secs > 0 ? t->n / t->secs : 0, t->secs > 0 ? 100 * t->solver_s / t->secs : 0,
             eq ? "   (equivalent: must be 0% refuted)" : "");
      all += t->n;
      all_wit += t->witnesses;
      all_load += t->load;
      if (eq) false_ref += t->refuted, eq_n += t->n;
    }
  int wrong = 0, ref = 0;
  for (int c = 0; c < NCLASSES; c++)
    for (int d = 0; d < 2; d++)
      if (!(equivalent[c] || (c == NEGATIVE && d))) wrong += tal[c][d].n, ref += tal[c][d].refuted;
  printf("\nwrong pairs refuted: %d of %d (%.1f%%); equivalent pairs refuted: %d of %d; witnesses loading with "
         "constraints: %d of %d; %.0f pairs/s over all\n",
         ref, wrong, wrong ? 100.0 * ref / wrong : 0, false_ref, eq_n, all_load, all_wit, all / total);
  qsort(times, (size_t)npairs, sizeof *times, cmp_double);
  qsort(ref_times, (size_t)nref_times, sizeof *ref_times, cmp_double);
  double sum = 0, solver = 0;
  for (int i = 0; i < npairs; i++) sum += times[i];
  for (int c = 0; c < NCLASSES; c++) solver += tal[c][0].solver_s + tal[c][1].solver_s;
  printf("time a pair: mean %.1f ms, p99 %.1f ms; the solver's share %.0f%%; its refutations: %d, median %.1f ms\n",
         npairs ? 1000 * sum / npairs : 0, npairs ? 1000 * times[(int)(npairs * 0.99)] : 0, sum > 0 ? 100 * solver / sum : 0,
         nref_times, nref_times ? 1000 * ref_times[nref_times / 2] : 0);
  free(times);
  free(ref_times);
  sqlsim_synth_runner_free(x);
  for (int i = 0; i < npairs; i++) free(pairs[i].gold), free(pairs[i].pred);
  free(pairs);
  for (int i = 0; i < ncopies; i++) sqlsim_catalog_free(copies[i]);
  free(copies);
  for (int f = 0; f < ncats; f++) sqlsim_catalog_free(cats[f]);
  return 0;
}
