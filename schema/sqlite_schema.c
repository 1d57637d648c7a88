/* sqlite_schema.c -- schemas read from SQLite files, and schema-only databases.
 *
 * sqlsim_catalog_load_sqlite() opens a database through the safe executor
 * (read-only, hardened, under a time limit and a memory budget: the file may
 * be hostile) and reads tables and views, declared types, primary keys, NOT
 * NULL, collations, UNIQUE indexes and foreign keys through PRAGMAs, and the
 * CHECK constraints out of each table's CREATE TABLE text (read_checks);
 * schema text is never run but as a CHECK clause of a table sqlsim creates. sqlsim_schema_ddl() and
 * sqlsim_schema_create_sqlite() go the other way: a tables.json entry becomes
 * an empty database that later stages use to check that a query prepares. */
#include "schema.h"

#include "exec/exec.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int sqlite_fail(sqlsim_error *err, sqlite3 *db, const char *path, const char *what) {
  return sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "%s: %s: %s", path, what,
                          db ? sqlite3_errmsg(db) : "cannot open");
}

/* Runs a PRAGMA on a table name; returns a prepared statement or NULL. */
static sqlite3_stmt *pragma_stmt(sqlite3 *db, const char *pragma, const char *arg) {
  strbuf sb = {0};
  sb_printf(&sb, "PRAGMA %s(", pragma);
  sb_ident(&sb, arg);
  sb_putc(&sb, ')');
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, sb.buf, -1, &st, NULL) != SQLITE_OK) st = NULL;
  sb_free(&sb);
  return st;
}

static const char *col_text(sqlite3_stmt *st, int i) {
  const unsigned char *t = sqlite3_column_text(st, i);
  return t ? (const char *)t : "";
}

static const char *base_name(sqlsim_arena *a, const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *dot = strrchr(b, '.');
  return sqlsim_arena_strndup(a, b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

/* A declared number type: INTEGER or REAL affinity, or NUMERIC, DECIMAL,
 * NUMBER (NUMERIC affinity, as DATE and BOOLEAN are, which hold text). */
static int numeric_type(const char *t) {
  int aff = core_type_affinity(t);
  if (aff == 'I' || aff == 'R') return 1;
  if (aff != 'N') return 0;
  for (const char *p = t; *p; p++)
    if (!sqlite3_strnicmp(p, "num", 3) || !sqlite3_strnicmp(p, "dec", 3)) return 1;
  return 0;
}

/* ---------------------------------------------------------------- CHECK constraints */

/* The end of a quoted run starting at p (a string, or a name in "", ``
 * or []): the byte after its closing quote, or NULL when it has none. */
static const char *past_quote(const char *p) {
  char close = *p == '[' ? ']' : *p;
  for (p++; *p; p++)
    if (*p == close) {
      if (close != ']' && p[1] == close) p++; /* doubled: part of the text */
      else return p + 1;
    }
  return NULL;
}

/* The text of the CHECK at p (just past its '('), to its matching ')':
 * comments become a space, strings and names are kept whole. NULL when the
 * parentheses do not close, a quote does not end, or a ';' stands outside a
 * quote: such text is not kept, since written as CHECK (text) it could end
 * the clause. *end gets the byte after the ')'. */
static char *check_text(sqlsim_arena *a, const char *p, const char **end) {
  strbuf sb = {0};
  int depth = 1;
  while (*p && depth) {
    if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
      const char *q = past_quote(p);
      if (!q) break;
      sb_putn(&sb, p, (size_t)(q - p));
      p = q;
      continue;
    }
    if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n') p++;
      sb_putc(&sb, ' ');
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      const char *q = strstr(p + 2, "*/");
      if (!q) break;
      p = q + 2;
      sb_putc(&sb, ' ');
      continue;
    }
    if (*p == ';') break;
    if (*p == '(') depth++;
    if (*p == ')' && --depth == 0) break;
    sb_putc(&sb, *p++);
  }
  char *t = NULL;
  if (depth == 0 && *p == ')' && sb.len) {
    t = sqlsim_arena_strdup(a, sb.buf);
    *end = p + 1;
  }
  sb_free(&sb);
  return t;
}

