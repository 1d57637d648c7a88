/* load.c -- a SQLite database copied into another engine's database
 * (sqlsim load), so that a benchmark's databases (Spider's, a user's) can be
 * served there. What differs between engines (type names, how rows are sent,
 * names, keys) is its entry's (exec/server.h).
 *
 * The file is read through the safe executor (read-only, hardened: it may be
 * hostile) and its schema through the catalog reader. Each table is read
 * twice: once to choose each column's type from what it holds, once to copy
 * its rows, streamed through the entry (PostgreSQL's COPY FROM STDIN, MySQL's
 * INSERTs of about a megabyte each, an in-process engine's appender); a table's rows load
 * in one transaction. Types: a column
 * whose values are all integers is BIGINT, all numbers DOUBLE, all bytes
 * BYTEA/LONGBLOB; a column declared a date or a time whose texts are all ISO
 * dates (times) is DATE (TIMESTAMP, DATETIME); anything else is text (a
 * declared number that holds text, as SQLite allows, is said in the report).
 * Names: PostgreSQL folds a plain name (letters, digits, _) to lower case,
 * as it folds the unquoted names queries write, and keeps any other as
 * written (a query must quote it anyway); MySQL keeps names. Keys: NOT NULL
 * in the table; primary keys, single-column UNIQUE and foreign keys added
 * after the rows, each one the data breaks left out and said in the report.
 * A table that exists is an error unless replace is given (it is dropped
 * first); a database named by {db_id} that does not exist is created. */
#include "core.h"
#include "exec/exec.h"
#include "exec/server.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct plan {
  int type;
  size_t maxlen;   /* longest text or blob, in bytes */
  int keyed;       /* in a key or a UNIQUE: MySQL needs a bounded type */
  long texts;      /* text values in a column declared a number */
} plan;

typedef struct loader {
  const sqlsim_schema *s;
  sqlsim_db *src;
  sqlite3 *sq;
  const exec_engine *be;
  srv_conn *dst;
  strbuf notes;
  char why[512];
} loader;

