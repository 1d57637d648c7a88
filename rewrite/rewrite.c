/* rewrite.c -- candidates from the rules, and the proof each must pass before
 * it is offered.
 *
 * The rules that change something are applied alone and in every combination
 * of up to MAX_SEQUENCE of them, in rule order; a candidate whose SQL another
 * combination already gave is dropped. Each is printed as SQLite SQL and must
 * then
 *   1. return the same rows as the original on the user's database (same
 *      columns; the same multiset of rows, or under a top-level ORDER BY the
 *      same sequence of sort keys with each tie group the same multiset;
 *      values compared as BIRD's EX does, 1 = 1.0, floats exactly); a
 *      candidate still running at 10x the original's time (2 s at least) is
 *      stopped there as not faster;
 *   2. do the same on an in-memory copy of the first rows of every table,
 *      mutated in stages: as copied, NULLs in nullable columns, duplicated
 *      maxima, duplicated rows, empty tables;
 *   3. be faster: original and candidate timed on fresh connections with a
 *      full fetch in a sequential race (metrics/race.c) that stops once the
 *      ratio's interval lies wholly above min_speedup (offered) or wholly
 *      below it, else at `iterations` runs a side or the time budget, where
 *      the estimate must be at least min_speedup with its 95% interval above
 *      1; or, with `fixed`, the fixed protocol (metrics/ves.c: `iterations`
 *      alternating pairs, mean ratio and bootstrap interval, the same rule).
 * The best candidate that passes all three is offered; otherwise the
 * original stands and the reason says which check failed.
 *
 * The user's database is only ever opened through the safe executor; nothing
 * is written to it, and nothing is written to disk at all. */
#include "rewrite.h"

#include "parser/tree.h"
#include "exec/exec.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The longest sequence of rules tried together. */
enum { MAX_SEQUENCE = 3 };

typedef struct cand {
  unsigned rules;
  char *sql;
  char *keyed; /* sql with the ORDER BY keys as extra columns, or NULL */
  int alive;
  int verdict; /* SQLSIM_REWRITE_*, once it is not alive */
  char why[400];
  double check_s; /* its run on the database in the proof (full fetch, rows kept) */
  sqlsim_timing timing;
  sqlsim_race race;
} cand;

/* ---------------------------------------------------------------- comparing */

/* Whether b returned what a returned; why says how it differs. */
static int same_rows(const sqlsim_result *a, const sqlsim_result *b, int ordered, char *why, size_t wn) {
  if (a->status != SQLSIM_EXEC_OK || b->status != SQLSIM_EXEC_OK) {
    if (a->status != SQLSIM_EXEC_OK && b->status != SQLSIM_EXEC_OK) return 1; /* both fail */
    snprintf(why, wn, "%s fails: %s", a->status != SQLSIM_EXEC_OK ? "the original" : "the rewrite",
             a->status != SQLSIM_EXEC_OK ? a->reason : b->reason);
    return 0;
  }
  if (a->ncols != b->ncols) {
    snprintf(why, wn, "%d columns instead of %d", b->ncols, a->ncols);
    return 0;
  }
  if (a->nrows != b->nrows) {
    snprintf(why, wn, "%ld rows instead of %ld", b->nrows, a->nrows);
    return 0;
  }
  if (sqlsim_same_rows(a, b, ordered)) return 1;
  snprintf(why, wn, ordered ? "the rows differ or come in another order (the original has ORDER BY)"
                            : "different rows (as multisets)");
  return 0;
}

/* The query with its ORDER BY keys appended as result columns, printed, so
 * that tie groups can be told apart; NULL when the keys cannot be added
 * without changing the rows (compound, DISTINCT) or there is no ORDER BY.
 * *nkeys: how many were added. */
