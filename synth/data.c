/* data.c -- the rows of one small database, held in memory: read back from
 * the connection the generator filled, changed (the suite's variations, the
 * witness's shrinking), checked against the schema, loaded again, and
 * written as SQL text that plain sqlite3 loads.
 *
 * What the schema allows (synth_data_valid): a column declared a number type
 * (sqlsim_column.numeric: tables.json's number, integer, real; INTEGER,
 * REAL, NUMERIC, DECIMAL in a SQLite file) holds numbers (SQLite turns
 * numeric text into numbers on the way in; other text stays text, which such
 * a column must not hold; none of the 159 number columns of Spider's 19
 * bundled databases holds any); DATE and BOOLEAN columns may hold text; a column
 * declared NOT NULL, or part of the primary key, holds no NULL; the primary
 * key (all its columns together) and every UNIQUE column hold no value
 * twice; a foreign key's value is NULL or one its parent holds, a key of
 * several columns as a whole (the pairs of one child table that reference
 * the whole primary key of one parent table). tables.json says nothing of
 * NOT NULL or UNIQUE: there, the primary key is taken as NOT NULL and every
 * other column as nullable (docs/synthetic.md). */
#include "synth.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

synth_data *synth_data_new(const sqlsim_schema *s) {
  synth_data *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->s = s;
  d->ntables = s->ntables;
  d->a = sqlsim_arena_new();
  d->nrows = calloc((size_t)s->ntables + 1, sizeof *d->nrows);
  d->cap = calloc((size_t)s->ntables + 1, sizeof *d->cap);
  d->rows = calloc((size_t)s->ntables + 1, sizeof *d->rows);
  d->on = calloc((size_t)s->ntables + 1, 1);
  if (!d->a || !d->nrows || !d->cap || !d->rows || !d->on) {
    synth_data_free(d);
    return NULL;
  }
  return d;
}

void synth_data_free(synth_data *d) {
  if (!d) return;
  if (d->rows)
    for (int t = 0; t < d->ntables; t++) free(d->rows[t]);
  free(d->rows);
  free(d->nrows);
  free(d->cap);
  free(d->on);
  sqlsim_arena_free(d->a);
  free(d);
}

static int ncols(const synth_data *d, int t) { return d->s->tables[t].ncolumns; }

synth_val *synth_data_row(const synth_data *d, int t, int r) {
  return &d->rows[t][(size_t)r * (size_t)ncols(d, t)];
}

synth_val *synth_data_add_row(synth_data *d, int t) {
  int nc = ncols(d, t);
  if (d->nrows[t] == d->cap[t]) {
    int cap = d->cap[t] ? 2 * d->cap[t] : 8;
    synth_val *v = realloc(d->rows[t], sizeof *v * (size_t)cap * (size_t)(nc ? nc : 1));
    if (!v) return NULL;
    d->rows[t] = v;
    d->cap[t] = cap;
  }
  synth_val *row = synth_data_row(d, t, d->nrows[t]++);
  for (int i = 0; i < nc; i++) row[i] = (synth_val){.kind = 'n'};
  d->on[t] = 1;
  return row;
}

void synth_data_delete_row(synth_data *d, int t, int r) {
  int nc = ncols(d, t);
  memmove(synth_data_row(d, t, r), synth_data_row(d, t, r + 1),
          sizeof(synth_val) * (size_t)nc * (size_t)(d->nrows[t] - r - 1));
  d->nrows[t]--;
}

synth_data *synth_data_copy(const synth_data *d) {
  synth_data *c = synth_data_new(d->s);
  if (!c) return NULL;
  for (int t = 0; t < d->s->ntables; t++) {
    c->on[t] = d->on[t];
    for (int r = 0; r < d->nrows[t]; r++) {
      synth_val *row = synth_data_add_row(c, t);
      if (!row) {
        synth_data_free(c);
        return NULL;
      }
      memcpy(row, synth_data_row(d, t, r), sizeof *row * (size_t)ncols(d, t));
      for (int i = 0; i < ncols(d, t); i++) /* text lives in the copy's own arena */
        if (row[i].kind == 't') row[i].t = sqlsim_arena_strdup(c->a, row[i].t);
    }
  }
  return c;
}

long synth_data_size(const synth_data *d) {
  long n = 0;
  for (int t = 0; t < d->s->ntables; t++) n += d->nrows[t];
  return n;
}


/* A child's key value against its parent's as SQLite compares them in a join
 * (a numeric column's affinity turns the other side's numeric text into a
 * number: a TEXT '3' meets a NUMERIC 3). */
static int key_eq(const synth_val *a, const synth_val *b) {
  if (synth_val_eq(a, b)) return 1;
  const synth_val *t = a->kind == 't' ? a : b->kind == 't' ? b : NULL, *n = t == a ? b : a;
  if (!t || (n->kind != 'i' && n->kind != 'r')) return 0;
  char *end;
  double v = strtod(t->t, &end);
  return end != t->t && !*end && v == (n->kind == 'i' ? (double)n->i : n->r);
}

