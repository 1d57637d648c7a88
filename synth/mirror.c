/* mirror.c -- synthetic databases judged on the pair's engine: the
 * generated database the scratch connection holds, loaded into the pair's
 * engine, and the queries run there, so that a pair is judged as its engine
 * answers it (integer division, collations, date casts, NULLs' order, GROUP
 * BY's rules).
 *
 * Generation, reading back and checking the data stay on the SQLite scratch
 * connection (synth.c, data.c); every run of a query goes through
 * synth_exec, which sends it to the engine when the scratch has a mirror. The
 * mirror owns its own connection to the item's database (never the one that
 * scores EX: its temporary tables would hide the real ones there). On first
 * use it makes, per table of the schema, a temporary table that hides the
 * real one for this session alone: with the real table's own column types
 * where the database has it (the engine entry's temp_like), else with types
 * from the declared ones (its declared_type). Then
 * whenever the scratch's content moved (exec_writes), its rows replace the
 * temporary tables' in one round trip. A database the server's types refuse
 * makes every query fail there: that database does not count. */
#include "synth.h"
#include "exec/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


void synth_mirror_clear(synth_mirror *m) {
  sqlsim_db_close(m->engine);
  free(m->db_id);
  free(m->sig);
  free(m->nrows);
  free(m->sig_ok);
  for (int t = 0; m->ddl && t < m->ntables; t++) free(m->ddl[t]);
  free(m->ddl);
  memset(m, 0, sizeof *m);
}