static int word_at(const char *p, const char *w) {
  size_t n = strlen(w);
  return !sqlite3_strnicmp(p, w, (int)n) && !((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
                                                (p[n] >= '0' && p[n] <= '9') || p[n] == '_');
}

int schema_checks_of(const char *sql, sqlsim_arena *a, const char ***out) {
  const char *found[SCHEMA_MAX_CHECKS];
  int n = 0;
  *out = NULL;
  for (const char *p = sql; p && *p && n < SCHEMA_MAX_CHECKS;) {
    if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
      p = past_quote(p);
      continue;
    }
    if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n') p++;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      const char *q = strstr(p + 2, "*/");
      p = q ? q + 2 : NULL;
      continue;
    }
    int start = p == sql || !((p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= 'A' && p[-1] <= 'Z') ||
                              (p[-1] >= '0' && p[-1] <= '9') || p[-1] == '_');
    if (start && word_at(p, "check")) {
      const char *q = p + 5;
      while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') q++;
      const char *end;
      char *text = *q == '(' ? check_text(a, q + 1, &end) : NULL;
      if (text) {
        found[n++] = text;
        p = end;
        continue;
      }
    }
    p++;
  }
  if (!n) return 0;
  const char **v = sqlsim_arena_alloc(a, sizeof *v * (size_t)n);
  memcpy(v, found, sizeof *v * (size_t)n);
  *out = v;
  return n;
}

/* The CHECK constraints of table `name`, from its CREATE TABLE text in
 * sqlite_schema (column constraints and table constraints alike). */
static void read_checks(sqlite3 *db, sqlsim_arena *a, sqlsim_table *t, const char *name) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", -1, &st, NULL) !=
      SQLITE_OK)
    return;
  sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  const char *sql = sqlite3_step(st) == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
  const char **v;
  t->nchecks = schema_checks_of(sql, a, &v);
  t->checks = v;
  sqlite3_finalize(st);
}

/* Time allowed for reading a schema (a hostile one can make SQLite work). */
#define SCHEMA_TIMEOUT 30.0


int sqlsim_catalog_load_sqlite(const char *path, sqlsim_catalog **out, sqlsim_error *err) {
  *out = NULL;
  sqlsim_db *x;
  int rc = sqlsim_db_open(path, NULL, &x, err);
  if (rc) return rc;
  void *saved;
  exec_enter(x, SCHEMA_TIMEOUT, &saved);
  sqlsim_catalog *c = catalog_new();
  rc = schema_from_sqlite(exec_handle(x), path, c, err);
  exec_leave(x, saved);
  sqlsim_db_close(x);
  if (rc) sqlsim_catalog_free(c);
  else *out = c;
  return rc;
}