/* ---------------------------------------------------------------- from and to SQLite */

int synth_data_read(sqlite3 *db, const sqlsim_schema *s, const unsigned char *tables, synth_data **out) {
  *out = NULL;
  synth_data *d = synth_data_new(s);
  if (!d) return -1;
  strbuf sb = {0};
  int rc = 0;
  for (int t = 0; t < s->ntables && !rc; t++) {
    if (!tables[t]) continue;
    d->on[t] = 1;
    sb.len = 0;
    sb_puts(&sb, "SELECT * FROM ");
    sb_ident(&sb, s->tables[t].name);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sb.buf, -1, &st, NULL) != SQLITE_OK) {
      rc = -1;
      break;
    }
    int nc = s->tables[t].ncolumns;
    if (sqlite3_column_count(st) != nc) rc = -1;
    while (!rc && sqlite3_step(st) == SQLITE_ROW) {
      synth_val *row = synth_data_add_row(d, t);
      if (!row) {
        rc = -1;
        break;
      }
      for (int i = 0; i < nc; i++) {
        switch (sqlite3_column_type(st, i)) {
        case SQLITE_INTEGER: row[i] = (synth_val){.kind = 'i', .i = sqlite3_column_int64(st, i)}; break;
        case SQLITE_FLOAT: row[i] = (synth_val){.kind = 'r', .r = sqlite3_column_double(st, i)}; break;
        case SQLITE_NULL: row[i] = (synth_val){.kind = 'n'}; break;
        default: {
          const unsigned char *txt = sqlite3_column_text(st, i);
          int len = sqlite3_column_bytes(st, i);
          row[i] = (synth_val){.kind = 't', .t = sqlsim_arena_strndup(d->a, txt ? (const char *)txt : "", (size_t)len)};
        }
        }
      }
    }
    sqlite3_finalize(st);
  }
  sb_free(&sb);
  if (rc) {
    synth_data_free(d);
    return -1;
  }
  *out = d;
  return 0;
}

uint64_t synth_table_sig(const synth_data *d, int t) {
  uint64_t h = fnv1a_word(FNV_OFFSET, (uint64_t)d->nrows[t]);
  int nc = d->s->tables[t].ncolumns;
  for (int r = 0; r < d->nrows[t]; r++) {
    const synth_val *row = synth_data_row(d, t, r);
    for (int i = 0; i < nc; i++) {
      const synth_val *v = &row[i];
      h = fnv1a_word(h, (uint64_t)(unsigned char)v->kind);
      if (v->kind == 'i') h = fnv1a_word(h, (uint64_t)v->i);
      else if (v->kind == 'r') {
        uint64_t bits;
        memcpy(&bits, &v->r, sizeof bits);
        h = fnv1a_word(h, bits);
      } else if (v->kind == 't')
        h = fnv1a_str(h, v->t);
    }
  }
  return mix64(h);
}

static int bind(sqlite3_stmt *st, int i, const synth_val *v) {
  switch (v->kind) {
  case 'i': return sqlite3_bind_int64(st, i, v->i);
  case 'r': return sqlite3_bind_double(st, i, v->r);
  case 't': return sqlite3_bind_text(st, i, v->t, -1, SQLITE_STATIC);
  default: return sqlite3_bind_null(st, i);
  }
}

int synth_rows_load(sqlite3 *db, const sqlsim_schema *s, synth_val *const *cells, const int *nrows,
                    const unsigned char *keep, int lenient, unsigned char *filled, long *inserted, char *why,
                    size_t wn) {
  strbuf sb = {0};
  int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
  for (int t = 0; rc == SQLITE_OK && t < s->ntables; t++) {
    if (!filled[t] || (keep && keep[t])) continue;
    sb.len = 0;
    sb_puts(&sb, "DELETE FROM ");
    sb_ident(&sb, s->tables[t].name);
    rc = sqlite3_exec(db, sb.buf, NULL, NULL, NULL);
    filled[t] = 0;
  }
  for (int t = 0; rc == SQLITE_OK && t < s->ntables; t++) {
    int nc = s->tables[t].ncolumns;
    if (!cells[t] || !nrows[t] || !nc || (keep && keep[t])) continue;
    sb.len = 0;
    sb_puts(&sb, lenient ? "INSERT OR IGNORE INTO " : "INSERT INTO ");
    sb_ident(&sb, s->tables[t].name);
    sb_puts(&sb, " VALUES (");
    for (int i = 0; i < nc; i++) sb_puts(&sb, i ? ",?" : "?");
    sb_putc(&sb, ')');
    sqlite3_stmt *st = NULL;
    rc = sqlite3_prepare_v2(db, sb.buf, -1, &st, NULL);
    filled[t] = 1;
    for (int r = 0; rc == SQLITE_OK && r < nrows[t]; r++) {
      for (int i = 0; i < nc; i++) bind(st, i + 1, &cells[t][(size_t)r * (size_t)nc + (size_t)i]);
      int step = sqlite3_step(st);
      if (step == SQLITE_DONE) {
        if (inserted) *inserted += sqlite3_changes(db);
      } else if (!lenient || (step != SQLITE_CONSTRAINT && step != SQLITE_MISMATCH)) {
        rc = lenient ? step : sqlite3_errcode(db);
      }
      sqlite3_reset(st);
    }
    sqlite3_finalize(st);
  }
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  if (rc != SQLITE_OK) {
    snprintf(why, wn, "%s rows: %s", lenient ? "generating" : "loading", sqlite3_errmsg(db));
    sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  }
  sb_free(&sb);
  return rc == SQLITE_OK ? 0 : -1;
}