static int same_db_id(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

int synth_mirror_bind(synth_mirror *m, const exec_target *t, const char *db_id, const sqlsim_schema *s,
                      const sqlsim_exec_opts *eo, sqlsim_error *err) {
  if (m->engine && t && m->target == t && same_db_id(m->db_id, db_id) && m->s == s) return 0;
  synth_mirror_clear(m);
  if (!t) return 0;
  m->target = t;
  m->db_id = db_id ? strdup(db_id) : NULL;
  m->s = s;
  m->ntables = s->ntables;
  if (db_id && !m->db_id) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
  int rc = exec_connect(t, db_id, eo, &m->engine, err);
  if (rc) {
    m->engine = NULL;
    m->target = NULL;
  }
  return rc;
}

/* Collects a one-column answer's first row (SHOW CREATE TABLE's second
 * column is asked for by position in the query). */
typedef struct first_row {
  strbuf sb;
  int n;
} first_row;

static void add_row(void *ctx, const char *text, size_t n) {
  first_row *f = ctx;
  if (f->n++) sb_puts(&f->sb, ", ");
  sb_putn(&f->sb, text, n);
}

/* The connection was opened again: its temporary tables are gone. */
static void forget(synth_mirror *m) {
  for (int t = 0; m->ddl && t < m->ntables; t++) free(m->ddl[t]);
  free(m->ddl);
  m->ddl = NULL;
  if (m->sig_ok) memset(m->sig_ok, 0, (size_t)m->ntables);
  m->created = m->synced = 0;
}

/* The temporary tables, made once per connection: 0, or -1 with m->err. */
static int make_tables(synth_mirror *m) {
  const sqlsim_schema *s = m->s;
  const exec_engine *e = exec_engine_of(m->engine);
  m->ddl = calloc((size_t)s->ntables + 1, sizeof *m->ddl);
  if (!m->ddl) return -1;
  for (int t = 0; t < s->ntables; t++) {
    const sqlsim_table *tb = &s->tables[t];
    strbuf sql = {0}, name = {0};
    e->put_name(&name, tb->name);
    char why[200];
    /* the real table's types, where the database has it */
    sb_printf(&sql, e->temp_like, name.buf, name.buf);
    int rc = exec_server_script(m->engine, sql.buf, why, sizeof why);
    if (rc) { /* no such table: the declared types */
      sql.len = 0;
      sb_printf(&sql, "%s %s (", e->temp_create, name.buf);
      for (int k = 0; k < tb->ncolumns; k++) {
        const sqlsim_column *c = &s->columns[tb->first_column + k];
        if (k) sb_puts(&sql, ", ");
        e->put_name(&sql, c->name);
        sb_printf(&sql, " %s", e->declared_type(c->type));
      }
      sb_putc(&sql, ')');
      rc = exec_server_script(m->engine, sql.buf, why, sizeof why);
    }
    if (rc) {
      snprintf(m->err, sizeof m->err, "table %.60s cannot be made on the engine: %.120s", tb->name, why);
      free(sql.buf);
      free(name.buf);
      return -1;
    }
    /* its columns as made, for a witness the server loads */
    first_row f = {{0}, 0};
    strbuf q = {0};
    exec_server_columns_sql(m->engine, &q, tb->name);
    if (exec_server_rows(m->engine, q.buf, add_row, &f, why, sizeof why) == 0 && f.n) m->ddl[t] = strdup(f.sb.buf);
    if (!m->ddl[t]) { /* made from the declared types: those */
      strbuf d = {0};
      for (int k = 0; k < tb->ncolumns; k++) {
        const sqlsim_column *c = &s->columns[tb->first_column + k];
        if (k) sb_puts(&d, ", ");
        e->put_name(&d, c->name);
        sb_printf(&d, " %s", e->declared_type(c->type));
      }
      m->ddl[t] = sb_take(&d);
    }
    free(f.sb.buf);
    free(q.buf);
    free(sql.buf);
    free(name.buf);
  }
  m->created = 1;
  return 0;
}

/* A value of the scratch's row as the server's literal. */
static void put_value(synth_mirror *m, strbuf *sb, sqlite3_stmt *st, int k) {
  switch (sqlite3_column_type(st, k)) {
  case SQLITE_NULL: sb_puts(sb, "NULL"); break;
  case SQLITE_INTEGER: sb_printf(sb, "%lld", (long long)sqlite3_column_int64(st, k)); break;
  case SQLITE_FLOAT: {
    double x = sqlite3_column_double(st, k);
    if (x != x || x > 1.7976931348623157e308 || x < -1.7976931348623157e308) sb_puts(sb, "NULL");
    else sb_printf(sb, "%.17g", x);
    break;
  }
  case SQLITE_BLOB: {
    const unsigned char *b = sqlite3_column_blob(st, k);
    int n = sqlite3_column_bytes(st, k);
    exec_engine_of(m->engine)->put_blob(sb, b, (size_t)n);
    break;
  }
  default:
    exec_server_quote(m->engine, sb, (const char *)sqlite3_column_text(st, k), (size_t)sqlite3_column_bytes(st, k));
  }
}

/* The scratch's rows into the engine's temporary tables, when they moved:
 * 0, or -1 with m->err. */
static int sync(synth_mirror *m, sqlsim_db *scratch) {
  if (!m->created && make_tables(m)) return -1;
  if (!m->sig) {
    m->sig = calloc((size_t)m->ntables + 1, sizeof *m->sig);
    m->nrows = calloc((size_t)m->ntables + 1, sizeof *m->nrows);
    m->sig_ok = calloc((size_t)m->ntables + 1, 1);
    if (!m->sig || !m->nrows || !m->sig_ok) return -1;
  }
  unsigned long v = exec_writes(scratch);
  if (m->synced && m->version == v) return m->load_failed ? -1 : 0;
  const sqlsim_schema *s = m->s;
  const exec_engine *e = exec_engine_of(m->engine);
  strbuf sql = {0};
  void *saved;
  exec_enter(scratch, 10, &saved);
  exec_trust(scratch, 1);
  sqlite3 *h = exec_handle(scratch);
  strbuf rows = {0};
  for (int t = 0; t < s->ntables; t++) {
    const sqlsim_table *tb = &s->tables[t];
    strbuf name = {0};
    e->put_name(&name, tb->name);
    rows.len = 0;
    strbuf sel = {0};
    sb_puts(&sel, "SELECT * FROM ");
    sb_ident(&sel, tb->name);
    sqlite3_stmt *st = NULL;
    int n = 0;
    if (sqlite3_prepare_v2(h, sel.buf, -1, &st, NULL) == SQLITE_OK) {
      while (sqlite3_step(st) == SQLITE_ROW) {
        if (!n++) {
          sb_printf(&rows, "INSERT INTO %s (", name.buf);
          for (int k = 0; k < tb->ncolumns; k++) {
            if (k) sb_puts(&rows, ", ");
            e->put_name(&rows, s->columns[tb->first_column + k].name);
          }
          sb_puts(&rows, ") VALUES ");
        } else {
          sb_puts(&rows, ", ");
        }
        sb_putc(&rows, '(');
        for (int k = 0; k < tb->ncolumns && k < sqlite3_column_count(st); k++) {
          if (k) sb_puts(&rows, ", ");
          put_value(m, &rows, st, k);
        }
        sb_putc(&rows, ')');
      }
    }
    sqlite3_finalize(st);
    free(sel.buf);
    /* a table the engine holds as it is now is left alone */
    uint64_t sig = FNV_OFFSET ^ (uint64_t)n;
    for (size_t i = 0; i < rows.len; i++) sig = (sig ^ (unsigned char)rows.buf[i]) * FNV_PRIME;
    if (!m->sig_ok[t] || m->sig[t] != sig) {
      if (!m->sig_ok[t] || m->nrows[t]) sb_printf(&sql, "DELETE FROM %s;\n", name.buf);
      if (n) {
        sb_putn(&sql, rows.buf, rows.len);
        sb_puts(&sql, ";\n");
      }
      m->sig[t] = sig;
      m->nrows[t] = n;
      m->sig_ok[t] = 1;
    }
    free(name.buf);
  }
  free(rows.buf);
  exec_trust(scratch, 0);
  exec_leave(scratch, saved);
  char why[200];
  int rc = sql.len ? exec_server_script(m->engine, sql.buf, why, sizeof why) : 0; /* nothing moved: no round trip */
  if (!rc && sql.len) { /* the engine's upkeep of tables reloaded thousands of times */
    const char **names = malloc(sizeof *names * (size_t)(s->ntables + 1));
    for (int t = 0; names && t < s->ntables; t++) names[t] = s->tables[t].name;
    if (names && exec_server_reloaded(m->engine, names, s->ntables, ++m->loads)) forget(m);
    free(names);
  }
  free(sql.buf);
  m->synced = 1;
  m->version = v;
  m->load_failed = rc != 0;
  if (rc) memset(m->sig_ok, 0, (size_t)s->ntables); /* what the engine holds is not known now */
  if (rc) snprintf(m->err, sizeof m->err, "the generated database does not load on the engine: %.150s", why);
  return rc;
}

/* The engine the scratch's queries run on, ready with its rows; NULL for
 * the scratch itself; *failed when the rows did not load. */
static sqlsim_db *target(sqlsim_db *scratch, synth_mirror **out, int *failed) {
  synth_mirror *m = exec_user(scratch);
  *out = m;
  *failed = 0;
  if (!m || !m->engine || m->paused) return NULL;
  *failed = sync(m, scratch) != 0;
  return m->engine;
}

void synth_exec(sqlsim_db *scratch, const char *sql, unsigned flags, sqlsim_result *r) {
  synth_mirror *m;
  int failed;
  flags |= SQLSIM_EXEC_NO_CPU_TIME; /* no run on a generated database is timed */
  sqlsim_db *e = target(scratch, &m, &failed);
  if (!e) {
    sqlsim_exec_flags(scratch, sql, flags, r);
    return;
  }
  if (failed) {
    memset(r, 0, sizeof *r);
    r->status = SQLSIM_EXEC_ERROR;
    snprintf(r->reason, sizeof r->reason, "%s", m->err);
    return;
  }
  sqlsim_exec_flags(e, sql, flags, r);
  if (r->reconnected) { /* a new session has no temporary tables: that answer read the real ones */
    sqlsim_result_free(r);
    memset(r, 0, sizeof *r);
    r->status = SQLSIM_EXEC_ERROR;
    snprintf(r->reason, sizeof r->reason, "the engine's connection was lost: the database is made there again");
    forget(m);
  }
}

void synth_exec_own(sqlsim_db *scratch, const char *sql, unsigned flags, sqlsim_result *r) {
  synth_exec(scratch, sql, flags, r);
  if (r->status == SQLSIM_EXEC_OK || !exec_user(scratch)) return;
  /* sqlsim's own SQL is SQLite's: where the engine does not read it, the same
   * rows on the scratch answer it */
  sqlsim_result_free(r);
  sqlsim_exec_flags(scratch, sql, flags, r);
}

char *synth_rows_json(sqlsim_db *scratch, const char *sql, const long *want, int nwant, int first_n, long *count,
                      char **err) {
  synth_mirror *m;
  int failed;
  sqlsim_db *e = target(scratch, &m, &failed);
  if (!e) return exec_rows_json(scratch, sql, want, nwant, first_n, count, err);
  int before = sqlsim_db_reconnects(e);
  if (!failed) {
    char *rows = exec_rows_json(e, sql, want, nwant, first_n, count, err);
    if (sqlsim_db_reconnects(e) == before) return rows;
    free(rows);
    free(*err);
    forget(m);
    snprintf(m->err, sizeof m->err, "the engine's connection was lost: the database is made there again");
  }
  *count = -1;
  *err = strdup(m->err);
  return strdup("[]");
}

char *synth_mirror_sql(const synth_mirror *m, const synth_data *d) {
  const sqlsim_schema *s = d->s;
  const exec_engine *e = exec_engine_of(m->engine);
  strbuf sb = {0};
  for (int t = 0; t < s->ntables; t++) {
    if (!d->on[t]) continue;
    strbuf name = {0};
    e->put_name(&name, s->tables[t].name);
    sb_printf(&sb, "CREATE TABLE %s (%s);\n", name.buf, m->ddl && m->ddl[t] ? m->ddl[t] : "");
    for (int r = 0; r < d->nrows[t]; r++) {
      const synth_val *row = synth_data_row(d, t, r);
      sb_printf(&sb, "INSERT INTO %s VALUES (", name.buf);
      for (int c = 0; c < s->tables[t].ncolumns; c++) {
        const synth_val *v = &row[c];
        if (c) sb_puts(&sb, ", ");
        if (v->kind == 'i') sb_printf(&sb, "%lld", v->i);
        else if (v->kind == 'r') sb_printf(&sb, "%.17g", v->r);
        else if (v->kind == 't') exec_server_quote(m->engine, &sb, v->t, strlen(v->t));
        else sb_puts(&sb, "NULL");
      }
      sb_puts(&sb, ");\n");
    }
    free(name.buf);
  }
  return sb_take(&sb);
}