int schema_from_sqlite(void *handle, const char *path, sqlsim_catalog *c, sqlsim_error *err) {
  sqlite3 *db = handle;
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_schema WHERE type IN ('table','view') "
                         "AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
                         -1, &st, NULL) != SQLITE_OK)
    return sqlite_fail(err, db, path, "reading sqlite_schema (not a database?)");
  sqlsim_arena *a = c->arena;
  sqlsim_schema *s = sqlsim_arena_alloc(a, sizeof *s);
  s->db_id = base_name(a, path);
  int tcap = 16, ccap = 64, fcap = 16;
  s->tables = malloc(sizeof *s->tables * (size_t)tcap);
  s->columns = malloc(sizeof *s->columns * (size_t)ccap);
  s->fkeys = malloc(sizeof *s->fkeys * (size_t)fcap);
  int rc = 0;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (s->ntables == tcap) s->tables = realloc(s->tables, sizeof *s->tables * (size_t)(tcap *= 2));
    sqlsim_table *t = &s->tables[s->ntables];
    memset(t, 0, sizeof *t);
    const char *name = col_text(st, 0);
    t->name = sqlsim_arena_strdup(a, name);
    t->key = core_fold_dup(a, name, strlen(name));
    t->first_column = s->ncolumns;
    t->ncolumns = 0;
    sqlite3_stmt *ti = pragma_stmt(db, "table_info", name);
    int npk = 0;
    while (ti && sqlite3_step(ti) == SQLITE_ROW) {
      if (s->ncolumns == ccap)
        s->columns = realloc(s->columns, sizeof *s->columns * (size_t)(ccap *= 2));
      sqlsim_column *col = &s->columns[s->ncolumns++];
      memset(col, 0, sizeof *col);
      const char *cn = col_text(ti, 1);
      col->name = sqlsim_arena_strdup(a, cn);
      col->key = core_fold_dup(a, cn, strlen(cn));
      col->type = sqlsim_arena_strdup(a, col_text(ti, 2));
      col->notnull = sqlite3_column_int(ti, 3) != 0;
      col->pk = sqlite3_column_int(ti, 5) != 0;
      col->numeric = numeric_type(col->type);
      npk += col->pk;
      col->table = s->ntables;
      const char *dtype = NULL, *coll = NULL;
      int nn = 0, pk = 0, autoinc = 0;
      if (sqlite3_table_column_metadata(db, NULL, name, cn, &dtype, &coll, &nn, &pk, &autoinc) ==
              SQLITE_OK &&
          coll && sqlite3_stricmp(coll, "BINARY") != 0)
        col->collation = core_fold_dup(a, coll, strlen(coll));
      t->ncolumns++;
    }
    sqlite3_finalize(ti);
    if (npk == 1) {
      for (int i = 0; i < t->ncolumns; i++) {
        sqlsim_column *col = &s->columns[t->first_column + i];
        if (!col->pk) continue;
        col->unique = 1;
        /* INTEGER PRIMARY KEY is the rowid: never NULL. */
        if (sqlite3_stricmp(col->type, "INTEGER") == 0) col->notnull = 1;
      }
    }
    /* Single-column UNIQUE indexes (and the pk's autoindex). */
    sqlite3_stmt *il = pragma_stmt(db, "index_list", name);
    while (il && sqlite3_step(il) == SQLITE_ROW) {
      if (!sqlite3_column_int(il, 2) || sqlite3_column_int(il, 4)) continue; /* unique, not partial */
      sqlite3_stmt *ii = pragma_stmt(db, "index_info", col_text(il, 1));
      int n = 0, cid = -1;
      while (ii && sqlite3_step(ii) == SQLITE_ROW) {
        n++;
        cid = sqlite3_column_int(ii, 1);
      }
      sqlite3_finalize(ii);
      if (n == 1 && cid >= 0 && cid < t->ncolumns) s->columns[t->first_column + cid].unique = 1;
    }
    sqlite3_finalize(il);
    read_checks(db, a, t, name);
    s->ntables++;
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) {
    rc = sqlite_fail(err, db, path, "reading tables");
    goto fail;
  }
  s->tables = realloc(s->tables, sizeof *s->tables * (size_t)(s->ntables + 1));
  schema_index_build(s, a); /* foreign keys below need column lookups */
  for (int ti = 0; ti < s->ntables; ti++) {
    sqlite3_stmt *fk = pragma_stmt(db, "foreign_key_list", s->tables[ti].name);
    while (fk && sqlite3_step(fk) == SQLITE_ROW) {
      int rt = sqlsim_schema_find_table(s, col_text(fk, 2));
      int from = sqlsim_schema_find_column(s, ti, col_text(fk, 3));
      int to = -1;
      if (rt >= 0 && sqlite3_column_type(fk, 4) != SQLITE_NULL) {
        to = sqlsim_schema_find_column(s, rt, col_text(fk, 4));
      } else if (rt >= 0) { /* REFERENCES parent: its primary key */
        for (int i = 0; i < s->tables[rt].ncolumns; i++)
          if (s->columns[s->tables[rt].first_column + i].pk) {
            to = s->tables[rt].first_column + i;
            break;
          }
      }
      if (from < 0 || to < 0) continue;
      if (s->nfkeys == fcap) s->fkeys = realloc(s->fkeys, sizeof *s->fkeys * (size_t)(fcap *= 2));
      s->fkeys[s->nfkeys].column = from;
      s->fkeys[s->nfkeys].ref_column = to;
      s->nfkeys++;
    }
    sqlite3_finalize(fk);
  }
  /* Move the arrays into the arena so the catalog frees them in one go. */
  sqlsim_table *tabs = sqlsim_arena_alloc(a, sizeof *tabs * (size_t)(s->ntables + 1));
  memcpy(tabs, s->tables, sizeof *tabs * (size_t)s->ntables);
  free(s->tables);
  s->tables = tabs;
  sqlsim_column *cols = sqlsim_arena_alloc(a, sizeof *cols * (size_t)(s->ncolumns + 1));
  memcpy(cols, s->columns, sizeof *cols * (size_t)s->ncolumns);
  free(s->columns);
  s->columns = cols;
  sqlsim_fkey *fks = sqlsim_arena_alloc(a, sizeof *fks * (size_t)(s->nfkeys + 1));
  memcpy(fks, s->fkeys, sizeof *fks * (size_t)s->nfkeys);
  free(s->fkeys);
  s->fkeys = fks;
  catalog_add(c, s);
  return 0;