int synth_data_load(sqlite3 *db, const synth_data *d, const unsigned char *keep, unsigned char *filled, char *why,
                    size_t wn) {
  return synth_rows_load(db, d->s, d->rows, d->nrows, keep, 0, filled, NULL, why, wn);
}

/* ---------------------------------------------------------------- what the schema allows */

static int not_null(const sqlsim_column *c) { return c->notnull || c->pk; }

int synth_fkey_groups_of(const sqlsim_schema *s, synth_fkey_groups *g) {
  int nf = s->nfkeys, pos = 0;
  g->order = malloc(sizeof(int) * (size_t)(nf + 1));
  g->start = malloc(sizeof(int) * (size_t)(nf + 1));
  g->len = malloc(sizeof(int) * (size_t)(nf + 1));
  g->n = 0;
  unsigned char *used = calloc((size_t)nf + 1, 1);
  int *members = malloc(sizeof(int) * (size_t)(nf + 1));
  if (!g->order || !g->start || !g->len || !used || !members) {
    free(used);
    free(members);
    return -1;
  }
  for (int f = 0; f < nf; f++) {
    if (used[f]) continue;
    int ct = s->columns[s->fkeys[f].column].table, pt = s->columns[s->fkeys[f].ref_column].table;
    int npk = 0, m = 0;
    for (int i = 0; i < s->tables[pt].ncolumns; i++) npk += s->columns[s->tables[pt].first_column + i].pk;
    for (int j = f; j < nf; j++)
      if (!used[j] && s->columns[s->fkeys[j].column].table == ct && s->columns[s->fkeys[j].ref_column].table == pt &&
          s->columns[s->fkeys[j].ref_column].pk)
        members[m++] = j;
    if (!(npk >= 2 && m == npk && s->columns[s->fkeys[f].ref_column].pk)) { /* a key of its own */
      m = 1;
      members[0] = f;
    }
    g->start[g->n] = pos;
    g->len[g->n++] = m;
    for (int j = 0; j < m; j++) {
      g->order[pos++] = members[j];
      used[members[j]] = 1;
    }
  }
  free(members);
  free(used);
  return 0;
}

void synth_fkey_groups_free(synth_fkey_groups *g) {
  free(g->order);
  free(g->start);
  free(g->len);
}

/* Do rows a of table t and b of the same table agree on columns cols[0..n)? */
static int rows_agree(const synth_data *d, int t, int a, int b, const int *cols, int n) {
  const synth_val *x = synth_data_row(d, t, a), *y = synth_data_row(d, t, b);
  int first = d->s->tables[t].first_column;
  for (int i = 0; i < n; i++)
    if (!synth_val_eq(&x[cols[i] - first], &y[cols[i] - first])) return 0;
  return 1;
}

/* Row r of the child table of a whole foreign key (its m pairs
 * s->fkeys[pairs[..]]) has its parent row, or asks for none (a NULL in the
 * key). */
static int has_parent(const synth_data *d, const int *pairs, int m, int r) {
  const sqlsim_schema *s = d->s;
  int ct = s->columns[s->fkeys[pairs[0]].column].table, pt = s->columns[s->fkeys[pairs[0]].ref_column].table;
  int cf = s->tables[ct].first_column, pf = s->tables[pt].first_column;
  const synth_val *row = synth_data_row(d, ct, r);
  for (int j = 0; j < m; j++)
    if (row[s->fkeys[pairs[j]].column - cf].kind == 'n') return 1;
  for (int p = 0; p < d->nrows[pt]; p++) {
    const synth_val *prow = synth_data_row(d, pt, p);
    int found = 1;
    for (int j = 0; j < m && found; j++)
      found = key_eq(&row[s->fkeys[pairs[j]].column - cf], &prow[s->fkeys[pairs[j]].ref_column - pf]);
    if (found) return 1;
  }
  return 0;
}