static void note(loader *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(loader *L, const char *fmt, ...) {
  char m[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  sb_puts(&L->notes, m);
  sb_putc(&L->notes, '\n');
}


/* ---------------------------------------------------------------- types */

static int digits(const char *p, int n) {
  for (int i = 0; i < n; i++)
    if (p[i] < '0' || p[i] > '9') return 0;
  return 1;
}

static int valid_ymd(const char *p) {
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (!digits(p, 4) || p[4] != '-' || !digits(p + 5, 2) || p[7] != '-' || !digits(p + 8, 2)) return 0;
  int y = atoi(p), m = (p[5] - '0') * 10 + p[6] - '0', d = (p[8] - '0') * 10 + p[9] - '0';
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return 0;
  return !(m == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0));
}

/* YYYY-MM-DD; with time: also YYYY-MM-DD HH:MM[:SS[.fff]] (or T). */
static int iso_text(const char *p, size_t n, int time) {
  if (n == 10) return valid_ymd(p);
  if (!time || n < 16 || !valid_ymd(p) || (p[10] != ' ' && p[10] != 'T')) return 0;
  const char *t = p + 11;
  if (!digits(t, 2) || t[2] != ':' || !digits(t + 3, 2) || atoi(t) > 23 || atoi(t + 3) > 59) return 0;
  if (n == 16) return 1;
  if (t[5] != ':' || n < 19 || !digits(t + 6, 2) || atoi(t + 6) > 59) return 0;
  if (n == 19) return 1;
  return t[8] == '.' && n > 20 && digits(t + 9, (int)(n - 20));
}

/* Scans table t's rows to choose each column's type (p[ncolumns]). */
static int plan_table(loader *L, int t, plan *p, char *sel) {
  const sqlsim_table *tb = &L->s->tables[t];
  long ints[tb->ncolumns], reals[tb->ncolumns], texts[tb->ncolumns], blobs[tb->ncolumns], dates[tb->ncolumns],
      stamps[tb->ncolumns];
  memset(ints, 0, sizeof ints), memset(reals, 0, sizeof reals), memset(texts, 0, sizeof texts);
  memset(blobs, 0, sizeof blobs), memset(dates, 0, sizeof dates), memset(stamps, 0, sizeof stamps);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(L->sq, sel, -1, &st, NULL) != SQLITE_OK) {
    snprintf(L->why, sizeof L->why, "%s: cannot be read: %s", tb->name, sqlite3_errmsg(L->sq));
    return -1;
  }
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int k = 0; k < tb->ncolumns; k++) {
      switch (sqlite3_column_type(st, k)) {
      case SQLITE_INTEGER: ints[k]++; break;
      case SQLITE_FLOAT: reals[k]++; break;
      case SQLITE_TEXT: {
        const char *v = (const char *)sqlite3_column_text(st, k);
        size_t n = (size_t)sqlite3_column_bytes(st, k);
        texts[k]++;
        if (n > p[k].maxlen) p[k].maxlen = n;
        if (iso_text(v, n, 0)) dates[k]++;
        else if (iso_text(v, n, 1)) stamps[k]++;
        break;
      }
      case SQLITE_BLOB: {
        size_t n = (size_t)sqlite3_column_bytes(st, k);
        blobs[k]++;
        if (n > p[k].maxlen) p[k].maxlen = n;
        break;
      }
      default: break;
      }
    }
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) {
    snprintf(L->why, sizeof L->why, "%s: reading its rows: %s", tb->name, sqlite3_errmsg(L->sq));
    return -1;
  }
  for (int k = 0; k < tb->ncolumns; k++) {
    const sqlsim_column *c = &L->s->columns[tb->first_column + k];
    int aff = core_type_affinity(c->type);
    int datey = strcasestr(c->type, "date") || strcasestr(c->type, "time");
    long numbers = ints[k] + reals[k], all = numbers + texts[k] + blobs[k];
    if (blobs[k]) p[k].type = LOAD_BLOB;
    else if (!all) p[k].type = aff == 'I' ? LOAD_INT : aff == 'R' || (aff == 'N' && !datey) ? LOAD_REAL : LOAD_TEXT;
    else if (texts[k] == 0) p[k].type = reals[k] ? LOAD_REAL : LOAD_INT;
    else if (numbers == 0 && datey && dates[k] == texts[k] && !strcasestr(c->type, "time")) p[k].type = LOAD_DATE;
    else if (numbers == 0 && datey && dates[k] + stamps[k] == texts[k]) p[k].type = LOAD_STAMP;
    else p[k].type = LOAD_TEXT;
    if (p[k].type == LOAD_TEXT && c->numeric) {
      p[k].texts = texts[k];
      note(L, "%s.%s: declared %s, holds text (%ld values): loaded as text", tb->name, c->name, c->type, texts[k]);
    }
    p[k].keyed = c->pk || c->unique;
    for (int f = 0; f < L->s->nfkeys; f++) /* a foreign key's columns are keys too (MySQL wants them indexed) */
      if (L->s->fkeys[f].column == tb->first_column + k || L->s->fkeys[f].ref_column == tb->first_column + k)
        p[k].keyed = 1;
  }
  return 0;
}

static const char *type_name(loader *L, const plan *p, char *buf, size_t n) {
  return L->be->column_type(p->type, p->maxlen, p->keyed, buf, n);
}

/* ---------------------------------------------------------------- rows */

/* Cell k of the row st stands on, as the column's plan sends it: bytes
 * for a bytes column, text for a text, date or time column (SQLite's
 * rendering of a number there), else the number. */
static void load_cell(sqlite3_stmt *st, int k, const plan *p, srv_cell *c) {
  int t = sqlite3_column_type(st, k);
  memset(c, 0, sizeof *c);
  if (t == SQLITE_NULL) {
    c->type = SRV_NULL;
  } else if (p->type == LOAD_BLOB) {
    c->type = SRV_BLOB;
    c->p = sqlite3_column_blob(st, k);
    c->n = (size_t)sqlite3_column_bytes(st, k);
  } else if (t == SQLITE_INTEGER && p->type != LOAD_TEXT) {
    c->type = SRV_INT;
    c->i = sqlite3_column_int64(st, k);
  } else if (t == SQLITE_FLOAT && p->type != LOAD_TEXT) {
    c->type = SRV_REAL;
    c->x = sqlite3_column_double(st, k);
  } else {
    c->type = SRV_TEXT;
    c->p = (const char *)sqlite3_column_text(st, k);
    c->n = (size_t)sqlite3_column_bytes(st, k);
  }
  if (!c->p && (c->type == SRV_BLOB || c->type == SRV_TEXT)) c->p = "";
}