static char *keyed_sql(const sqlsim_node *root, int *nkeys) {
  *nkeys = 0;
  if (root->kind != SQLSIM_N_SELECT || root->op != SQLSIM_SET_NONE || (root->flags & SQLSIM_F_DISTINCT) ||
      !root->kids[SQLSIM_SEL_ORDER] || !root->kids[SQLSIM_SEL_TARGETS])
    return NULL;
  sqlsim_arena *a = sqlsim_arena_new();
  sqlsim_node *sel = tree_clone(a, root);
  sqlsim_node *targets = sel->kids[SQLSIM_SEL_TARGETS], *order = sel->kids[SQLSIM_SEL_ORDER];
  uint32_t nt = targets->nkids, no = order->nkids;
  sqlsim_node *list = tree_node_new(a, SQLSIM_N_LIST, (int)(nt + no));
  memcpy(list->kids, targets->kids, sizeof *list->kids * nt);
  int ok = 1;
  for (uint32_t i = 0; i < no && ok; i++) {
    sqlsim_node *e = order->kids[i]->kids[0];
    if (e->kind == SQLSIM_N_CONST && e->op == SQLSIM_CONST_INT) { /* ORDER BY 2 */
      long k = strtol(e->text, NULL, 10);
      ok = k >= 1 && k <= (long)nt && targets->kids[k - 1]->nkids;
      if (ok) e = targets->kids[k - 1]->kids[0];
    } else if (e->kind == SQLSIM_N_COLUMN && (e->flags & SQLSIM_F_ALIASREF)) { /* ORDER BY an alias */
      ok = 0;
      for (uint32_t j = 0; j < nt && !ok; j++)
        if (targets->kids[j]->text && !strcmp(targets->kids[j]->text, e->text) && targets->kids[j]->nkids) {
          e = targets->kids[j]->kids[0];
          ok = 1;
        }
    }
    list->kids[nt + i] = tree_node_new(a, SQLSIM_N_TARGET, 1);
    list->kids[nt + i]->kids[0] = e;
  }
  sel->kids[SQLSIM_SEL_TARGETS] = list;
  char *sql = ok ? sqlsim_print_sql(sel, 0) : NULL;
  if (sql) *nkeys = (int)no;
  sqlsim_arena_free(a);
  return sql;
}

/* Whether the candidate's result r equals the original's r0 on db: the same
 * rows as multisets or, under a top-level ORDER BY, in the same order with
 * rows of equal sort keys (a tie group) in any order among themselves; for
 * that the keyed forms (keyed_sql) of both are run. */
static int check_rows(sqlsim_db *db, const sqlsim_result *r0, const sqlsim_result *r, int ordered, const char *k0,
                      const char *kc, int nkeys, char *why, size_t wn) {
  if (same_rows(r0, r, ordered, why, wn)) return 1;
  if (!ordered || !k0 || !kc || r0->status != SQLSIM_EXEC_OK || r->status != SQLSIM_EXEC_OK ||
      !sqlsim_same_rows(r0, r, 0))
    return 0;
  sqlsim_result a, b;
  sqlsim_exec(db, k0, &a);
  sqlsim_exec(db, kc, &b);
  int ok = a.status == SQLSIM_EXEC_OK && b.status == SQLSIM_EXEC_OK && sqlsim_same_rows_ties(&a, &b, nkeys);
  if (!ok) snprintf(why, wn, "the rows come in another order than the original's ORDER BY allows (tie groups compared as multisets)");
  sqlsim_result_free(&a);
  sqlsim_result_free(&b);
  return ok;
}

/* ---------------------------------------------------------------- copies */

/* The adversarial copies are built in a private in-memory database (nothing
 * touches the disk, nothing is left behind on an interrupt), then handed to
 * the executor as a read-only image, one per stage. The user's schema is
 * data: each table, index and view is re-created from its CREATE text one
 * statement at a time, under an authorizer that allows creating that one
 * object and nothing else (no ATTACH, no second statement, no other object),
 * and the rows are copied as bound values read through the executor. */
typedef struct copy_db {
  sqlite3 *w;
  sbx_account *acct;
  sbx_guard guard;
} copy_db;

typedef struct ddl_auth {
  int kind;         /* the SQLITE_CREATE_* action the text must be */
  const char *name; /* of the object it must create */
  int created, refused;
} ddl_auth;

static int ddl_authorize(void *ctx, int action, const char *a1, const char *a2, const char *db, const char *trig) {
  (void)a2;
  (void)db;
  (void)trig;
  ddl_auth *d = ctx;
  switch (action) {
  case SQLITE_CREATE_TABLE:
  case SQLITE_CREATE_INDEX:
  case SQLITE_CREATE_VIEW:
    if (action == d->kind && a1 && !sqlite3_stricmp(a1, d->name) && !d->created) {
      d->created = 1;
      return SQLITE_OK;
    }
    break;
  case SQLITE_INSERT: /* the new row of sqlite_schema */
  case SQLITE_UPDATE:
    if (a1 && (!sqlite3_stricmp(a1, "sqlite_master") || !sqlite3_stricmp(a1, "sqlite_schema"))) return SQLITE_OK;
    break;
  case SQLITE_SELECT:
  case SQLITE_READ:
  case SQLITE_FUNCTION: /* inside CHECK, DEFAULT and view bodies */
    return SQLITE_OK;
  }
  d->refused = 1;
  return SQLITE_DENY;
}

static int blank_tail(const char *p) {
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v' || *p == ';') p++;
    if (p[0] == '-' && p[1] == '-') {
      while (*p && *p != '\n') p++;
    } else if (p[0] == '/' && p[1] == '*') {
      const char *e = strstr(p + 2, "*/");
      if (!e) return 1;
      p = e + 2;
    } else {
      return *p == '\0';
    }
  }
}

/* Re-creates one schema object from its text; 0 when it was exactly one
 * CREATE of that object and ran. */