int synth_data_valid(const synth_data *d, char *why, size_t wn) {
  const sqlsim_schema *s = d->s;
  int bad = 0;
  for (int t = 0; t < s->ntables && !bad; t++) {
    const sqlsim_table *tab = &s->tables[t];
    int pk[64], npk = 0;
    for (int i = 0; i < tab->ncolumns; i++) {
      const sqlsim_column *c = &s->columns[tab->first_column + i];
      if (c->pk && npk < 64) pk[npk++] = tab->first_column + i;
      for (int r = 0; r < d->nrows[t] && !bad; r++) {
        const synth_val *v = &synth_data_row(d, t, r)[i];
        if (v->kind == 'n' && not_null(c)) {
          snprintf(why, wn, "NULL in %s.%s, which may not be NULL", tab->name, c->name);
          bad = 1;
        } else if (v->kind == 't' && synth_numeric_column(c) && !synth_numeric_text(v->t)) {
          snprintf(why, wn, "text '%.40s' in %s.%s, declared %s", v->t, tab->name, c->name, c->type);
          bad = 1;
        } else if (v->kind == 'r' && v->r != floor(v->r) && core_type_affinity(c->type) == 'I') {
          snprintf(why, wn, "%g in %s.%s, declared %s", v->r, tab->name, c->name, c->type);
          bad = 1;
        }
      }
      if (c->unique && !c->pk) { /* UNIQUE: no value twice (NULLs are all distinct) */
        int col = tab->first_column + i;
        for (int a = 0; a < d->nrows[t] && !bad; a++)
          for (int b = a + 1; b < d->nrows[t] && !bad; b++)
            if (synth_data_row(d, t, a)[i].kind != 'n' && rows_agree(d, t, a, b, &col, 1)) {
              snprintf(why, wn, "%s.%s holds a value twice, declared UNIQUE", tab->name, c->name);
              bad = 1;
            }
      }
    }
    for (int a = 0; npk && a < d->nrows[t] && !bad; a++)
      for (int b = a + 1; b < d->nrows[t] && !bad; b++)
        if (rows_agree(d, t, a, b, pk, npk)) {
          snprintf(why, wn, "two rows of %s with one primary key", tab->name);
          bad = 1;
        }
  }
  if (bad) return 0;
  synth_fkey_groups g;
  if (synth_fkey_groups_of(s, &g)) {
    synth_fkey_groups_free(&g);
    snprintf(why, wn, "out of memory");
    return 0;
  }
  for (int k = 0; k < g.n && !bad; k++) {
    const int *pairs = &g.order[g.start[k]];
    int m = g.len[k];
    int ct = s->columns[s->fkeys[pairs[0]].column].table, pt = s->columns[s->fkeys[pairs[0]].ref_column].table;
    for (int r = 0; r < d->nrows[ct] && !bad; r++) {
      if (!has_parent(d, pairs, m, r)) {
        snprintf(why, wn, "a row of %s whose %s has no parent in %s", s->tables[ct].name,
                 s->columns[s->fkeys[pairs[0]].column].name, s->tables[pt].name);
        bad = 1;
      }
    }
  }
  synth_fkey_groups_free(&g);
  return !bad;
}

/* ---------------------------------------------------------------- as SQL text */

static void sql_value(strbuf *sb, const synth_val *v) {
  switch (v->kind) {
  case 'i': sb_printf(sb, "%lld", v->i); break;
  case 'r':
    if (isnan(v->r)) sb_puts(sb, "NULL");
    else if (isinf(v->r)) sb_puts(sb, v->r > 0 ? "9e999" : "-9e999");
    else if (v->r == floor(v->r) && fabs(v->r) < 1e15) sb_printf(sb, "%.1f", v->r);
    else sb_printf(sb, "%.17g", v->r);
    break;
  case 't':
    sb_putc(sb, '\'');
    for (const char *p = v->t; *p; p++) {
      if (*p == '\'') sb_putc(sb, '\'');
      sb_putc(sb, *p);
    }
    sb_putc(sb, '\'');
    break;
  default: sb_puts(sb, "NULL");
  }
}

/* The tables synth_data_sql writes, in the order it writes them: those
 * marked on and the tables their foreign keys lead to (empty when they hold
 * no row: foreign keys enforced, a child needs its parent's table), parents
 * before children as far as the keys allow. *cycle is 1 when some key leads
 * back to its own table (rows must then wait for the commit). Returns the
 * number of tables in order[]. */