/* Copies table t's rows: 0, or -1 with L->why. *rows counts them. */
static int copy_rows(loader *L, int t, const plan *p, const char *sel, long *rows) {
  const sqlsim_table *tb = &L->s->tables[t];
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(L->sq, sel, -1, &st, NULL) != SQLITE_OK) {
    snprintf(L->why, sizeof L->why, "%s: cannot be read: %s", tb->name, sqlite3_errmsg(L->sq));
    return -1;
  }
  strbuf name = {0}, cols = {0};
  L->be->put_name(&name, tb->name);
  for (int k = 0; k < tb->ncolumns; k++) {
    if (k) sb_puts(&cols, ", ");
    L->be->put_name(&cols, L->s->columns[tb->first_column + k].name);
  }
  srv_cell *cells = calloc((size_t)tb->ncolumns + 1, sizeof *cells);
  int rc = 0, step = SQLITE_DONE;
  char w[400];
  if (!cells) {
    snprintf(w, sizeof w, "out of memory");
    rc = -1;
  } else if (L->be->rows_begin(L->dst, name.buf, cols.buf, tb->ncolumns, w, sizeof w)) {
    rc = -1;
  } else {
    while (!rc && (step = sqlite3_step(st)) == SQLITE_ROW) {
      for (int k = 0; k < tb->ncolumns; k++) load_cell(st, k, &p[k], &cells[k]);
      if (L->be->rows_put(L->dst, cells, tb->ncolumns, w, sizeof w)) rc = -1;
      else (*rows)++;
    }
    if (!rc && step != SQLITE_DONE) {
      snprintf(w, sizeof w, "reading row %ld: %s", *rows + 1, sqlite3_errmsg(L->sq));
      rc = -1;
    }
    char w2[400];
    if (L->be->rows_end(L->dst, !rc, w2, sizeof w2) && !rc) {
      snprintf(w, sizeof w, "%s", w2);
      rc = -1;
    }
  }
  if (rc) snprintf(L->why, sizeof L->why, "%s: its rows did not load: %.400s", tb->name, w);
  sqlite3_finalize(st);
  free(cells);
  free(name.buf);
  free(cols.buf);
  return rc;
}

/* ---------------------------------------------------------------- keys */

/* Runs sqlsim's own statement; a failure is a note (what), not an error. */
static void try_key(loader *L, const char *sql, const char *what) {
  char w[400];
  if (L->be->own(L->dst, sql, w, sizeof w)) note(L, "%s not kept: %s", what, w);
}

/* Whether a column's values are longer than the engine's keys hold. */
static int too_long_for_key(const loader *L, const plan *p) {
  size_t max = p->type == LOAD_TEXT ? L->be->key_text_max : p->type == LOAD_BLOB ? L->be->key_blob_max : 0;
  return max && p->maxlen > max;
}