fail:
  free(s->tables);
  free(s->columns);
  free(s->fkeys);
  schema_index_clear(s);
  return rc;
}

/* Whether a declared type reads as one (words, then at most one list of
 * numbers in parentheses): only such a type is written into DDL, so a
 * schema file cannot smuggle SQL into it. */
static int plain_type(const char *t) {
  const char *p = t;
  while (*p && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
                *p == ' '))
    p++;
  if (*p == '(') {
    p++;
    while (*p && ((*p >= '0' && *p <= '9') || *p == ',' || *p == ' ' || *p == '+' || *p == '-')) p++;
    if (*p++ != ')') return 0;
    while (*p == ' ') p++;
  }
  return *p == '\0' && p - t <= 100;
}

/* The parent columns of a foreign key SQLite can enforce: its primary key
 * whole, or one UNIQUE column. */
static int enforceable(const sqlsim_schema *s, int pt, const int *cols, int n) {
  if (n == 1 && s->columns[cols[0]].unique) return 1;
  int npk = 0;
  for (int i = 0; i < s->tables[pt].ncolumns; i++) npk += s->columns[s->tables[pt].first_column + i].pk;
  if (npk != n) return 0;
  for (int i = 0; i < n; i++)
    if (!s->columns[cols[i]].pk) return 0;
  return 1;
}

/* The FOREIGN KEY clauses of table t: the pairs to one parent table that
 * cover its whole primary key as one key of several columns; each other
 * pair alone. A key SQLite could not enforce (its parent columns neither
 * the primary key nor UNIQUE: "foreign key mismatch" on every row once keys
 * are enforced) is not written: the schema names it, SQLite cannot hold a
 * database to it, and sqlsim checks it itself (synth/data.c). */
static void fkey_clauses(strbuf *sb, const sqlsim_schema *s, int t) {
  unsigned char *done = calloc((size_t)s->nfkeys + 1, 1);
  if (!done) return;
  for (int f = 0; f < s->nfkeys; f++) {
    const sqlsim_column *from = &s->columns[s->fkeys[f].column], *to = &s->columns[s->fkeys[f].ref_column];
    if (from->table != t || done[f]) continue;
    int pt = to->table, idx[64], n = 0;
    for (int g = f; g < s->nfkeys && n < 64; g++) /* the pairs to the same parent's primary key */
      if (!done[g] && s->columns[s->fkeys[g].column].table == t &&
          s->columns[s->fkeys[g].ref_column].table == pt && s->columns[s->fkeys[g].ref_column].pk)
        idx[n++] = g;
    int refs[64];
    for (int i = 0; i < n; i++) refs[i] = s->fkeys[idx[i]].ref_column;
    if (n < 2 || !enforceable(s, pt, refs, n)) { /* a key of one pair */
      idx[0] = f;
      n = 1;
      refs[0] = s->fkeys[f].ref_column;
    }
    for (int i = 0; i < n; i++) done[idx[i]] = 1;
    if (!enforceable(s, pt, refs, n)) continue;
    sb_puts(sb, ", FOREIGN KEY (");
    for (int i = 0; i < n; i++) {
      if (i) sb_puts(sb, ", ");
      sb_ident(sb, s->columns[s->fkeys[idx[i]].column].name);
    }
    sb_puts(sb, ") REFERENCES ");
    sb_ident(sb, s->tables[pt].name);
    sb_putc(sb, '(');
    for (int i = 0; i < n; i++) {
      if (i) sb_puts(sb, ", ");
      sb_ident(sb, s->columns[refs[i]].name);
    }
    sb_putc(sb, ')');
  }
  free(done);
}

char *sqlsim_schema_ddl(const sqlsim_schema *s) { return sqlsim_schema_ddl_tables(s, NULL); }

