/* gen_bird.c -- seeded generator of BIRD-shaped SQLite databases at scale.
 *
 * Reads the schemas of BIRD's dev_tables.json and writes, for three of its
 * databases, the tables below with millions of rows (scale 1):
 *   codebase_community  users 1M, badges 3M, posts 1M
 *   student_club        member 1M (TEXT primary key), zip_code 40k, attendance 2M
 *   financial           client 1M, disp 1.2M, account 1M, loan 300k, trans 3M
 * Values follow the column: keys sequential; foreign keys drawn with a skew
 * (a few parents own most children) from the parent table's keys; dates as
 * ISO text in BIRD's forms ('YYYY-MM-DD' for date, with a time for
 * datetime); integers skewed so that ties are common (the maxima too); text
 * from small vocabularies (duplicates); NULLs in a few percent of every
 * column that allows them.
 *
 * Two variants: primary keys only (default), or --indexes: a secondary index
 * on every foreign key and date column and a few filtered ones. Never ANALYZE.
 *
 * usage: gen_bird --tables dev_tables.json --out DIR [--scale S] [--seed N] [--indexes]
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct spec {
  const char *db, *table;
  long rows; /* at scale 1 */
} spec;

static const spec specs[] = {
    {"codebase_community", "users", 1000000},  {"codebase_community", "badges", 3000000},
    {"codebase_community", "posts", 1000000},  {"student_club", "zip_code", 40000},
    {"student_club", "member", 1000000},       {"student_club", "attendance", 2000000},
    {"financial", "account", 1000000},         {"financial", "client", 1000000},
    {"financial", "disp", 1200000},            {"financial", "loan", 300000},
    {"financial", "trans", 3000000},
};
enum { NSPECS = sizeof specs / sizeof specs[0] };

/* Filtered columns that get an index in the --indexes variant (besides keys and dates). */
static const char *const indexed_names[] = {"name", "location", "reputation", "gender", "type", "status",
                                            "amount", "state", "position", NULL};

static uint64_t rng;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static double unit(void) { return (double)(next() >> 11) / 9007199254740992.0; }

typedef struct col {
  const char *name, *type; /* type as in dev_tables.json */
  int pk, npk;             /* part of the primary key; how many columns it has */
  int fk_spec;             /* referenced table (index into specs) or -1 */
  const char *fk_col;
} col;

static const cJSON *find_db(const cJSON *all, const char *db) {
  const cJSON *d;
  cJSON_ArrayForEach(d, all) {
    const cJSON *id = cJSON_GetObjectItem(d, "db_id");
    if (cJSON_IsString(id) && !strcmp(id->valuestring, db)) return d;
  }
  return NULL;
}

static int spec_of(const char *db, const char *table) {
  for (int i = 0; i < NSPECS; i++)
    if (!strcmp(specs[i].db, db) && !strcasecmp(specs[i].table, table)) return i;
  return -1;
}

/* The columns of one table, with keys and foreign keys to generated tables. */
static int columns_of(const cJSON *d, const char *table, col *out, int max) {
  const cJSON *tn = cJSON_GetObjectItem(d, "table_names_original"), *cn = cJSON_GetObjectItem(d, "column_names_original"),
              *ct = cJSON_GetObjectItem(d, "column_types"), *pk = cJSON_GetObjectItem(d, "primary_keys"),
              *fk = cJSON_GetObjectItem(d, "foreign_keys");
  int ti = -1, n = 0;
  for (int i = 0; i < cJSON_GetArraySize(tn); i++)
    if (!strcasecmp(cJSON_GetArrayItem(tn, i)->valuestring, table)) ti = i;
  if (ti < 0) return -1;
  const char *db = cJSON_GetObjectItem(d, "db_id")->valuestring;
  for (int c = 0; c < cJSON_GetArraySize(cn) && n < max; c++) {
    const cJSON *e = cJSON_GetArrayItem(cn, c);
    if (cJSON_GetArrayItem(e, 0)->valueint != ti) continue;
    col *k = &out[n++];
    memset(k, 0, sizeof *k);
    k->name = cJSON_GetArrayItem(e, 1)->valuestring;
    k->type = cJSON_GetArrayItem(ct, c)->valuestring;
    k->fk_spec = -1;
    const cJSON *p;
    cJSON_ArrayForEach(p, pk) {
      if (cJSON_IsNumber(p) && p->valueint == c) k->pk = 1, k->npk = 1;
      if (cJSON_IsArray(p)) {
        const cJSON *q;
        cJSON_ArrayForEach(q, p) if (q->valueint == c) k->pk = 1, k->npk = cJSON_GetArraySize(p);
      }
    }
    const cJSON *f;
    cJSON_ArrayForEach(f, fk) {
      if (cJSON_GetArrayItem(f, 0)->valueint != c) continue;
      int rc = cJSON_GetArrayItem(f, 1)->valueint;
      const cJSON *re = cJSON_GetArrayItem(cn, rc);
      const char *rt = cJSON_GetArrayItem(tn, cJSON_GetArrayItem(re, 0)->valueint)->valuestring;
      int s = spec_of(db, rt);
      if (s >= 0 && strcasecmp(rt, table)) {
        k->fk_spec = s;
        k->fk_col = cJSON_GetArrayItem(re, 1)->valuestring;
      }
    }
  }
  return n;
}