static void add_keys(loader *L, int t, const plan *p) {
  const sqlsim_schema *s = L->s;
  const sqlsim_table *tb = &s->tables[t];
  strbuf sb = {0}, what = {0};
  sb_puts(&sb, "ALTER TABLE ");
  L->be->put_name(&sb, tb->name);
  size_t base = sb.len;
  int npk = 0;
  for (int k = 0; k < tb->ncolumns; k++) npk += s->columns[tb->first_column + k].pk;
  if (npk) {
    sb_puts(&sb, " ADD PRIMARY KEY (");
    sb_printf(&what, "%s: primary key (", tb->name);
    for (int k = 0, n = 0; k < tb->ncolumns; k++) {
      const sqlsim_column *c = &s->columns[tb->first_column + k];
      if (!c->pk) continue;
      if (n++) sb_puts(&sb, ", "), sb_puts(&what, ", ");
      L->be->put_name(&sb, c->name);
      sb_puts(&what, c->name);
    }
    sb_putc(&sb, ')');
    sb_putc(&what, ')');
    for (int k = 0; k < tb->ncolumns && npk > 0; k++)
      if (s->columns[tb->first_column + k].pk && too_long_for_key(L, &p[k])) {
        note(L, "%s not kept: a value longer than a %s key holds", what.buf, L->be->name);
        npk = -1;
      }
    if (npk > 0) try_key(L, sb.buf, what.buf);
  }
  for (int k = 0; k < tb->ncolumns; k++) { /* single-column UNIQUE, not the primary key */
    const sqlsim_column *c = &s->columns[tb->first_column + k];
    if (!c->unique || (c->pk && npk == 1)) continue;
    if (too_long_for_key(L, &p[k])) continue;
    sb.len = base;
    what.len = 0;
    sb_puts(&sb, " ADD UNIQUE (");
    L->be->put_name(&sb, c->name);
    sb_putc(&sb, ')');
    sb_printf(&what, "%s: unique (%s)", tb->name, c->name);
    try_key(L, sb.buf, what.buf);
  }
  free(sb.buf);
  free(what.buf);
}

/* The foreign keys of table t, pairs to one parent covering its whole
 * primary key made one key. */
static void add_fkeys(loader *L, int t) {
  const sqlsim_schema *s = L->s;
  unsigned char *done = calloc((size_t)s->nfkeys + 1, 1);
  strbuf sb = {0}, what = {0};
  for (int i = 0; done && i < s->nfkeys; i++) {
    const sqlsim_fkey *f = &s->fkeys[i];
    if (done[i] || s->columns[f->column].table != t) continue;
    int pt = s->columns[f->ref_column].table;
    int group[64], n = 0, pkn = 0;
    for (int j = i; j < s->nfkeys && n < 64; j++)
      if (!done[j] && s->columns[s->fkeys[j].column].table == t && s->columns[s->fkeys[j].ref_column].table == pt &&
          s->columns[s->fkeys[j].ref_column].pk)
        group[n++] = j;
    for (int k = 0; k < s->tables[pt].ncolumns; k++) pkn += s->columns[s->tables[pt].first_column + k].pk;
    if (n < 2 || n != pkn) { /* a key of its own */
      group[0] = i;
      n = 1;
    }
    sb.len = what.len = 0;
    sb_puts(&sb, "ALTER TABLE ");
    L->be->put_name(&sb, s->tables[t].name);
    sb_puts(&sb, " ADD FOREIGN KEY (");
    sb_printf(&what, "%s: foreign key (", s->tables[t].name);
    for (int g = 0; g < n; g++) {
      if (g) sb_puts(&sb, ", "), sb_puts(&what, ", ");
      L->be->put_name(&sb, s->columns[s->fkeys[group[g]].column].name);
      sb_puts(&what, s->columns[s->fkeys[group[g]].column].name);
    }
    sb_puts(&sb, ") REFERENCES ");
    L->be->put_name(&sb, s->tables[pt].name);
    sb_puts(&sb, " (");
    sb_printf(&what, ") -> %s (", s->tables[pt].name);
    for (int g = 0; g < n; g++) {
      if (g) sb_puts(&sb, ", "), sb_puts(&what, ", ");
      L->be->put_name(&sb, s->columns[s->fkeys[group[g]].ref_column].name);
      sb_puts(&what, s->columns[s->fkeys[group[g]].ref_column].name);
      done[group[g]] = 1;
    }
    sb_putc(&sb, ')');
    sb_putc(&what, ')');
    try_key(L, sb.buf, what.buf);
  }
  free(done);
  free(sb.buf);
  free(what.buf);
}

/* ---------------------------------------------------------------- the database */