char *sqlsim_schema_ddl_tables(const sqlsim_schema *s, const unsigned char *tables) {
  strbuf sb = {0};
  for (int t = 0; t < s->ntables; t++) {
    const sqlsim_table *tab = &s->tables[t];
    if (tables && !tables[t]) continue;
    if (!strncmp(tab->key, "sqlite_", 7)) continue; /* SQLite's own (sqlite_sequence): it makes them */
    sb_puts(&sb, "CREATE TABLE ");
    sb_ident(&sb, tab->name);
    sb_puts(&sb, " (");
    int npk = 0;
    for (int i = 0; i < tab->ncolumns; i++) {
      const sqlsim_column *col = &s->columns[tab->first_column + i];
      if (i) sb_puts(&sb, ", ");
      sb_ident(&sb, col->name);
      if (col->type && *col->type && plain_type(col->type)) sb_printf(&sb, " %s", col->type);
      if (col->notnull) sb_puts(&sb, " NOT NULL");
      if (col->collation) {
        sb_puts(&sb, " COLLATE ");
        sb_ident(&sb, col->collation);
      }
      npk += col->pk;
    }
    if (npk) {
      sb_puts(&sb, ", PRIMARY KEY (");
      int k = 0;
      for (int i = 0; i < tab->ncolumns; i++) {
        const sqlsim_column *col = &s->columns[tab->first_column + i];
        if (!col->pk) continue;
        if (k++) sb_puts(&sb, ", ");
        sb_ident(&sb, col->name);
      }
      sb_putc(&sb, ')');
    }
    fkey_clauses(&sb, s, t);
    for (int k = 0; k < tab->nchecks; k++) sb_printf(&sb, ", CHECK (%s)", tab->checks[k]);
    sb_puts(&sb, ");\n");
  }
  return sb_take(&sb);
}

/* The DDL sqlsim writes creates tables and nothing else; the authorizer
 * makes sure of it whatever a schema file held. */
int schema_ddl_only(void *ctx, int action, const char *a1, const char *a2, const char *db, const char *trig) {
  (void)ctx;
  (void)a2;
  (void)db;
  (void)trig;
  switch (action) {
  case SQLITE_CREATE_TABLE:
  case SQLITE_CREATE_INDEX:
  case SQLITE_READ:
  case SQLITE_FUNCTION: /* named in a CHECK (length, ...): SQLite takes only deterministic ones there */
    return SQLITE_OK;
  case SQLITE_INSERT:
  case SQLITE_UPDATE:
    return a1 && (!strcmp(a1, "sqlite_master") || !strcmp(a1, "sqlite_schema")) ? SQLITE_OK : SQLITE_DENY;
  default:
    return SQLITE_DENY;
  }
}

int sqlsim_schema_create_sqlite(const sqlsim_schema *s, const char *path, void **out,
                                sqlsim_error *err) {
  *out = NULL;
  if (strcmp(path, ":memory:") != 0 && access(path, F_OK) == 0)
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: exists; refusing to write into it", path);
  sqlite3 *db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    int rc = sqlite_fail(err, db, path, "create");
    sqlite3_close(db);
    return rc;
  }
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  int rc = sqlsim_schema_create_tables(db, s, NULL, err);
  if (rc) {
    sqlite3_close(db);
    return rc;
  }
  *out = db;
  return 0;
}

int sqlsim_schema_create_tables(void *handle, const sqlsim_schema *s, const unsigned char *tables,
                                sqlsim_error *err) {
  sqlite3 *db = handle;
  unsigned char *one = calloc((size_t)s->ntables + 1, 1);
  if (!one) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  int rc = 0;
  sqlite3_set_authorizer(db, schema_ddl_only, NULL);
  for (int t = 0; t < s->ntables && !rc; t++) {
    if ((tables && !tables[t]) || !strncmp(s->tables[t].key, "sqlite_", 7)) continue;
    one[t] = 1;
    char *ddl = sqlsim_schema_ddl_tables(s, one);
    one[t] = 0;
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    if (!ddl || sqlite3_prepare_v2(db, ddl, -1, &st, &tail) != SQLITE_OK || (tail && tail[strspn(tail, " \n")]) ||
        sqlite3_step(st) != SQLITE_DONE)
      rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "db_id %s: table %s: schema DDL failed: %s",
                            s->db_id ? s->db_id : "?", s->tables[t].name,
                            !ddl ? "out of memory" : tail && tail[strspn(tail, " \n")] ? "more than one statement"
                                                                                       : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    free(ddl);
  }
  sqlite3_set_authorizer(db, NULL, NULL);
  free(one);
  return rc;
}
