/* gen_minidev.c -- SQLite databases for BIRD's mini-dev made from its
 * schemas alone (the BIRD databases are not here): for each db_id, the
 * databases sqlsim's synthetic execution builds for each gold query of that
 * db_id (sqlsim_synth_dump, K per gold: its literals planted, its joins
 * matched), merged into one database per db_id (a row a key already holds is
 * left out). A column declared a date or a time keeps only ISO dates (others
 * become one, from the row), so a server can type it. The agreement bench
 * (bench/agree_servers.py) loads them into PostgreSQL and MariaDB with
 * sqlsim load and runs mini-dev's own scripts and sqlsim on them.
 *
 * usage: gen_minidev --tables dev_tables.json --gold mini_dev_sqlite.json --out DIR [--per-gold K]
 * writes DIR/<db_id>/<db_id>.sqlite (DIR must not hold them yet). */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sqlsim.h"

static int run(sqlite3 *db, const char *sql) {
  char *e = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &e) != SQLITE_OK) {
    fprintf(stderr, "gen_minidev: %s: %s\n", sql, e ? e : "?");
    sqlite3_free(e);
    return -1;
  }
  return 0;
}

/* Rows of the dump at path merged into db. */
static int merge(sqlite3 *db, const sqlsim_schema *s, const char *path) {
  char *sql = sqlite3_mprintf("ATTACH %Q AS x", path);
  int rc = run(db, sql);
  sqlite3_free(sql);
  if (rc) return rc;
  for (int t = 0; t < s->ntables; t++) {
    sql = sqlite3_mprintf("INSERT OR IGNORE INTO main.\"%w\" SELECT * FROM x.\"%w\"", s->tables[t].name,
                          s->tables[t].name);
    rc |= run(db, sql);
    sqlite3_free(sql);
  }
  return run(db, "DETACH x") | rc;
}

/* Declared dates hold dates: a value that is not one becomes one made from
 * its row's rowid. */
static void fix_dates(sqlite3 *db, const sqlsim_schema *s) {
  for (int c = 0; c < s->ncolumns; c++) {
    const sqlsim_column *col = &s->columns[c];
    int date = !strcasecmp(col->type, "date"), stamp = !strcasecmp(col->type, "datetime");
    if (!date && !stamp) continue;
    const char *t = s->tables[col->table].name;
    char *sql = sqlite3_mprintf(
        "UPDATE \"%w\" SET \"%w\" = %s WHERE \"%w\" IS NOT NULL AND (\"%w\" NOT GLOB "
        "'[12][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]%s' OR date(substr(\"%w\", 1, 10)) IS NULL)",
        t, col->name,
        date ? "date('2010-01-01', '+' || (rowid * 37 % 3000) || ' days')"
             : "datetime('2010-01-01', '+' || (rowid * 37 % 3000) || ' days', '+' || (rowid % 86400) || ' seconds')",
        col->name, col->name, date ? "" : " [0-2][0-9]:[0-5][0-9]:[0-5][0-9]", col->name);
    run(db, sql);
    sqlite3_free(sql);
  }
}

int main(int argc, char **argv) {
  const char *tables = NULL, *gold = NULL, *out = NULL;
  int per = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--tables")) tables = argv[i + 1];
    else if (!strcmp(argv[i], "--gold")) gold = argv[i + 1];
    else if (!strcmp(argv[i], "--out")) out = argv[i + 1];
    else if (!strcmp(argv[i], "--per-gold")) per = atoi(argv[i + 1]);
  }
  if (!tables || !gold || !out || per < 1) {
    fprintf(stderr, "usage: gen_minidev --tables dev_tables.json --gold mini_dev_sqlite.json --out DIR [--per-gold K]\n");
    return 2;
  }
  sqlsim_catalog *cat;
  sqlsim_itemset *items;
  sqlsim_error err = {0};
  if (sqlsim_catalog_load_tables_json(tables, &cat, &err) || sqlsim_items_load(gold, &items, &err)) {
    fprintf(stderr, "gen_minidev: %s\n", err.message);
    return 1;
  }
  mkdir(out, 0755);
  int made = 0, dumps = 0, failed = 0;
  for (int d = 0; d < sqlsim_catalog_count(cat); d++) {
    const sqlsim_schema *s = sqlsim_catalog_at(cat, d);
    int any = 0;
    for (int i = 0; i < items->n; i++) any |= items->items[i].db_id && !strcmp(items->items[i].db_id, s->db_id);
    if (!any) continue;
    char dir[1024], path[1100], tmp[1100];
    snprintf(dir, sizeof dir, "%s/%s", out, s->db_id);
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/%s.sqlite", dir, s->db_id);
    void *h;
    if (sqlsim_schema_create_sqlite(s, path, &h, &err)) {
      fprintf(stderr, "gen_minidev: %s\n", err.message);
      return 1;
    }
    sqlite3_close(h); /* a hardened handle (no ATTACH): the file is ours, opened plainly for the merge */
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) {
      fprintf(stderr, "gen_minidev: %s: cannot be opened\n", path);
      return 1;
    }
    run(db, "PRAGMA foreign_keys = OFF");
    run(db, "PRAGMA synchronous = OFF");
    run(db, "PRAGMA journal_mode = MEMORY");
    for (int i = 0; i < items->n; i++) {
      if (!items->items[i].db_id || strcmp(items->items[i].db_id, s->db_id)) continue;
      for (int k = 0; k < per; k++) {
        snprintf(tmp, sizeof tmp, "%s/.dump-%d-%d.sqlite", out, i, k);
        unlink(tmp);
        sqlsim_synth_opts o = {0};
        if (sqlsim_synth_dump(s, items->items[i].sql, NULL, &o, k, tmp, &err) == 0) {
          failed += merge(db, s, tmp) != 0;
          dumps++;
        } else {
          failed++;
        }
        unlink(tmp);
      }
    }
    fix_dates(db, s);
    sqlite3_close(db);
    made++;
  }
  printf("gen_minidev: %d databases from %d dumps (%d gold dumps failed) in %s\n", made, dumps, failed, out);
  sqlsim_items_free(items);
  sqlsim_catalog_free(cat);
  return 0;
}