static int sql_order(const synth_data *d, int *order, unsigned char *on, int *cycle) {
  const sqlsim_schema *s = d->s;
  int nt = s->ntables, n = 0;
  *cycle = 0;
  for (int t = 0; t < nt; t++) on[t] = d->on[t] || d->nrows[t] > 0;
  for (int changed = 1; changed;) { /* the parents of the tables written */
    changed = 0;
    for (int k = 0; k < s->nfkeys; k++) {
      int ct = s->columns[s->fkeys[k].column].table, pt = s->columns[s->fkeys[k].ref_column].table;
      if (on[ct] && !on[pt] && strncmp(s->tables[pt].key, "sqlite_", 7)) changed = on[pt] = 1;
    }
  }
  unsigned char *placed = calloc((size_t)nt + 1, 1);
  if (!placed) return -1;
  while (n < nt) { /* a table whose parents are placed; on a cycle, the first left */
    int pick = -1, any = -1;
    for (int t = 0; t < nt && pick < 0; t++) {
      if (!on[t] || placed[t]) continue;
      if (any < 0) any = t;
      int ready = 1;
      for (int k = 0; k < s->nfkeys && ready; k++) {
        int ct = s->columns[s->fkeys[k].column].table, pt = s->columns[s->fkeys[k].ref_column].table;
        if (ct == t && pt != t && on[pt] && !placed[pt]) ready = 0;
        if (ct == t && pt == t) *cycle = 1;
      }
      if (ready) pick = t;
    }
    if (any < 0) break;
    if (pick < 0) {
      pick = any;
      *cycle = 1;
    }
    placed[pick] = 1;
    order[n++] = pick;
  }
  free(placed);
  return n;
}

char *synth_data_sql(const synth_data *d) {
  const sqlsim_schema *s = d->s;
  int *order = malloc(sizeof *order * (size_t)(s->ntables + 1)), cycle = 0;
  unsigned char *on = calloc((size_t)s->ntables + 1, 1), *one = calloc((size_t)s->ntables + 1, 1);
  int n = order && on && one ? sql_order(d, order, on, &cycle) : -1;
  strbuf sb = {0};
  for (int i = 0; i < n; i++) { /* CREATE TABLE, parents first */
    one[order[i]] = 1;
    char *ddl = sqlsim_schema_ddl_tables(s, one);
    one[order[i]] = 0;
    if (ddl) sb_puts(&sb, ddl);
    free(ddl);
  }
  /* a key that leads back to its own table: the rows are checked at the
   * commit (the keys enforced, as `PRAGMA foreign_keys = ON` does) */
  if (cycle) sb_puts(&sb, "BEGIN;\nPRAGMA defer_foreign_keys = ON;\n");
  for (int i = 0; i < n; i++) {
    int t = order[i], nc = ncols(d, t);
    for (int r = 0; r < d->nrows[t]; r++) {
      sb_puts(&sb, "INSERT INTO ");
      sb_ident(&sb, s->tables[t].name);
      sb_puts(&sb, " VALUES (");
      const synth_val *row = synth_data_row(d, t, r);
      for (int c = 0; c < nc; c++) {
        if (c) sb_puts(&sb, ", ");
        sql_value(&sb, &row[c]);
      }
      sb_puts(&sb, ");\n");
    }
  }
  if (cycle) sb_puts(&sb, "COMMIT;\n");
  free(order);
  free(on);
  free(one);
  return sb_take(&sb);
}

char *synth_data_json(const synth_data *d) {
  const sqlsim_schema *s = d->s;
  strbuf sb = {0};
  sb_putc(&sb, '[');
  int first = 1;
  for (int t = 0; t < s->ntables; t++) {
    if (!d->on[t]) continue;
    const sqlsim_table *tab = &s->tables[t];
    sb_puts(&sb, first ? "{\"name\":" : ",{\"name\":");
    first = 0;
    sb_json_str(&sb, tab->name);
    sb_puts(&sb, ",\"columns\":[");
    for (int i = 0; i < tab->ncolumns; i++) {
      if (i) sb_putc(&sb, ',');
      sb_json_str(&sb, s->columns[tab->first_column + i].name);
    }
    sb_puts(&sb, "],\"rows\":[");
    for (int r = 0; r < d->nrows[t]; r++) {
      const synth_val *row = synth_data_row(d, t, r);
      sb_puts(&sb, r ? ",[" : "[");
      for (int i = 0; i < tab->ncolumns; i++) {
        if (i) sb_putc(&sb, ',');
        const synth_val *v = &row[i];
        if (v->kind == 'i') sb_printf(&sb, "%lld", v->i);
        else if (v->kind == 'r') sb_json_real(&sb, v->r);
        else if (v->kind == 't') sb_json_str(&sb, v->t);
        else sb_puts(&sb, "null");
      }
      sb_putc(&sb, ']');
    }
    sb_puts(&sb, "]}");
  }
  sb_putc(&sb, ']');
  return sb_take(&sb);
}

/* ---------------------------------------------------------------- changes the schema allows */

void synth_data_cascade(synth_data *d) {
  const sqlsim_schema *s = d->s;
  synth_fkey_groups g;
  synth_fkey_groups_of(s, &g);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int k = 0; k < g.n; k++) {
      const int *pairs = &g.order[g.start[k]];
      int m = g.len[k];
      int ct = s->columns[s->fkeys[pairs[0]].column].table;
      for (int r = d->nrows[ct] - 1; r >= 0; r--) {
        if (!has_parent(d, pairs, m, r)) {
          synth_data_delete_row(d, ct, r);
          changed = 1;
        }
      }
    }
  }
  synth_fkey_groups_free(&g);
}

