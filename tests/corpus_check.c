/* corpus_check.c -- the parser held to SQLite itself, over real corpus files.
 *
 * For every query of the given files:
 *  - SQLite prepares it against its database (the real one from --db-dir if
 *    there is one, else an empty database made from the schema). A query
 *    SQLite accepts must parse here: one that does not is a MISS.
 *  - With a real database, the query and the SQL printed from its normalized
 *    tree both run; their rows must agree (as a multiset; in order when the
 *    query has a top-level ORDER BY, ties aside). A difference is a ROUNDTRIP
 *    failure.
 * Prints one summary line per file and every failure; exits 1 if any.
 *
 * usage: corpus_check (--tables FILE | --sqlite FILE) [--db-dir DIR] [--gold FILE]
 *                     [--quiet] [--no-unresolved] FILE...
 * --no-unresolved also fails on a query SQLite accepts with a name left
 * unresolved here (for gold files, whose every name must resolve).
 * Each FILE is a gold or prediction file in any format sqlsim reads; queries
 * without their own db_id take the --gold item's at the same position. */
#include "sqlsim.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct dbconn {
  char db_id[256];
  sqlite3 *db;
  int real;
  struct dbconn *next;
} dbconn;

static dbconn *conns;
static const char *db_dir;
static sqlsim_catalog *catalog;
static int sqlite_mode;
static const char *sqlite_path;

static sqlite3 *get_db(const char *db_id, int *real) {
  for (dbconn *c = conns; c; c = c->next)
    if (!strcmp(c->db_id, db_id)) {
      *real = c->real;
      return c->db;
    }
  dbconn *c = calloc(1, sizeof *c);
  snprintf(c->db_id, sizeof c->db_id, "%s", db_id);
  char path[1024];
  if (sqlite_mode) {
    snprintf(path, sizeof path, "%s", sqlite_path);
  } else if (db_dir) {
    snprintf(path, sizeof path, "%s/%s/%s.sqlite", db_dir, db_id, db_id);
  } else {
    path[0] = '\0';
  }
  if (path[0] && access(path, R_OK) == 0 &&
      sqlite3_open_v2(path, &c->db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
    c->real = 1;
  } else {
    if (c->db) sqlite3_close(c->db);
    c->db = NULL;
    const sqlsim_schema *s = sqlsim_catalog_find(catalog, db_id);
    sqlsim_error err = {0};
    void *db = NULL;
    if (s && sqlsim_schema_create_sqlite(s, ":memory:", &db, &err) == 0) c->db = db;
  }
  c->next = conns;
  conns = c;
  *real = c->real;
  return c->db;
}

static double deadline;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int progress(void *p) {
  (void)p;
  return now() > deadline;
}

/* Prepares sql: SQLITE_OK if it is one statement SQLite accepts. */
static int prepares(sqlite3 *db, const char *sql, char *why, size_t wn) {
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
  if (rc != SQLITE_OK) {
    snprintf(why, wn, "%s", sqlite3_errmsg(db));
  } else if (!st) {
    rc = SQLITE_ERROR;
    snprintf(why, wn, "empty");
  } else {
    while (tail && *tail && strchr(" \t\r\n;", *tail)) tail++;
    if (tail && *tail) {
      rc = SQLITE_ERROR;
      snprintf(why, wn, "more than one statement");
    }
  }
  sqlite3_finalize(st);
  return rc;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

typedef struct rows {
  uint64_t *h;
  int n, cap;
} rows;

/* Runs sql to completion (10 s at most), hashing each row. 0 or -1. */
static int run(sqlite3 *db, const char *sql, rows *r) {
  sqlite3_stmt *st = NULL;
  r->n = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) return -1;
  deadline = now() + 10;
  sqlite3_progress_handler(db, 10000, progress, NULL);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    uint64_t h = 14695981039346656037ull;
    int nc = sqlite3_column_count(st);
    for (int i = 0; i < nc; i++) {
      int t = sqlite3_column_type(st, i);
      h = fnv(h, &t, sizeof t);
      if (t == SQLITE_INTEGER) {
        sqlite3_int64 v = sqlite3_column_int64(st, i);
        h = fnv(h, &v, sizeof v);
      } else if (t == SQLITE_FLOAT) {
        double v = sqlite3_column_double(st, i);
        h = fnv(h, &v, sizeof v);
      } else if (t != SQLITE_NULL) {
        const void *b = sqlite3_column_blob(st, i);
        h = fnv(h, b, (size_t)sqlite3_column_bytes(st, i));
      }
    }
    if (r->n == r->cap) r->h = realloc(r->h, sizeof *r->h * (size_t)(r->cap = r->cap ? r->cap * 2 : 64));
    r->h[r->n++] = h;
  }
  sqlite3_progress_handler(db, 0, NULL, NULL);
  sqlite3_finalize(st);
  return rc == SQLITE_DONE ? 0 : -1;
}