/* The tables of the file that hold rows (not views): tables[ntables]. */
static int real_tables(loader *L, unsigned char *is_table) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(L->sq, "SELECT name FROM sqlite_schema WHERE type = 'table'", -1, &st, NULL) != SQLITE_OK)
    return -1;
  while (sqlite3_step(st) == SQLITE_ROW) {
    int t = sqlsim_schema_find_table(L->s, (const char *)sqlite3_column_text(st, 0));
    if (t >= 0) is_table[t] = 1;
  }
  sqlite3_finalize(st);
  return 0;
}

/* Whether table name exists in the target: 1, 0, or -1 (why set). */
static int table_exists(loader *L, const char *name) {
  strbuf nm = {0};
  L->be->put_name(&nm, name); /* the name as kept, without its quotes */
  char *kept = nm.len >= 2 ? strndup(nm.buf + 1, nm.len - 2) : strdup(name), w[400];
  int rc = kept ? L->be->table_exists(L->dst, kept, w, sizeof w) : -1;
  if (rc < 0) snprintf(L->why, sizeof L->why, "cannot look for table %s: %s", name, kept ? w : "out of memory");
  free(kept);
  free(nm.buf);
  return rc;
}

static int load_table(loader *L, int t, int replace, long *rows) {
  const sqlsim_table *tb = &L->s->tables[t];
  plan *p = calloc((size_t)tb->ncolumns + 1, sizeof *p);
  strbuf sel = {0}, ddl = {0};
  int rc = -1;
  char w[400];
  if (!p) goto done;
  sb_puts(&sel, "SELECT ");
  for (int k = 0; k < tb->ncolumns; k++) {
    if (k) sb_puts(&sel, ", ");
    sb_ident(&sel, L->s->columns[tb->first_column + k].name);
  }
  sb_puts(&sel, " FROM ");
  sb_ident(&sel, tb->name);
  if (plan_table(L, t, p, sel.buf)) goto done;
  if (replace) {
    sb_puts(&ddl, "DROP TABLE IF EXISTS ");
    L->be->put_name(&ddl, tb->name);
    sb_puts(&ddl, L->be->drop_options);
    if (L->be->own(L->dst, ddl.buf, w, sizeof w)) {
      snprintf(L->why, sizeof L->why, "%s: cannot be dropped: %s", tb->name, w);
      goto done;
    }
    ddl.len = 0;
  }
  sb_puts(&ddl, "CREATE TABLE ");
  L->be->put_name(&ddl, tb->name);
  sb_puts(&ddl, " (");
  for (int k = 0; k < tb->ncolumns; k++) {
    const sqlsim_column *c = &L->s->columns[tb->first_column + k];
    char buf[40];
    if (k) sb_puts(&ddl, ", ");
    L->be->put_name(&ddl, c->name);
    sb_printf(&ddl, " %s%s", type_name(L, &p[k], buf, sizeof buf), c->notnull ? " NOT NULL" : "");
  }
  sb_putc(&ddl, ')');
  sb_puts(&ddl, L->be->table_options);
  if (L->be->own(L->dst, ddl.buf, w, sizeof w)) {
    snprintf(L->why, sizeof L->why, "%s: cannot be created: %s", tb->name, w);
    goto done;
  }
  if (L->be->own(L->dst, L->be->begin, w, sizeof w)) {
    snprintf(L->why, sizeof L->why, "%s: %s", tb->name, w);
    goto done;
  }
  long before = *rows;
  if (copy_rows(L, t, p, sel.buf, rows)) {
    L->be->own(L->dst, "ROLLBACK", w, sizeof w);
    *rows = before;
    goto done;
  }
  if (L->be->own(L->dst, "COMMIT", w, sizeof w)) {
    snprintf(L->why, sizeof L->why, "%s: its rows did not commit: %s", tb->name, w);
    goto done;
  }
  if (L->be->keys_after) add_keys(L, t, p);
  /* the planner's statistics now, not when the server's background job gets
   * to it: a plan (and the order of tied rows) that changes minutes after
   * loading would make two runs of one query disagree */
  ddl.len = 0;
  sb_puts(&ddl, L->be->analyze);
  L->be->put_name(&ddl, tb->name);
  if (L->be->own(L->dst, ddl.buf, w, sizeof w)) note(L, "%s: not analyzed: %s", tb->name, w);
  rc = 0;
done:
  if (!p) snprintf(L->why, sizeof L->why, "out of memory");
  free(p);
  free(sel.buf);
  free(ddl.buf);
  return rc;
}