static int replay_ddl(sqlite3 *w, const char *type, const char *name, const char *sql) {
  ddl_auth d = {!strcmp(type, "table")   ? SQLITE_CREATE_TABLE
                : !strcmp(type, "index") ? SQLITE_CREATE_INDEX
                                         : SQLITE_CREATE_VIEW,
                name, 0, 0};
  sqlite3_stmt *st = NULL;
  const char *tail = NULL;
  sqlite3_set_authorizer(w, ddl_authorize, &d);
  int ok = sqlite3_prepare_v2(w, sql, -1, &st, &tail) == SQLITE_OK && st && blank_tail(tail ? tail : "") &&
           d.created && !d.refused && sqlite3_step(st) == SQLITE_DONE;
  sqlite3_finalize(st);
  sqlite3_set_authorizer(w, NULL, NULL);
  return ok ? 0 : -1;
}

static int copy_progress(void *ctx) { return sbx_past_deadline(ctx); }

/* Copies the first rows of one table from the executor connection x into the copy. */
static void copy_rows(copy_db *c, sqlsim_db *x, const char *table, int rows) {
  sqlite3 *src = exec_handle(x);
  strbuf cols = {0}, marks = {0};
  char *q = sqlite3_mprintf("PRAGMA table_xinfo(\"%w\")", table);
  sqlite3_stmt *st = NULL;
  int n = 0;
  if (q && sqlite3_prepare_v2(src, q, -1, &st, NULL) == SQLITE_OK)
    while (sqlite3_step(st) == SQLITE_ROW) {
      const char *cn = (const char *)sqlite3_column_text(st, 1);
      if (!cn || sqlite3_column_int(st, 6) != 0) continue; /* hidden or generated */
      char *qc = sqlite3_mprintf("%s\"%w\"", n ? "," : "", cn);
      sb_puts(&cols, qc);
      sqlite3_free(qc);
      sb_puts(&marks, n ? ",?" : "?");
      n++;
    }
  sqlite3_finalize(st);
  sqlite3_free(q);
  if (n) {
    char *sel = sqlite3_mprintf("SELECT %s FROM \"%w\" LIMIT %d", cols.buf, table, rows);
    char *ins = sqlite3_mprintf("INSERT INTO main.\"%w\" (%s) VALUES (%s)", table, cols.buf, marks.buf);
    sqlite3_stmt *rd = NULL, *wr = NULL;
    if (sel && ins && sqlite3_prepare_v2(src, sel, -1, &rd, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(c->w, ins, -1, &wr, NULL) == SQLITE_OK)
      while (sqlite3_step(rd) == SQLITE_ROW) {
        for (int i = 0; i < n; i++) sqlite3_bind_value(wr, i + 1, sqlite3_column_value(rd, i));
        sqlite3_step(wr); /* a row the copy's constraints refuse is left out */
        sqlite3_reset(wr);
      }
    sqlite3_finalize(rd);
    sqlite3_finalize(wr);
    sqlite3_free(sel);
    sqlite3_free(ins);
  }
  sb_free(&cols);
  sb_free(&marks);
}

static int copy_open(copy_db *c, const char *src, int rows, double timeout, char *why, size_t wn) {
  memset(c, 0, sizeof *c);
  sqlsim_exec_opts eo = {timeout, 0, NULL, 0};
  sqlsim_db *x = NULL;
  sqlsim_error err = {0};
  if (sqlsim_db_open(src, &eo, &x, &err)) {
    snprintf(why, wn, "could not read the database for the copy: %.200s", err.message);
    return -1;
  }
  c->acct = sbx_account_new(0);
  c->guard.deadline = 0;
  sbx_account *prev = sbx_enter(c->acct);
  int rc = sqlite3_open_v2(":memory:", &c->w, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_db_config(c->w, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    sqlite3_db_config(c->w, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    sqlite3_db_config(c->w, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, (int *)0);
    sqlite3_db_config(c->w, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, (int *)0);
    sqlite3_limit(c->w, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(c->w, SQLITE_LIMIT_LENGTH, SBX_DEFAULT_VALUE);
    sqlite3_limit(c->w, SQLITE_LIMIT_SQL_LENGTH, SBX_DEFAULT_SQL);
    sqlite3_progress_handler(c->w, 1000, copy_progress, &c->guard);
    sqlfuncs_register(c->w, &c->guard);
  }
  c->guard.deadline = sbx_clock() + timeout;
  void *saved;
  exec_enter(x, timeout, &saved);
  sbx_enter(c->acct); /* the copy's allocations are its own, not the source's */
  sqlite3 *s = exec_handle(x);
  sqlite3_stmt *st = NULL;
  if (rc == SQLITE_OK &&
      sqlite3_prepare_v2(s,
                         "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'index', 'view') "
                         "AND sql IS NOT NULL AND name NOT LIKE 'sqlite%' ORDER BY type <> 'table', rowid",
                         -1, &st, NULL) == SQLITE_OK) {
    sqlite3_exec(c->w, "BEGIN", NULL, NULL, NULL);
    while (sqlite3_step(st) == SQLITE_ROW) {
      const char *type = (const char *)sqlite3_column_text(st, 0), *name = (const char *)sqlite3_column_text(st, 1),
                 *ddl = (const char *)sqlite3_column_text(st, 2);
      if (!type || !name || !ddl || replay_ddl(c->w, type, name, ddl)) continue;
      if (!strcmp(type, "table")) copy_rows(c, x, name, rows);
    }
    sqlite3_exec(c->w, "COMMIT", NULL, NULL, NULL);
  }
  sqlite3_finalize(st);
  exec_leave(x, saved);
  sbx_leave(prev);
  sqlsim_db_close(x);
  if (rc != SQLITE_OK) {
    snprintf(why, wn, "could not create the copy in memory");
    return -1;
  }
  return 0;
}

static void copy_close(copy_db *c) {
  sbx_account *prev = sbx_enter(c->acct);
  if (c->w) sqlite3_close(c->w);
  sbx_leave(prev);
  sbx_account_release(c->acct);
  memset(c, 0, sizeof *c);
}

/* The copy as it is now, as an executor connection. */
static sqlsim_db *copy_snapshot(copy_db *c, const sqlsim_exec_opts *eo) {
  sqlite3_int64 n = 0;
  sbx_account *prev = sbx_enter(c->acct);
  unsigned char *img = sqlite3_serialize(c->w, "main", &n, 0);
  sbx_leave(prev);
  sqlsim_db *d = NULL;
  if (img && exec_open_image(img, (size_t)n, eo, &d, NULL)) d = NULL;
  return d;
}

static const char *const stage_names[] = {"sample", "nulls", "duplicated maxima", "duplicated rows", "empty tables"};
enum { NSTAGES = 5 };

/* Mutates the copy into stage k (cumulative). Statements a table's
 * constraints refuse are skipped (OR IGNORE, or the error is ignored). */
static void copy_stage(copy_db *c, const sqlsim_schema *s, int k, double timeout) {
  if (k == 0) return;
  sbx_account *prev = sbx_enter(c->acct);
  c->guard.deadline = sbx_clock() + timeout;
  sqlite3_exec(c->w, "BEGIN", NULL, NULL, NULL);
  for (int t = 0; t < s->ntables; t++) {
    const sqlsim_table *tb = &s->tables[t];
    char *sql = NULL;
    if (k == 3) sql = sqlite3_mprintf("INSERT OR IGNORE INTO \"%w\" SELECT * FROM \"%w\"", tb->name, tb->name);
    if (k == 4) sql = sqlite3_mprintf("DELETE FROM \"%w\"", tb->name);
    if (sql) {
      sqlite3_exec(c->w, sql, NULL, NULL, NULL);
      sqlite3_free(sql);
      continue;
    }
    for (int j = 0; j < tb->ncolumns; j++) {
      const sqlsim_column *col = &s->columns[tb->first_column + j];
      if (k == 1 && (col->notnull || col->pk)) continue;
      if (k == 1)
        sql = sqlite3_mprintf("UPDATE OR IGNORE \"%w\" SET \"%w\" = NULL WHERE rowid %% 3 = 1", tb->name, col->name);
      else
        sql = sqlite3_mprintf("UPDATE OR IGNORE \"%w\" SET \"%w\" = (SELECT max(\"%w\") FROM \"%w\") "
                              "WHERE rowid %% 4 = 2",
                              tb->name, col->name, col->name, tb->name);
      sqlite3_exec(c->w, sql, NULL, NULL, NULL);
      sqlite3_free(sql);
    }
  }
  sqlite3_exec(c->w, "COMMIT", NULL, NULL, NULL);
  sbx_leave(prev);
}

/* ---------------------------------------------------------------- column names */

/* The result column names of sql on the database at path (prepared on an
 * executor connection, never run); NULL when it does not prepare. */
static char **column_names(const char *path, const char *sql, int *n) {
  sqlsim_db *x = NULL;
  sqlite3_stmt *st = NULL;
  char **names = NULL;
  *n = 0;
  if (sqlsim_db_open(path, NULL, &x, NULL)) return NULL;
  void *saved;
  exec_enter(x, 30, &saved);
  if (sqlite3_prepare_v2(exec_handle(x), sql, -1, &st, NULL) == SQLITE_OK && st) {
    *n = sqlite3_column_count(st);
    names = calloc((size_t)*n + 1, sizeof *names);
    for (int i = 0; i < *n; i++) names[i] = strdup(sqlite3_column_name(st, i) ? sqlite3_column_name(st, i) : "");
  }
  sqlite3_finalize(st);
  exec_leave(x, saved);
  sqlsim_db_close(x);
  return names;
}

static void names_free(char **names, int n) {
  for (int i = 0; names && i < n; i++) free(names[i]);
  free(names);
}

/* Keeps the original's result column names: a select item of the rewrite
 * whose name differs (COUNT(Id) is now count(*), a decorrelated subquery is
 * now a column of the join) gets the original name as its alias. Returns
 * whether it changed the tree. */
static int keep_names(sqlsim_query *c, const char *path, const char *text, char **names0, int n0) {
  sqlsim_node *sel = c->root;
  while (sel && sel->kind == SQLSIM_N_SELECT && sel->op != SQLSIM_SET_NONE) sel = sel->kids[SQLSIM_SEL_LARG];
  if (!sel || sel->kind != SQLSIM_N_SELECT || !sel->kids[SQLSIM_SEL_TARGETS]) return 0;
  sqlsim_node *targets = sel->kids[SQLSIM_SEL_TARGETS];
  if ((int)targets->nkids != n0) return 0; /* a '*' expands: leave the names */
  for (uint32_t i = 0; i < targets->nkids; i++)
    if (!targets->kids[i]->nkids || targets->kids[i]->kids[0]->kind == SQLSIM_N_STAR) return 0;
  int n1, changed = 0;
  char **names1 = column_names(path, text, &n1);
  for (int i = 0; names1 && i < n0 && n1 == n0; i++)
    if (strcmp(names0[i], names1[i])) {
      targets->kids[i]->raw = targets->kids[i]->text = sqlsim_arena_strdup(c->arena, names0[i]);
      changed = 1;
    }
  names_free(names1, n1);
  return changed;
}

/* ---------------------------------------------------------------- search */

static void rules_text(unsigned rules, char *buf, size_t n) {
  buf[0] = 0;
  for (int r = 0; r < SQLSIM_NRULES; r++)
    if (rules & (1u << r)) {
      if (buf[0]) strncat(buf, ",", n - strlen(buf) - 1);
      strncat(buf, sqlsim_rule_names[r], n - strlen(buf) - 1);
    }
}

/* One query's rewrite: what every stage reads and what it leaves. */
typedef struct rw_job {
  const char *db_path, *sql;
  sqlsim_rewrite_opts o;
  sqlsim_exec_opts eo;
  const sqlsim_schema *schema;
  sqlsim_query *q;
  sqlsim_result r0;      /* the original on the database */
  char *keyed0;          /* the original with its sort keys (keyed_sql) */
  int nkeys, ordered;
  cand *cands;
  int ncand, capcand;
  char stages[256];      /* the checks every candidate still alive passed */
  sqlsim_rewrite_result *out;
} rw_job;

/* The candidates: each rule alone (its notes say where it did not apply, and
 * why), then every combination of the rules that changed something, each
 * printed as SQL (the same SQL by two combinations once). */
static void build_candidates(rw_job *j, rewrite_facts *facts, strbuf *notes) {
  int nnames0 = 0;
  char **names0 = column_names(j->db_path, j->sql, &nnames0);
  unsigned applicable = 0;
  for (unsigned set = 1; set < (1u << SQLSIM_NRULES); set++) {
    int single = !(set & (set - 1));
    if (single ? !(j->o.rules & set) : (set & applicable) != set || __builtin_popcount(set) > MAX_SEQUENCE) continue;
    sqlsim_query *c = sqlsim_query_clone(j->q);
    if (!c) continue;
    strbuf ignore = {0};
    int changed = 0;
    for (int r = 0; r < SQLSIM_NRULES; r++)
      if (set & (1u << r)) changed += rewrite_apply(c, r, facts, single ? notes : &ignore);
    sb_free(&ignore);
    if (changed) {
      if (single) applicable |= set;
      char *text = sqlsim_print_sql(c->root, 0);
      if (text && names0 && keep_names(c, j->db_path, text, names0, nnames0)) {
        free(text);
        text = sqlsim_print_sql(c->root, 0);
      }
      int dup = 0;
      for (int i = 0; i < j->ncand && text && !dup; i++) dup = !strcmp(j->cands[i].sql, text);
      if (dup || !text) { /* the same SQL by another combination */
        free(text);
      } else {
        if (j->ncand == j->capcand) {
          j->capcand = j->capcand ? 2 * j->capcand : 16;
          j->cands = realloc(j->cands, sizeof *j->cands * (size_t)j->capcand);
        }
        cand *k = &j->cands[j->ncand++];
        memset(k, 0, sizeof *k);
        k->rules = set;
        k->sql = text;
        int nk;
        k->keyed = keyed_sql(c->root, &nk);
        k->alive = 1;
      }
    }
    sqlsim_query_free(c);
  }
  names_free(names0, nnames0);
}

/* Proof 1: the user's database. A candidate ten times slower than the
 * original (at least 2 s) is stopped there: it will not be offered. Returns
 * 0, or a negative code when the database cannot be opened. */
static int prove_on_database(rw_job *j, sqlsim_error *err) {
  sqlsim_rewrite_result *out = j->out;
  sqlsim_exec_opts ceo = j->eo;
  double limit = j->o.timeout_s > 0 ? j->o.timeout_s : 30;
  ceo.timeout_s = 10 * j->r0.total_s > 2 ? 10 * j->r0.total_s : 2;
  if (ceo.timeout_s > limit) ceo.timeout_s = limit;
  sqlsim_db *cdb0 = NULL;
  int rc = sqlsim_db_open(j->db_path, &ceo, &cdb0, err);
  if (rc) return rc;
  for (int i = 0; i < j->ncand; i++) {
    cand *c = &j->cands[i];
    sqlsim_result r;
    sqlsim_exec(cdb0, c->sql, &r);
    c->check_s = r.status == SQLSIM_EXEC_OK ? r.total_s : 0;
    char why[300];
    if (r.status == SQLSIM_EXEC_TIMEOUT) {
      snprintf(c->why, sizeof c->why, "not faster: stopped after %.1f s on the database, where the original takes %.3f s",
               ceo.timeout_s, j->r0.total_s);
      c->alive = 0;
      c->verdict = SQLSIM_REWRITE_NOT_FASTER;
      out->rejected_speed++;
    } else if (!check_rows(cdb0, &j->r0, &r, j->ordered, j->keyed0, c->keyed, j->nkeys, why, sizeof why)) {
      snprintf(c->why, sizeof c->why, "changes the result on the database: %s", why);
      c->alive = 0;
      c->verdict = SQLSIM_REWRITE_CHANGES_RESULT;
      out->rejected_results++;
    }
    sqlsim_result_free(&r);
  }
  sqlsim_db_close(cdb0);
  return 0;
}

/* Proof 2: the adversarial copies, stage by stage (NULLs, duplicated maxima,
 * duplicated rows, empty tables), each a private in-memory database. */
static void prove_on_copies(rw_job *j) {
  int any = 0;
  for (int i = 0; i < j->ncand; i++) any |= j->cands[i].alive;
  if (!any) return;
  copy_db cp;
  char why[300];
  double copy_timeout = j->o.timeout_s > 0 ? j->o.timeout_s : 30;
  if (copy_open(&cp, j->db_path, j->o.copy_rows, copy_timeout, why, sizeof why)) {
    for (int i = 0; i < j->ncand; i++)
      if (j->cands[i].alive) {
        snprintf(j->cands[i].why, sizeof j->cands[i].why, "not checked on copies: %s", why);
        j->cands[i].alive = 0;
        j->cands[i].verdict = SQLSIM_REWRITE_UNCHECKED;
      }
  } else {
    for (int k = 0; k < NSTAGES; k++) {
      copy_stage(&cp, j->schema, k, copy_timeout);
      sqlsim_db *cdb = copy_snapshot(&cp, &j->eo);
      if (!cdb) break;
      sqlsim_result ro;
      sqlsim_exec(cdb, j->sql, &ro);
      for (int i = 0; i < j->ncand; i++) {
        cand *c = &j->cands[i];
        if (!c->alive) continue;
        sqlsim_result r;
        sqlsim_exec(cdb, c->sql, &r);
        if (!check_rows(cdb, &ro, &r, j->ordered, j->keyed0, c->keyed, j->nkeys, why, sizeof why)) {
          snprintf(c->why, sizeof c->why, "changes the result on a copy with %s: %s", stage_names[k], why);
          c->alive = 0;
          c->verdict = SQLSIM_REWRITE_CHANGES_RESULT;
          j->out->rejected_results++;
        }
        sqlsim_result_free(&r);
      }
      sqlsim_result_free(&ro);
      sqlsim_db_close(cdb);
      strncat(j->stages, ", copy: ", sizeof j->stages - strlen(j->stages) - 1);
      strncat(j->stages, stage_names[k], sizeof j->stages - strlen(j->stages) - 1);
    }
  }
  copy_close(&cp);
}

/* Candidate c timed against the original by the fixed protocol, or by the
 * sequential race (its figures put in c->timing); budget_s: 0 or its share
 * of the time budget. */
static void time_one(rw_job *j, cand *c, double budget_s) {
  const sqlsim_rewrite_opts *o = &j->o;
  sqlsim_timing *t = &c->timing;
  if (o->fixed) {
    sqlsim_timing_opts to = {.iterations = o->iterations, .timeout_s = o->timeout_s, .fixed_now = o->fixed_now,
                             .alternate = 1};
    sqlsim_time_pair(j->db_path, j->sql, c->sql, &to, t);
    return;
  }
  sqlsim_race_opts ro = {.threshold = o->min_speedup, .max_runs = o->iterations, .timeout_s = o->timeout_s,
                         .fixed_now = o->fixed_now, .budget_s = budget_s};
  int prior_ok = j->r0.total_s >= 0.1 && j->r0.nrows <= 100000;
  if (prior_ok && c->check_s > 0) {
    ro.prior_a = j->r0.total_s;
    ro.prior_b = c->check_s;
  }
  sqlsim_race *rr = &c->race;
  sqlsim_race_run(j->db_path, j->sql, c->sql, &ro, rr);
  memset(t, 0, sizeof *t);
  t->ok = rr->ok;
  memcpy(t->reason, rr->reason, sizeof t->reason);
  t->n = t->kept = rr->nb;
  t->ratio = rr->early ? rr->gm : rr->ratio; /* the estimate its interval belongs to */
  /* the interval that decided: Welch's at 1 - 2 alpha for an early stop, else the 95% one */
  t->ci_low = rr->early ? rr->lo : rr->lo95;
  t->ci_high = rr->early ? rr->hi : rr->hi95;
  t->gold_median_s = rr->median_a;
  t->pred_median_s = rr->median_b;
}

/* Proof 3: timing, a sequential race per candidate (metrics/race.c) that
 * stops as soon as the ratio's interval lies wholly on one side of
 * min_speedup, or the fixed protocol. A slow original's run in the proof
 * (and the candidate's) counts as the first timed run of each: at 0.1 s and
 * more, keeping its rows and sharing a connection cost little next to the
 * query, and a 4 s original need not be run again and again to learn that a
 * 0.05 s rewrite is faster. The budget is shared: each candidate gets what is
 * left over the candidates still to time. */
static void time_candidates(rw_job *j) {
  const sqlsim_rewrite_opts *o = &j->o;
  double t_start = sbx_clock();
  int to_time = 0;
  for (int i = 0; i < j->ncand; i++) to_time += j->cands[i].alive;
  for (int i = 0; i < j->ncand; i++) {
    cand *c = &j->cands[i];
    if (!c->alive) continue;
    double budget = 0;
    if (!o->fixed && o->time_budget_s > 0) {
      double left = o->time_budget_s - (sbx_clock() - t_start);
      budget = left > 0 ? left / to_time : 1e-9;
    }
    time_one(j, c, budget);
    sqlsim_timing *t = &c->timing;
    to_time--;
    if (t->ok && !o->fixed && c->race.decision == SQLSIM_RACE_UNDECIDED)
      t->ok = 0; /* the budget ran out before anything could be judged: unchecked (the reason says so) */
    if (!t->ok) {
      char reason[sizeof t->reason];
      memcpy(reason, t->reason, sizeof reason);
      snprintf(c->why, sizeof c->why, "could not be timed: %.300s", reason);
      c->alive = 0;
      c->verdict = SQLSIM_REWRITE_UNCHECKED;
      continue;
    }
    int faster = o->fixed ? t->ratio >= o->min_speedup && t->ci_low > 1 : c->race.decision == SQLSIM_RACE_FASTER;
    if (!faster) {
      const sqlsim_race *rr = &c->race;
      if (o->fixed)
        snprintf(c->why, sizeof c->why,
                 "not faster enough: measured ratio %.2f (95%% interval %.2f-%.2f), needs >= %.2f with the interval "
                 "above 1",
                 t->ratio, t->ci_low, t->ci_high, o->min_speedup);
      else if (rr->early)
        snprintf(c->why, sizeof c->why,
                 "not faster enough: measured ratio %.2f, clearly under %.2f after %d and %d runs (interval "
                 "%.2f-%.2f)",
                 rr->ratio, o->min_speedup, rr->na, rr->nb, rr->lo, rr->hi);
      else
        snprintf(c->why, sizeof c->why,
                 "not faster enough: measured ratio %.2f (95%% interval %.2f-%.2f) after %d and %d runs%s%s, needs "
                 ">= %.2f with the interval above 1",
                 rr->ratio, rr->lo95, rr->hi95, rr->na, rr->nb, rr->reason[0] ? ": " : "", rr->reason,
                 o->min_speedup);
      c->alive = 0;
      c->verdict = SQLSIM_REWRITE_NOT_FASTER;
      j->out->rejected_speed++;
    }
  }
  j->out->timing_s = sbx_clock() - t_start;
}

/* The outcome: the fastest offered candidate; else the fastest timed one;
 * else the first, with why it was not offered and how the others ended. */
static void choose(rw_job *j) {
  sqlsim_rewrite_result *out = j->out;
  const cand *cands = j->cands;
  int best = 0;
  for (int i = 1; i < j->ncand; i++) {
    const cand *a = &cands[i], *b = &cands[best];
    if (a->alive != b->alive) {
      if (a->alive) best = i;
    } else if (a->timing.ok != b->timing.ok) {
      if (a->timing.ok) best = i;
    } else if (a->timing.ratio > b->timing.ratio) {
      best = i;
    }
  }
  out->rules = cands[best].rules;
  out->timing = cands[best].timing;
  out->race = cands[best].race;
  out->verdict = cands[best].alive ? SQLSIM_REWRITE_OFFERED : cands[best].verdict;
  if (cands[best].alive) {
    out->offered = 1;
    out->sql = strdup(cands[best].sql);
    snprintf(out->checks, sizeof out->checks, "%s", j->stages);
    return;
  }
  char names[128];
  rules_text(cands[best].rules, names, sizeof names);
  snprintf(out->reason, sizeof out->reason, "%.100s: %.300s", names, cands[best].why);
  for (int i = 0; i < j->ncand; i++) { /* how the other candidates ended, briefly */
    if (i == best) continue;
    size_t len = strlen(out->reason);
    rules_text(cands[i].rules, names, sizeof names);
    const char *how = cands[i].verdict == SQLSIM_REWRITE_CHANGES_RESULT ? "changes results"
                      : cands[i].verdict == SQLSIM_REWRITE_NOT_FASTER   ? "not faster"
                                                                        : "unchecked";
    if (cands[i].verdict == SQLSIM_REWRITE_NOT_FASTER && cands[i].timing.ok)
      snprintf(out->reason + len, sizeof out->reason - len, "; %s: %.2fx", names, cands[i].timing.ratio);
    else
      snprintf(out->reason + len, sizeof out->reason - len, "; %s: %s", names, how);
  }
}

int sqlsim_rewrite(const char *db_path, const char *sql, const sqlsim_rewrite_opts *opts,
                   sqlsim_rewrite_result *out, sqlsim_error *err) {
  memset(out, 0, sizeof *out);
  rw_job j = {.db_path = db_path, .sql = sql, .out = out, .stages = "database"};
  j.o = opts ? *opts : (sqlsim_rewrite_opts){0};
  if (!j.o.rules) j.o.rules = SQLSIM_RULES_DEFAULT;
  if (j.o.iterations <= 0) j.o.iterations = 20;
  if (j.o.min_speedup <= 0) j.o.min_speedup = 1.1;
  if (j.o.copy_rows <= 0) j.o.copy_rows = 200;
  j.eo = (sqlsim_exec_opts){.timeout_s = j.o.timeout_s, .fixed_now = j.o.fixed_now};
  if (db_path && sqlsim_engine_of(db_path) != SQLSIM_ENGINE_SQLITE)
    return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                            "rewrite proves on SQLite databases only: its proof runs both queries on copies of "
                            "the database it changes (adversarial rows), which sqlsim does not make on a server "
                            "(copy the database with sqlite3, or give the SQLite file it was loaded from)");

  sqlsim_catalog *cat = NULL;
  sqlsim_db *db = NULL;
  int rc = 0;
  strbuf notes = {0};
  rewrite_facts facts = {NULL, db_path, NULL, NULL};
  if ((rc = sqlsim_catalog_load_sqlite(db_path, &cat, err))) goto done;
  j.schema = sqlsim_catalog_at(cat, 0);
  if ((rc = sqlsim_parse(sql, strlen(sql), j.schema, 0, &j.q, err))) goto done;
  if ((rc = sqlsim_db_open(db_path, &j.eo, &db, err))) goto done;
  facts.db = db;
  sqlsim_exec(db, sql, &j.r0);
  if (j.r0.status != SQLSIM_EXEC_OK) {
    rc = sqlsim_error_set(err, SQLSIM_ESQLITE, -1, "the query does not run: %s", j.r0.reason);
    goto done;
  }
  build_candidates(&j, &facts, &notes);
  out->candidates = j.ncand;
  out->notes = sb_take(&notes);
  if (!j.ncand) {
    out->verdict = SQLSIM_REWRITE_NO_RULE;
    snprintf(out->reason, sizeof out->reason, "no rule applies to this query");
    goto done;
  }
  j.ordered = j.r0.has_order_by;
  j.keyed0 = keyed_sql(j.q->root, &j.nkeys);
  if ((rc = prove_on_database(&j, err))) goto done;
  prove_on_copies(&j);
  time_candidates(&j);
  choose(&j);

done:
  for (int i = 0; i < j.ncand; i++) {
    free(j.cands[i].sql);
    free(j.cands[i].keyed);
  }
  free(j.cands);
  free(j.keyed0);
  if (!out->notes) out->notes = sb_take(&notes);
  sqlsim_result_free(&j.r0);
  sqlsim_db_close(db);
  sqlsim_query_free(j.q);
  sqlsim_catalog_free(cat);
  rewrite_facts_free(&facts);
  return rc;
}

void sqlsim_rewrite_result_free(sqlsim_rewrite_result *r) {
  free(r->sql);
  free(r->notes);
  r->sql = r->notes = NULL;
}