synth_data *synth_vary_empty(const synth_data *d, int t) {
  if (!d->nrows[t]) return NULL;
  synth_data *c = synth_data_copy(d);
  if (!c) return NULL;
  c->nrows[t] = 0;
  synth_data_cascade(c);
  return c;
}

/* A column some foreign key points at. */
static int referenced(const sqlsim_schema *s, int col) {
  for (int f = 0; f < s->nfkeys; f++)
    if (s->fkeys[f].ref_column == col) return 1;
  return 0;
}

int synth_nullable(const sqlsim_schema *s, int col) {
  const sqlsim_column *x = &s->columns[col];
  return !x->pk && !x->notnull && !referenced(s, col);
}

int synth_data_holds_null(const synth_data *d, const unsigned char *tables) {
  for (int t = 0; t < d->s->ntables; t++) {
    if (tables && !tables[t]) continue;
    int n = d->nrows[t] * ncols(d, t);
    for (int i = 0; i < n; i++)
      if (d->rows[t][i].kind == 'n') return 1;
  }
  return 0;
}

int synth_may_null(const synth_facts *f, int col) {
  const synth_val null = {.kind = 'n'};
  return !f->no_nulls && synth_nullable(f->schema, col) && synth_check_allows(f->checks, col, &null);
}

synth_data *synth_vary_nulls(const synth_data *d, const synth_facts *f, int parity, int only) {
  const sqlsim_schema *s = d->s;
  synth_data *c = NULL;
  for (int t = 0; t < s->ntables; t++) {
    if (!f->tables[t]) continue;
    for (int i = 0; i < s->tables[t].ncolumns; i++) {
      int col = s->tables[t].first_column + i;
      if ((only >= 0 && col != only) || !synth_may_null(f, col)) continue;
      for (int r = parity & 1; r < d->nrows[t]; r += parity == 2 ? 1 : 2) {
        if (synth_data_row(d, t, r)[i].kind == 'n') continue;
        if (!c && !(c = synth_data_copy(d))) return NULL;
        synth_data_row(c, t, r)[i] = (synth_val){.kind = 'n'};
      }
    }
  }
  return c;
}

/* A copy of d where, in the pair's tables, the rows of the given parity have
 * each free number (a number column that is no key, no foreign key and not
 * referenced) replaced by what to() makes of it (0 from to(): kept), where
 * the column's CHECKs allow the new value; NULL when nothing changed. */
static synth_data *vary_free_numbers(const synth_data *d, const synth_facts *f, int parity,
                                     int (*to)(const synth_facts *f, int col, const synth_val *v, synth_val *w)) {
  const sqlsim_schema *s = d->s;
  synth_data *c = NULL;
  for (int t = 0; t < s->ntables; t++) {
    if (!f->tables[t]) continue;
    for (int i = 0; i < s->tables[t].ncolumns; i++) {
      int col = s->tables[t].first_column + i;
      const sqlsim_column *x = &s->columns[col];
      int is_fk = 0;
      for (int k = 0; k < s->nfkeys; k++) is_fk |= s->fkeys[k].column == col;
      if (x->pk || x->unique || is_fk || !synth_numeric_column(x) || referenced(s, col)) continue;
      for (int r = parity; r < d->nrows[t]; r += 2) {
        synth_val w;
        if (!to(f, col, &synth_data_row(d, t, r)[i], &w) || !synth_check_allows(f->checks, col, &w)) continue;
        if (!c && !(c = synth_data_copy(d))) return NULL;
        synth_data_row(c, t, r)[i] = w;
      }
    }
  }
  return c;
}

/* 0 where the cell holds another value (NULL and 0 kept). */
static int to_zero(const synth_facts *f, int col, const synth_val *v, synth_val *w) {
  (void)f, (void)col;
  if (v->kind == 'n' || (v->kind == 'i' && v->i == 0)) return 0;
  *w = (synth_val){.kind = 'i', .i = 0};
  return 1;
}

synth_data *synth_vary_zeros(const synth_data *d, const synth_facts *f, int parity) {
  return vary_free_numbers(d, f, parity, to_zero);
}

synth_data *synth_vary_twice(const synth_data *d, int t) {
  const sqlsim_schema *s = d->s;
  int n = d->nrows[t], nc = s->tables[t].ncolumns, first = s->tables[t].first_column;
  if (!n || n > 60) return NULL;
  synth_data *c = synth_data_copy(d);
  if (!c) return NULL;
  int last_pk = -1;
  for (int i = 0; i < nc; i++)
    if (s->columns[first + i].pk) last_pk = i;
  for (int r = 0; r < n; r++) {
    synth_val *row = synth_data_add_row(c, t);
    if (!row) {
      synth_data_free(c);
      return NULL;
    }
    memcpy(row, synth_data_row(c, t, r), sizeof *row * (size_t)nc);
    for (int i = 0; i < nc; i++) { /* a key's new value: a million on (distinct keys stay
                                     * distinct), or the text marked; of a key of several columns
                                     * the last only, so the new rows share the others (join
                                     * partners on part of the key) */
      const sqlsim_column *x = &s->columns[first + i];
      if (!x->unique && !(x->pk && i == last_pk)) continue;
      synth_val *v = &row[i];
      if (v->kind == 'i') v->i = v->i > LLONG_MAX / 2 ? v->i - 1000000 : v->i + 1000000;
      else if (v->kind == 'r') v->r += 1000000;
      else if (v->kind == 't') v->t = sqlsim_arena_printf(c->a, "%s~%d", v->t, r + 1);
    }
  }
  return c;
}