static int collect_unresolved(sqlsim_node *n, sqlsim_node *parent, void *ctx) {
  (void)parent;
  char *buf = ctx;
  if (n->flags & (SQLSIM_F_UNRESOLVED | SQLSIM_F_AMBIGUOUS)) {
    size_t l = strlen(buf);
    snprintf(buf + l, 400 - l, "%s%s%s%s%s", l ? ", " : "", n->alias ? n->alias : "",
             n->alias ? "." : "", n->text ? n->text : "*",
             (n->flags & SQLSIM_F_AMBIGUOUS) ? " (ambiguous)" : "");
  }
  return SQLSIM_WALK_CONTINUE;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* 0 same, 1 same multiset but another order, 2 different. */
static int compare(rows *a, rows *b, int ordered) {
  if (a->n != b->n) return 2;
  int same_seq = a->n == 0 || !memcmp(a->h, b->h, sizeof *a->h * (size_t)a->n);
  if (same_seq) return 0;
  qsort(a->h, (size_t)a->n, sizeof *a->h, cmp_u64);
  qsort(b->h, (size_t)b->n, sizeof *b->h, cmp_u64);
  if (memcmp(a->h, b->h, sizeof *a->h * (size_t)a->n)) return 2;
  return ordered ? 1 : 0;
}

int main(int argc, char **argv) {
  const char *tables = NULL, *gold_path = NULL;
  int quiet = 0, nfiles = 0, strict = 0;
  char **files = calloc((size_t)argc, sizeof *files);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--sqlite") && i + 1 < argc) sqlite_path = argv[++i], sqlite_mode = 1;
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) db_dir = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold_path = argv[++i];
    else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (!strcmp(argv[i], "--no-unresolved")) strict = 1;
    else files[nfiles++] = argv[i];
  }
  sqlsim_error err = {0};
  if ((tables && sqlsim_catalog_load_tables_json(tables, &catalog, &err)) ||
      (sqlite_mode && sqlsim_catalog_load_sqlite(sqlite_path, &catalog, &err)) ||
      (!tables && !sqlite_mode)) {
    fprintf(stderr, "error: %s\n", err.message[0] ? err.message : "need --tables or --sqlite");
    return 2;
  }
  sqlsim_itemset *gold = NULL;
  if (gold_path && sqlsim_items_load(gold_path, &gold, &err)) {
    fprintf(stderr, "error: %s\n", err.message);
    return 2;
  }
  int bad = 0;
  rows ra = {0}, rb = {0};
  for (int f = 0; f < nfiles; f++) {
    sqlsim_itemset *set;
    if (sqlsim_items_load(files[f], &set, &err)) {
      fprintf(stderr, "error: %s\n", err.message);
      return 2;
    }
    int n_ok = 0, n_sqlite_rejects = 0, n_both_reject = 0, n_miss = 0, n_rt = 0, n_rt_fail = 0,
        n_rt_order = 0, n_unresolved = 0;
    for (int i = 0; i < set->n; i++) {
      const sqlsim_item *it = &set->items[i];
      const char *db_id = it->db_id;
      if (!db_id && gold && i < gold->n) db_id = gold->items[i].db_id;
      if (sqlite_mode) db_id = sqlsim_catalog_at(catalog, 0)->db_id;
      if (!db_id) continue;
      const sqlsim_schema *schema = sqlsim_catalog_find(catalog, db_id);
      int real = 0;
      sqlite3 *db = get_db(db_id, &real);
      char why[512] = "";
      int sqlite_ok = db && prepares(db, it->sql, why, sizeof why) == SQLITE_OK;
      sqlsim_query *q = NULL;
      int rc = sqlsim_parse(it->sql, strlen(it->sql), schema, 0, &q, &err);
      if (!sqlite_ok) n_sqlite_rejects++;
      if (rc) {
        if (sqlite_ok) {
          n_miss++;
          printf("MISS %s #%d (%s): sqlsim: %s at %d\n   %s\n", files[f], i, db_id, err.message,
                 err.offset, it->sql);
        } else {
          n_both_reject++;
          if (!quiet)
            printf("REJECTED %s #%d: sqlite: %s | sqlsim: %s\n", files[f], i, why, err.message);
        }
        continue;
      }
      n_ok++;
      if (q->nunresolved && sqlite_ok) {
        char names[400] = "";
        sqlsim_walk(q->root, collect_unresolved, NULL, names);
        n_unresolved++;
        printf("UNRESOLVED %s #%d (%s): SQLite accepts it; sqlsim flags [%s]\n   %s\n", files[f], i,
               db_id, names, it->sql);
      }
      if (!sqlite_ok && !quiet) {
        char names[400] = "";
        sqlsim_walk(q->root, collect_unresolved, NULL, names);
        printf("SQLITE-ONLY-REJECTS %s #%d (%s): sqlite: %s | sqlsim: parsed, %d unresolved%s%s%s\n",
               files[f], i, db_id, why, q->nunresolved, names[0] ? " [" : "", names,
               names[0] ? "]" : "");
      }
      if (sqlite_ok && real) {
        char *printed = sqlsim_print_sql(q->root, 0);
        if (run(db, it->sql, &ra) == 0) {
          n_rt++;
          int ordered = q->root->kids[SQLSIM_SEL_ORDER] != NULL;
          int r = run(db, printed, &rb) ? 2 : compare(&ra, &rb, ordered);
          if (r == 2) {
            n_rt_fail++;
            printf("ROUNDTRIP %s #%d (%s):\n   original: %s\n   printed:  %s\n", files[f], i,
                   db_id, it->sql, printed);
          } else if (r == 1) {
            n_rt_order++;
          }
        }
        free(printed);
      }
      sqlsim_query_free(q);
    }
    printf("%s: %d items, %d parsed, %d rejected by SQLite (%d also here), %d MISSED, "
           "%d with unresolved names; round trip: %d run, %d differ, %d tie order only\n",
           files[f], set->n, n_ok, n_sqlite_rejects, n_both_reject, n_miss, n_unresolved, n_rt,
           n_rt_fail, n_rt_order);
    bad += n_miss + n_rt_fail + (strict ? n_unresolved : 0);
    sqlsim_items_free(set);
  }
  free(ra.h);
  free(rb.h);
  for (dbconn *c = conns; c;) {
    dbconn *nx = c->next;
    sqlite3_close(c->db);
    free(c);
    c = nx;
  }
  sqlsim_items_free(gold);
  sqlsim_catalog_free(catalog);
  free(files);
  return bad ? 1 : 0;
}