static const char *sql_type(const char *t) {
  if (!strcmp(t, "integer")) return "INTEGER";
  if (!strcmp(t, "real")) return "REAL";
  if (!strcmp(t, "date")) return "DATE";
  if (!strcmp(t, "datetime")) return "DATETIME";
  return "TEXT";
}

static int is_date(const col *c) { return !strcmp(c->type, "date") || !strcmp(c->type, "datetime"); }

static const char *const words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                                    "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa",
                                    "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey",
                                    "xray", "yankee", "zulu", "Vienna", "Teacher", "Supporter", "OWNER"};
enum { NWORDS = sizeof words / sizeof words[0] };

/* A skewed index in [0, n): small values far more likely. */
static long skewed(long n) {
  double u = unit();
  return (long)((double)n * u * u * u);
}

static void bind_value(sqlite3_stmt *st, int k, const col *c, long row, long rows, const spec *parent_spec,
                       double scale) {
  int nullable = !c->pk;
  if (c->pk && c->npk == 1) { /* a key: sequential */
    if (!strcmp(c->type, "integer")) sqlite3_bind_int64(st, k, row + 1);
    else {
      char b[32];
      snprintf(b, sizeof b, "rec%08lx", (unsigned long)(row + 1));
      sqlite3_bind_text(st, k, b, -1, SQLITE_TRANSIENT);
    }
    return;
  }
  if (nullable && unit() < (c->fk_spec >= 0 ? 0.02 : 0.05)) {
    sqlite3_bind_null(st, k);
    return;
  }
  if (parent_spec) { /* a foreign key: a skewed parent key */
    long pn = (long)((double)parent_spec->rows * scale);
    long p = skewed(pn > 0 ? pn : 1) + 1;
    if (!strcmp(c->type, "integer")) sqlite3_bind_int64(st, k, p);
    else {
      char b[32];
      snprintf(b, sizeof b, "rec%08lx", (unsigned long)p);
      sqlite3_bind_text(st, k, b, -1, SQLITE_TRANSIENT);
    }
    return;
  }
  if (c->pk) { /* part of a composite key */
    char b[32];
    snprintf(b, sizeof b, "rec%08lx", (unsigned long)(next() % (unsigned long)(rows + 1)));
    sqlite3_bind_text(st, k, b, -1, SQLITE_TRANSIENT);
    return;
  }
  if (is_date(c)) {
    int y = 1993 + (int)skewed(28), m = 1 + (int)(next() % 12), d = 1 + (int)(next() % 28);
    char b[40];
    if (!strcmp(c->type, "date")) snprintf(b, sizeof b, "%04d-%02d-%02d", 2020 - y + 1993, m, d);
    else
      snprintf(b, sizeof b, "%04d-%02d-%02d %02d:%02d:%02d.0", 2020 - y + 1993, m, d, (int)(next() % 24),
               (int)(next() % 60), (int)(next() % 60));
    sqlite3_bind_text(st, k, b, -1, SQLITE_TRANSIENT);
    return;
  }
  if (!strcmp(c->type, "integer")) {
    if (!strcasecmp(c->name, "age")) sqlite3_bind_int(st, k, 13 + (int)skewed(70));
    else sqlite3_bind_int64(st, k, skewed(100000)); /* many ties, the maximum rare */
    return;
  }
  if (!strcmp(c->type, "real")) {
    sqlite3_bind_double(st, k, (double)skewed(1000000) / 100.0);
    return;
  }
  if (!strcasecmp(c->name, "gender")) {
    sqlite3_bind_text(st, k, next() % 2 ? "M" : "F", 1, SQLITE_STATIC);
    return;
  }
  sqlite3_bind_text(st, k, words[skewed(NWORDS)], -1, SQLITE_STATIC);
}

/* mkdir -p */
static void mkdirs(const char *path) {
  char b[1024];
  snprintf(b, sizeof b, "%s", path);
  for (char *p = b + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(b, 0777);
      *p = '/';
    }
  mkdir(b, 0777);
}