/* The literal of fact x as a value of the column's kind, or kind 0 when it
 * names no single value (a pattern, a date field). */
static synth_val literal_val(const synth_fact *x) {
  if (x->fmt || x->sub || x->op == SQLSIM_OP_LIKE || x->op == SQLSIM_OP_NOTLIKE || x->op == SQLSIM_OP_GLOB ||
      x->op == SQLSIM_OP_NOTGLOB)
    return (synth_val){0};
  if (!x->num) return (synth_val){.kind = 't', .t = x->text};
  long long i;
  if (core_int_literal(x->text, &i)) return (synth_val){.kind = 'i', .i = i};
  return (synth_val){.kind = 'r', .r = strtod(x->text, NULL)};
}

/* Is v the literal of a fact on column col? */
static int names_literal(const synth_facts *f, int col, const synth_val *v) {
  for (int k = 0; k < f->nfacts; k++) {
    if (f->facts[k].column != col) continue;
    synth_val lit = literal_val(&f->facts[k]);
    if (lit.kind && synth_val_eq(&lit, v)) return 1;
  }
  return 0;
}

/* An integer column's values moved apart within its type: the rows sorted
 * by value, each tie moved up to the next integer free, never past a
 * literal the queries name for the column (nor onto one) nor past the next
 * value held: every comparison with a literal and every order between
 * unequal values as it was. 1 when a value moved. */
static int spread_integers(synth_data *c, const synth_facts *f, int t, int i, int col) {
  int n = c->nrows[t], *order = malloc(sizeof *order * (size_t)(n + 1)), moved = 0;
  if (!order) return 0;
  int m = 0;
  for (int r = 0; r < n; r++)
    if (synth_data_row(c, t, r)[i].kind == 'i') order[m++] = r;
  for (int a = 1; a < m; a++) /* insertion sort by value, then row: at most 120 */
    for (int b = a; b > 0; b--) {
      const synth_val *x = &synth_data_row(c, t, order[b - 1])[i], *y = &synth_data_row(c, t, order[b])[i];
      if (x->i < y->i || (x->i == y->i && order[b - 1] < order[b])) break;
      int tmp = order[b];
      order[b] = order[b - 1];
      order[b - 1] = tmp;
    }
  for (int a = 1; a < m; a++) {
    synth_val *prev = &synth_data_row(c, t, order[a - 1])[i], *v = &synth_data_row(c, t, order[a])[i];
    if (v->i != prev->i || names_literal(f, col, v) || v->i > LLONG_MAX - 1000) continue;
    long long want = prev->i + 1, next = LLONG_MAX; /* the next distinct value held */
    for (int b = a + 1; b < m; b++) {
      long long w = synth_data_row(c, t, order[b])[i].i;
      if (w > v->i) {
        next = w;
        break;
      }
    }
    int ok = want < next;
    for (int k = 0; ok && k < f->nfacts; k++) { /* no literal in (old, new] */
      const synth_fact *x = &f->facts[k];
      if (x->column != col || !x->num) continue;
      double lit = strtod(x->text, NULL);
      if (lit > (double)v->i && lit <= (double)want) ok = 0;
    }
    synth_val w = {.kind = 'i', .i = want};
    if (!ok || !synth_check_allows(f->checks, col, &w)) continue;
    *v = w;
    moved = 1;
  }
  free(order);
  return moved;
}

synth_data *synth_vary_spread(const synth_data *d, const synth_facts *f) {
  const sqlsim_schema *s = d->s;
  synth_data *c = NULL;
  for (int t = 0; t < s->ntables; t++) {
    if (!f->tables[t]) continue;
    for (int i = 0; i < s->tables[t].ncolumns; i++) {
      int col = s->tables[t].first_column + i;
      const sqlsim_column *x = &s->columns[col];
      int is_fk = 0;
      for (int k = 0; k < s->nfkeys; k++) is_fk |= s->fkeys[k].column == col;
      if (x->pk || x->unique || is_fk || referenced(s, col) || !synth_numeric_column(x)) continue;
      if (core_type_affinity(x->type) == 'I') { /* ties broken within the type */
        if (!c && !(c = synth_data_copy(d))) return NULL;
        spread_integers(c, f, t, i, col);
        continue;
      }
      for (int r = 0; r < d->nrows[t]; r++) {
        const synth_val *v = &synth_data_row(d, t, r)[i];
        if ((v->kind != 'i' && v->kind != 'r') || names_literal(f, col, v)) continue;
        double base = v->kind == 'i' ? (double)v->i : v->r;
        if (!isfinite(base) || fabs(base) > 1e12) continue;
        synth_val w = {.kind = 'r', .r = base + (r + 1) * 1e-6 * (fabs(base) + 1)};
        if (!synth_check_allows(f->checks, col, &w)) continue;
        if (!c && !(c = synth_data_copy(d))) return NULL;
        synth_data_row(c, t, r)[i] = w;
      }
    }
  }
  return c;
}