/* A connection to the target's database, made when it does not exist yet. */
static srv_conn *connect_creating(loader *L, srv_url *u, sqlsim_error *err) {
  srv_conn *c = L->be->connect(u, 3600, 0, 1, err);
  if (c || err->code != SQLSIM_ENOTFOUND || !u->dbname || !L->be->create_db) return c;
  char w[400];
  if (L->be->create_db(u, w, sizeof w)) {
    sqlsim_error_set(err, SQLSIM_EIO, -1, "database %.100s does not exist and cannot be created: %s", u->dbname, w);
    return NULL;
  }
  note(L, "database %s created", u->dbname);
  memset(err, 0, sizeof *err);
  return L->be->connect(u, 3600, 0, 1, err);
}

int sqlsim_load(const char *sqlite_path, const char *target, const char *db_id, const sqlsim_load_opts *o,
                sqlsim_load_report *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  loader L = {0};
  srv_url u = {0};
  sqlsim_catalog *cat = NULL;
  int rc = srv_url_parse(target, db_id, &u, err);
  if (rc) return rc;
  L.be = u.engine;
  if ((rc = sqlsim_catalog_load_sqlite(sqlite_path, &cat, err))) goto done;
  L.s = sqlsim_catalog_at(cat, 0);
  sqlsim_exec_opts eo = {.timeout_s = 86400};
  if ((rc = sqlsim_db_open(sqlite_path, &eo, &L.src, err))) goto done;
  void *saved;
  exec_enter(L.src, 86400, &saved);
  exec_trust(L.src, 1);
  L.sq = exec_handle(L.src);
  L.dst = connect_creating(&L, &u, err);
  if (!L.dst) {
    char *shown = srv_url_redact(u.text);
    char m[sizeof err->message];
    snprintf(m, sizeof m, "%s", err->message);
    rc = sqlsim_error_set(err, err->code ? err->code : SQLSIM_EIO, -1, "%.200s: %s", shown ? shown : "", m);
    free(shown);
    goto leave;
  }
  unsigned char *is_table = calloc((size_t)L.s->ntables + 1, 1);
  if (!is_table || real_tables(&L, is_table)) {
    free(is_table);
    rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "%s: its tables cannot be listed", sqlite_path);
    goto leave;
  }
  if (!(o && o->replace))
    for (int t = 0; t < L.s->ntables && !rc; t++) {
      if (!is_table[t]) continue;
      int e = table_exists(&L, L.s->tables[t].name);
      if (e < 0) rc = sqlsim_error_set(err, SQLSIM_EIO, -1, "%s", L.why);
      else if (e)
        rc = sqlsim_error_set(err, SQLSIM_EEXISTS, -1,
                              "table %s exists in the target (give replace to drop and load it again): nothing was "
                              "loaded",
                              L.s->tables[t].name);
    }
  for (int t = 0; t < L.s->ntables && !rc; t++) {
    if (!is_table[t]) continue;
    if (load_table(&L, t, o && o->replace, &out->rows)) rc = sqlsim_error_set(err, SQLSIM_EIO, -1, "%s", L.why);
    else out->tables++;
  }
  for (int t = 0; t < L.s->ntables && !rc; t++)
    if (is_table[t] && L.be->foreign_keys_after) add_fkeys(&L, t);
  if (!rc && !L.be->foreign_keys_after && L.s->nfkeys)
    note(&L, "%d foreign keys not kept: %s adds them only where a table is created", L.s->nfkeys, L.be->name);
  free(is_table);
leave:
  exec_trust(L.src, 0);
  exec_leave(L.src, saved);
done:
  if (L.dst) L.be->close(L.dst);
  sqlsim_db_close(L.src);
  sqlsim_catalog_free(cat);
  srv_url_clear(&u);
  out->notes = L.notes.buf ? sb_take(&L.notes) : NULL;
  return rc;
}

void sqlsim_load_report_free(sqlsim_load_report *r) {
  free(r->notes);
  r->notes = NULL;
}