static int exec(sqlite3 *db, const char *sql) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    fprintf(stderr, "gen_bird: %s: %s\n", sql, msg);
    sqlite3_free(msg);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  const char *tables = NULL, *out = NULL;
  double scale = 1;
  int indexes = 0;
  rng = 20261122;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else if (!strcmp(argv[i], "--scale") && i + 1 < argc) scale = atof(argv[++i]);
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc) rng = strtoull(argv[++i], NULL, 10) | 1;
    else if (!strcmp(argv[i], "--indexes")) indexes = 1;
    else {
      fprintf(stderr, "gen_bird: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!tables || !out || scale <= 0) {
    fprintf(stderr, "usage: gen_bird --tables dev_tables.json --out DIR [--scale S] [--seed N] [--indexes]\n");
    return 2;
  }
  FILE *f = fopen(tables, "rb");
  if (!f) {
    perror(tables);
    return 1;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)len + 1);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) return 1;
  text[len] = 0;
  fclose(f);
  cJSON *all = cJSON_Parse(text);
  free(text);
  if (!all) {
    fprintf(stderr, "gen_bird: %s is not JSON\n", tables);
    return 1;
  }
  mkdirs(out);
  sqlite3 *db = NULL;
  const char *open_db = "";
  for (int s = 0; s < NSPECS; s++) {
    const spec *sp = &specs[s];
    if (strcmp(open_db, sp->db)) {
      if (db) exec(db, "COMMIT"), sqlite3_close(db);
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", out, sp->db);
      mkdir(path, 0777);
      snprintf(path, sizeof path, "%s/%s/%s.sqlite", out, sp->db, sp->db);
      remove(path);
      if (sqlite3_open(path, &db) != SQLITE_OK) {
        fprintf(stderr, "gen_bird: cannot create %s: %s\n", path, sqlite3_errmsg(db));
        return 1;
      }
      exec(db, "PRAGMA journal_mode=OFF");
      exec(db, "PRAGMA synchronous=OFF");
      exec(db, "BEGIN");
      open_db = sp->db;
    }
    const cJSON *d = find_db(all, sp->db);
    col cols[64];
    int nc = d ? columns_of(d, sp->table, cols, 64) : -1;
    if (nc <= 0) {
      fprintf(stderr, "gen_bird: %s.%s is not in %s\n", sp->db, sp->table, tables);
      return 1;
    }
    /* CREATE TABLE with the keys BIRD declares */
    char ddl[8192];
    int n = snprintf(ddl, sizeof ddl, "CREATE TABLE \"%s\" (", sp->table), npk = 0;
    for (int c = 0; c < nc; c++) {
      n += snprintf(ddl + n, sizeof ddl - (size_t)n, "%s\"%s\" %s", c ? ", " : "", cols[c].name, sql_type(cols[c].type));
      /* as BIRD declares them: an integer key is the rowid; a TEXT key allows NULL */
      if (cols[c].pk && cols[c].npk == 1)
        n += snprintf(ddl + n, sizeof ddl - (size_t)n, "%s PRIMARY KEY", !strcmp(cols[c].type, "integer") ? " NOT NULL" : "");
      npk += cols[c].pk && cols[c].npk > 1;
    }
    if (npk) {
      n += snprintf(ddl + n, sizeof ddl - (size_t)n, ", PRIMARY KEY (");
      for (int c = 0, k = 0; c < nc; c++)
        if (cols[c].pk && cols[c].npk > 1) n += snprintf(ddl + n, sizeof ddl - (size_t)n, "%s\"%s\"", k++ ? ", " : "", cols[c].name);
      n += snprintf(ddl + n, sizeof ddl - (size_t)n, ")");
    }
    for (int c = 0; c < nc; c++)
      if (cols[c].fk_spec >= 0)
        n += snprintf(ddl + n, sizeof ddl - (size_t)n, ", FOREIGN KEY (\"%s\") REFERENCES \"%s\"(\"%s\")", cols[c].name,
                      specs[cols[c].fk_spec].table, cols[c].fk_col);
    snprintf(ddl + n, sizeof ddl - (size_t)n, ")");
    if (exec(db, ddl)) return 1;
    /* rows */
    long rows = (long)((double)sp->rows * scale);
    char ins[4096];
    n = snprintf(ins, sizeof ins, "INSERT OR IGNORE INTO \"%s\" VALUES (", sp->table);
    for (int c = 0; c < nc; c++) n += snprintf(ins + n, sizeof ins - (size_t)n, "%s?", c ? "," : "");
    snprintf(ins + n, sizeof ins - (size_t)n, ")");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, ins, -1, &st, NULL) != SQLITE_OK) return 1;
    for (long r = 0; r < rows; r++) {
      for (int c = 0; c < nc; c++)
        bind_value(st, c + 1, &cols[c], r, rows, cols[c].fk_spec >= 0 ? &specs[cols[c].fk_spec] : NULL, scale);
      sqlite3_step(st);
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    if (indexes)
      for (int c = 0; c < nc; c++) {
        int want = cols[c].fk_spec >= 0 || is_date(&cols[c]) || (cols[c].pk && cols[c].npk > 1);
        for (int w = 0; indexed_names[w] && !want; w++) want = !strcasecmp(cols[c].name, indexed_names[w]);
        if (!want || (cols[c].pk && cols[c].npk == 1)) continue;
        char ix[512];
        snprintf(ix, sizeof ix, "CREATE INDEX \"ix_%s_%s\" ON \"%s\"(\"%s\")", sp->table, cols[c].name, sp->table,
                 cols[c].name);
        if (exec(db, ix)) return 1;
      }
    printf("%s.%s: %ld rows\n", sp->db, sp->table, rows);
    fflush(stdout);
  }
  if (db) exec(db, "COMMIT"), sqlite3_close(db);
  cJSON_Delete(all);
  return 0;
}