/* Column col may take v in a change: no key, no unique, v of its type and
 * allowed by its CHECKs. */
static int may_take(const synth_data *d, const synth_facts *f, int col, const synth_val *v) {
  const sqlsim_schema *s = d->s;
  const sqlsim_column *x = &s->columns[col];
  if (x->pk || x->unique || referenced(s, col)) return 0;
  for (int k = 0; k < s->nfkeys; k++)
    if (s->fkeys[k].column == col) return 0;
  if (v->kind == 't' && synth_numeric_column(x) && !synth_numeric_text(v->t)) return 0;
  if (v->kind == 'r' && v->r != floor(v->r) && core_type_affinity(x->type) == 'I') return 0;
  return synth_check_allows(f->checks, col, v);
}

synth_data *synth_vary_equal(const synth_data *d, const synth_facts *f, int k) {
  if (k < 0 || k >= f->ncompared) return NULL;
  const sqlsim_schema *s = d->s;
  int a = f->compared[k].a, b = f->compared[k].b;
  int ta = s->columns[a].table, tb = s->columns[b].table;
  int ia = a - s->tables[ta].first_column, ib = b - s->tables[tb].first_column;
  if (!d->nrows[ta] || !d->nrows[tb]) return NULL;
  synth_data *c = NULL;
  if (a == b) { /* each value twice: row r takes row r - 1's */
    if (!may_take(d, f, b, &(synth_val){.kind = 'n'}) && s->columns[b].unique) return NULL;
    for (int r = 1; r < d->nrows[tb]; r += 2) {
      const synth_val *v = &synth_data_row(d, tb, r - 1)[ib];
      if (v->kind == 'n' || synth_val_eq(v, &synth_data_row(d, tb, r)[ib]) || !may_take(d, f, b, v)) continue;
      if (!c && !(c = synth_data_copy(d))) return NULL;
      synth_val w = *v; /* text into the copy's own arena: d may go first */
      if (w.kind == 't') w.t = sqlsim_arena_strdup(c->a, w.t);
      synth_data_row(c, tb, r)[ib] = w;
    }
    return c;
  }
  for (int r = 0; r < d->nrows[tb]; r += 2) {
    const synth_val *v = &synth_data_row(d, ta, ta == tb ? r : r % d->nrows[ta])[ia];
    if (v->kind == 'n' || synth_val_eq(v, &synth_data_row(d, tb, r)[ib]) || !may_take(d, f, b, v)) continue;
    if (!c && !(c = synth_data_copy(d))) return NULL;
    synth_val w = *v;
    if (w.kind == 't') w.t = sqlsim_arena_strdup(c->a, w.t);
    synth_data_row(c, tb, r)[ib] = w;
  }
  return c;
}

/* The value's negative (a negative value one further from 0), unless it is a
 * literal the pair names. */
static int to_negative(const synth_facts *f, int col, const synth_val *v, synth_val *w) {
  if (v->kind == 'i' && v->i > LLONG_MIN + 2) *w = (synth_val){.kind = 'i', .i = v->i > 0 ? -v->i : v->i - 1};
  else if (v->kind == 'r' && isfinite(v->r)) *w = (synth_val){.kind = 'r', .r = v->r > 0 ? -v->r : v->r - 1};
  else return 0;
  return !names_literal(f, col, v);
}

synth_data *synth_vary_negatives(const synth_data *d, const synth_facts *f, int parity) {
  return vary_free_numbers(d, f, parity, to_negative);
}

synth_data *synth_vary_unplanted(const synth_data *d, const synth_facts *f) {
  const sqlsim_schema *s = d->s;
  synth_data *c = NULL;
  for (int k = 0; k < f->nfacts; k++) {
    const synth_fact *x = &f->facts[k];
    synth_val lit = literal_val(x);
    if (!x->gold || !lit.kind || x->column < 0) continue;
    int t = s->columns[x->column].table, i = x->column - s->tables[t].first_column;
    const synth_data *from = c ? c : d;
    for (int r = from->nrows[t] - 1; r >= 0; r--)
      if (synth_val_eq(&synth_data_row(from, t, r)[i], &lit)) {
        if (!c && !(c = synth_data_copy(d))) return NULL;
        synth_data_delete_row(c, t, r);
        from = c;
      }
  }
  if (c) synth_data_cascade(c);
  return c;
}
