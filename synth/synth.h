/* synth.h -- schema-only synthetic execution, internal side (synth/).
 *
 * facts.c reads what the two queries of a pair need from the data (the tables
 * they read, their literals and the columns they compare them with, the
 * columns they group, sort and count by) into a synth_facts; gen.c turns the
 * schema and those facts into the rows of one small database; synth.c builds
 * K such databases on an executor connection, runs both queries on each and
 * compares the results. */
#ifndef SQLSIM_SYNTH_H
#define SQLSIM_SYNTH_H

#include "core.h"
#include "exec/exec.h"
#include "runner.h"

/* One value of a generated database. */
typedef struct synth_val {
  char kind; /* 0 unset, 'i' integer, 'r' real, 't' text, 'n' NULL */
  long long i;
  double r;
  const char *t;
} synth_val;

/* The rows of one database, in memory (synth/data.c): read back from a
 * connection, changed, checked against the schema, loaded, written as SQL. */
typedef struct synth_data {
  const sqlsim_schema *s; /* read while in use; a cached suite's is rebound to each caller's */
  int ntables;           /* s's, kept: freeing needs no schema (a cached suite outlives one) */
  int *nrows, *cap;      /* per table */
  synth_val **rows;      /* per table: nrows x the table's columns (malloc'd) */
  unsigned char *on;     /* per table: part of the database (created in its SQL text) */
  sqlsim_arena *a;       /* owns the text values */
} synth_data;

synth_data *synth_data_new(const sqlsim_schema *s);
void synth_data_free(synth_data *d);
synth_data *synth_data_copy(const synth_data *d);
/* Row r of table t; a new row of NULLs at the end of t (NULL: out of memory);
 * row r removed. */
synth_val *synth_data_row(const synth_data *d, int t, int r);
synth_val *synth_data_add_row(synth_data *d, int t);
void synth_data_delete_row(synth_data *d, int t, int r);
/* Rows in all. */
long synth_data_size(const synth_data *d);
/* Equal values (an integer equals the real of its value; NULL equals NULL). */
int synth_val_eq(const synth_val *a, const synth_val *b);
/* The rows of the tables marked in tables[] of db (sqlsim's own
 * connection): 0 and *out, or -1. */
int synth_data_read(sqlite3 *db, const sqlsim_schema *s, const unsigned char *tables, synth_data **out);
/* Empties the tables marked in filled[] and inserts each table t's nrows[t]
 * rows of cells[t] (row after row, the table's columns each; NULL: none),
 * but for the tables marked in keep[] (when given), which hold them already;
 * filled[] then marks the tables holding rows. lenient: a row a constraint
 * or a type refuses is left out (INSERT OR IGNORE), else it is an error;
 * *inserted (when given) counts the rows inserted. 0, or -1 with why. The
 * generator's rows (gen.c) and rows read back (synth_data) load through it. */
int synth_rows_load(sqlite3 *db, const sqlsim_schema *s, synth_val *const *cells, const int *nrows,
                    const unsigned char *keep, int lenient, unsigned char *filled, long *inserted, char *why,
                    size_t wn);
/* d's rows through synth_rows_load, not lenient. */
int synth_data_load(sqlite3 *db, const synth_data *d, const unsigned char *keep, unsigned char *filled, char *why,
                    size_t wn);
/* A signature of table t's rows (their count and values, in order). */
uint64_t synth_table_sig(const synth_data *d, int t);
/* Column c is declared a number type (sqlsim_column.numeric): it holds
 * numbers; text t reads as a number (SQLite stores it as one there). */
int synth_numeric_column(const sqlsim_column *c);
int synth_numeric_text(const char *t);
/* The schema's foreign keys grouped into whole keys: key k's pairs are
 * fkeys[order[start[k] .. start[k] + len[k])]. A child table's pairs that
 * reference one parent table make one key when they cover its whole primary
 * key (of two columns or more); every other pair is a key of its own. 0, or
 * -1 with n = 0 on no memory (free it either way). */
typedef struct synth_fkey_groups {
  int *order, *start, *len;
  int n;
} synth_fkey_groups;
int synth_fkey_groups_of(const sqlsim_schema *s, synth_fkey_groups *g);
void synth_fkey_groups_free(synth_fkey_groups *g);
/* Whether d is a database the schema allows (see data.c); why says what is
 * not when 0. */
int synth_data_valid(const synth_data *d, char *why, size_t wn);
/* CREATE TABLE for the tables of d (on[]) and an INSERT per row: text that
 * plain sqlite3 loads (malloc'd). */
char *synth_data_sql(const synth_data *d);
/* The same tables as JSON: [{"name", "columns": [..], "rows": [[..], ..]}]
 * (malloc'd). */
char *synth_data_json(const synth_data *d);

/* ---------------------------------------------------------------- the engine (mirror.c) */

/* A scratch connection's generated database, served by a server so that
 * queries are judged as that server answers them. */
typedef struct synth_mirror {
  const exec_target *target; /* the pair's engine (NULL: none, SQLite judges) */
  char *db_id;            /* its database there */
  sqlsim_db *engine;      /* the mirror's own connection to it */
  const sqlsim_schema *s;
  int ntables;
  char **ddl;             /* per table: its columns as made on the engine ("name type, ..."), for witnesses */
  int created, synced, load_failed;
  int paused;             /* queries run on the scratch meanwhile (a suite's distillation) */
  unsigned long loads;    /* databases loaded: every so many, the temporary tables are vacuumed */
  unsigned long version;  /* the scratch's exec_writes when last loaded */
  uint64_t *sig;          /* per table: the rows the engine holds (their INSERT's hash), where sig_ok */
  int *nrows;
  unsigned char *sig_ok;
  char err[240];          /* why the engine cannot judge the database now */
} synth_mirror;

/* Binds m to the database of db_id at target t (NULL: none) for schema s,
 * its connection opened under eo: 0, or a negative code with err (the
 * engine does not answer). Bound already: nothing. */
int synth_mirror_bind(synth_mirror *m, const exec_target *t, const char *db_id, const sqlsim_schema *s,
                      const sqlsim_exec_opts *eo, sqlsim_error *err);
void synth_mirror_clear(synth_mirror *m);
/* Runs sql on the database the scratch connection holds: there, or on its
 * mirror's engine (exec_user(scratch)), the rows loaded there first when they
 * moved. A database the engine's types refuse: an error result saying so.
 * synth_exec_own is for sqlsim's own printed SQL (SQLite's): where the engine
 * does not run it, the scratch answers it. */
void synth_exec(sqlsim_db *scratch, const char *sql, unsigned flags, sqlsim_result *r);
void synth_exec_own(sqlsim_db *scratch, const char *sql, unsigned flags, sqlsim_result *r);
/* exec_rows_json on the database the scratch holds, as synth_exec runs. */
char *synth_rows_json(sqlsim_db *scratch, const char *sql, const long *want, int nwant, int first_n, long *count,
                      char **err);
/* d as SQL the engine loads: each table with the columns as made there
 * (malloc'd). */
char *synth_mirror_sql(const synth_mirror *m, const synth_data *d);

/* ---------------------------------------------------------------- CHECK constraints (checks.c) */

/* What a schema's CHECKs say of one column, in forms obeyed directly. */
typedef struct synth_colcheck {
  unsigned char any;          /* some rule below */
  unsigned char not_null;     /* IS NOT NULL */
  unsigned char other;        /* named by a CHECK of another form (SQLite enforces it) */
  const synth_val *set;       /* the values allowed (IN, =), nset of them; 0: any */
  int nset;
  const synth_val *out;       /* values not allowed (<>, NOT IN) */
  int nout;
  double lo, hi;              /* a numeric range, where has_lo / has_hi */
  unsigned char has_lo, has_hi, lo_open, hi_open;
  int min_len, max_len;       /* length bounds (max -1: none) */
} synth_colcheck;

typedef struct synth_checks {
  const sqlsim_schema *s;
  synth_colcheck *col;        /* per schema column */
  int nchecks, other;         /* CHECKs in all; of them, not read whole (SQLite's alone) */
  sqlsim_arena *a;
} synth_checks;

/* The CHECKs of schema s read (NULL when it has none, or out of memory):
 * each parsed with s as a condition on its table. */
synth_checks *synth_checks_make(const sqlsim_schema *s);
void synth_checks_free(synth_checks *k);
/* Whether column col may hold v under the rules read (k NULL: yes). */
int synth_check_allows(const synth_checks *k, int col, const synth_val *v);
/* v changed, when it must be, into a value column col may hold (a value of
 * its list by the row's turn, a number inside its range, an integer for an
 * integer column, text of its length): 1, or 0 when none could be made.
 * Text made goes into a. */
int synth_check_conform(const synth_checks *k, int col, int row, int integer, sqlsim_arena *a, synth_val *v);

/* A query one change away from the gold (synth/neighbors.c). */
typedef struct synth_neighbor {
  char *sql;         /* printed SQLite SQL (malloc'd) */
  const char *kind;  /* the change: "operator", "literal", "column", ... */
} synth_neighbor;

/* At most max neighbors of gold (parsed with its schema), taken round the
 * kinds of change, none printing as the gold or as another: *out (free with
 * synth_neighbors_free). Returns how many. */
int synth_neighbors(const sqlsim_query *gold, int max, synth_neighbor **out);
void synth_neighbors_free(synth_neighbor *v, int n);

/* A literal of a query and the column it is compared with. */
typedef struct synth_fact {
  int column;        /* schema column index */
  int op;            /* SQLSIM_OP_EQ ... SQLSIM_OP_NOTLIKE; IN and BETWEEN give EQ / GE / LE */
  int num;           /* the literal is a number (else text) */
  const char *text;  /* the literal as it reads (a number's digits, a string's contents) */
  int group;         /* facts of one SELECT's conditions share a group: planted in one row */
  const char *fmt;   /* compared through strftime(fmt, column): the literal is those fields, NULL */
  int sub;           /* compared through substr(column, sub, ..): the literal sits there, 0 */
  int gold;          /* the gold's literal (the first query walked; a literal of both is the gold's) */
  int identity;      /* the other column of `a op b` compared with a literal, given op's identity
                        (b = 1 for a / b > 29): planted on about half the databases (by seed),
                        no near misses */
} synth_fact;

/* Column roles, bit flags in synth_facts.role[column]. */
enum {
  SYNTH_READ = 1,    /* the column is read by either query */
  SYNTH_GROUP = 2,   /* grouped by or counted distinct: its values repeat */
  SYNTH_ORDER = 4,   /* sorted by, or under MAX/MIN: ties matter */
  SYNTH_AGG = 8,     /* summed or averaged */
  SYNTH_NULLS = 16,  /* the gold tests it with IS [NOT] NULL: some rows hold NULL there */
  SYNTH_DATE = 32,   /* the gold reads it with a date function (strftime, date, ...), or compares it
                        or its first characters with a date ('2008-08'): it holds dates */
  SYNTH_TIME = 64,   /* the gold compares its first ten characters, or a LIKE 'YYYY-MM-DD%', with
                        a whole date: it holds a time after the date */
  SYNTH_CLOCK = 128  /* the gold looks for ':' in it (instr(x, ':')): it holds durations written
                        m:ss.fff (a lap time, '1:27.452') */
};

typedef struct synth_facts {
  const sqlsim_schema *schema;
  unsigned char *tables;  /* [ntables] 1: read by either query */
  unsigned char *gold_tables; /* [ntables] 1: read by the gold */
  unsigned char *role;    /* [ncolumns] SYNTH_* */
  synth_fact *facts;
  int nfacts, cap;
  int *seen, seen_cap;    /* the facts by their contents (open addressing, -1 empty): each once a group */
  int ngroups;
  int *related;           /* [ngroups] each SELECT's representative among the SELECTs a key subquery
                             joins it to (x IN (SELECT x FROM t ..), x = (SELECT x ..)): a row of one
                             whose own SELECT has no parent row takes one of the others' */
  struct synth_pair { int outer, inner; } *sub; /* those subquery joins, while reading */
  int nsub, sub_cap;
  int count_threshold;    /* the largest number compared with COUNT(..) (HAVING count(*) > N) */
  struct synth_compared { int a, b; } *compared; /* columns compared with each other (a.t < b.t) */
  int ncompared, compared_cap;
  struct synth_null { int column, group, isnull; } *nulls; /* the gold's x IS [NOT] NULL tests, per SELECT */
  int nnulls, nulls_cap;
  const synth_checks *checks; /* the schema's CHECK rules (the runner's; NULL: none), set by the caller */
  int no_nulls;           /* no database holds a NULL (assume_not_null, or the search for a
                             refutation without one), set by the caller */
  sqlsim_fkey *keys;      /* the schema's foreign keys, then the joins the queries make between
                             columns no foreign key links (a = b: the unique side is the parent) */
  int nkeys;
  sqlsim_arena *arena;    /* owns everything above */
} synth_facts;

/* Reads the facts of both normalized queries (either may be NULL) against
 * schema s into a new arena. Returns NULL only when out of memory. */
synth_facts *synth_facts_read(const sqlsim_schema *s, const sqlsim_query *gold, const sqlsim_query *pred);
void synth_facts_free(synth_facts *f);

/* The shape of database number k of a run. */
typedef struct synth_shape {
  int rows;          /* rows per table (before planted rows) */
  int ties;          /* repeat the extreme values of sorted columns and the largest group size */
  int share;         /* rows planted for different SELECTs share their other values */
  int fanout;        /* children pile up under a few parents (else one each, but for one parent of two) */
  int realistic;     /* data as real databases hold it, not made to refute (the audit's): every table
                        filled, the literals as the gold writes them without their other case or
                        longer words beside them, a child row's keys to one parent table naming one
                        parent row, dates with their time where the column holds times */
  uint64_t seed;
} synth_shape;

/* The shape of database k (0-based) for a run seeded with seed. */
synth_shape synth_shape_of(int k, uint64_t seed);

/* Fills the tables the facts read (and the tables their foreign keys lead
 * to) of an empty schema-only database db (writable, sqlsim's own
 * connection) with generated rows: unique keys, satisfied foreign keys, the
 * literals planted, NULLs only in a third of the free cells of the columns the
 * gold tests with IS [NOT] NULL (one, in a sorted column). The tables marked in filled[] (one byte per
 * table) are emptied first; filled[] then marks the tables filled now.
 * Returns the number of rows inserted, or -1 with why filled. */
long synth_fill(sqlite3 *db, const synth_facts *f, const synth_shape *shape, unsigned char *filled, char *why,
                size_t wn);

/* ---------------------------------------------------------------- the runner's connections (synth.c) */

/* A runner's connection for one schema: its tables created, the tables
 * holding rows now, the engine its databases are judged on. */
typedef struct synth_slot {
  char *ddl;             /* the schema's tables, as created: the slot's key (a schema's
                            address may be reused by another once freed) */
  int ntables;
  sqlsim_db *db;
  unsigned char *filled; /* [ntables] tables holding rows now */
  synth_checks *checks;  /* the schema's CHECK rules (NULL: none) */
  synth_mirror mirror;   /* the engine its databases are judged on (mirror.c; none: SQLite) */
  unsigned long used;
} synth_slot;

/* The runner's connection for schema s, made with its tables when new
 * (bound to the runner's engine): NULL with err set. */
synth_slot *synth_slot_for(sqlsim_synth_runner *x, const sqlsim_schema *s, sqlsim_error *err);
/* The slot's database becomes a copy of the image img[0..len) (a
 * sqlite3_serialize of it), with filled[] its tables holding rows: 0, or -1
 * (the slot is then unusable: cleared). */
int synth_slot_image(sqlsim_synth_runner *x, synth_slot *sl, const unsigned char *img, sqlite3_int64 len,
                     const unsigned char *filled);
/* The slot's database filled with a generated one (synth_fill): 0, or -1
 * with why. */
int synth_slot_fill(sqlsim_synth_runner *x, synth_slot *sl, const synth_facts *f, const synth_shape *sh, char *why,
                    size_t wn);
const synth_checks *synth_slot_checks(const synth_slot *sl);
/* The runner's options. */
const sqlsim_synth_opts *synth_runner_opts(const sqlsim_synth_runner *x);

/* ---------------------------------------------------------------- judging (judge.c) */

/* How a query's answer compares with the gold's on one database. */
enum { SYNTH_SAME, SYNTH_DIFFER, SYNTH_TIED /* the gold's answer hinges on ties at its LIMIT: set aside */ };

/* Where queries run (the runner's connection for a schema, and which of its
 * tables hold rows) and how answers are compared with the gold's. */
typedef struct synth_env {
  sqlsim_db *db;
  unsigned char *filled;
  const sqlsim_schema *s;
  int bird, keep_distinct;
  const synth_checks *checks; /* the schema's CHECK rules (the slot's; NULL: none) */
  int no_nulls;             /* the runner's assume_not_null: databases hold no NULL */
  const sqlsim_query *gold; /* for its sort keys: ties at a LIMIT, or under a full ORDER BY */
  int ordered;              /* Spider compares the gold's rows in order */
  char *keyed;              /* the gold with its sort keys returned (made when first needed) */
  long limit, offset;
  int nkeys, keyed_done;
  double spent;             /* seconds spent by the tie runs */
  double limit_s;           /* the runner's limit per query: the strict stages of one call, and
                               one suite's search, each run their queries for at most a few */
  double strict_s;          /* seconds the strict stages of this call have run queries */
  char runaway[256];        /* the prediction's error where strict's last difference was that it
                               ran past its limits (time, size), else empty: its witness is not
                               shrunk, nor the prediction run again */
  uint64_t *sig;            /* per table: the signature of the rows the connection holds, */
  unsigned char *sig_ok;    /* where known (loads that change one table reload that one) */
} synth_env;
/* The connection was written otherwise (the generator): nothing known of its
 * rows. */
void synth_env_forget(synth_env *e);
/* The connection holds d now (read back after the generator wrote it). */
void synth_env_holds(synth_env *e, const synth_data *d);
/* What synth_env keeps beyond the call's stack: its keyed text, the signatures. */
void synth_env_done(synth_env *e);

/* A pair's strict stages (the suite judged, the pair's own search) run
 * queries for at most this many query limits together; past it strict has no
 * verdict unless one refuted. */
#define SYNTH_STRICT_TIME 2

/* Ties (judge.c): the keyed query (synth_keyed_query, runner.h) run on
 * db, whether its answer there hinges on ties (TIE_LIMIT: which rows a LIMIT
 * or OFFSET keeps; TIE_ORDER: only their order), with the run's time. */
enum { TIE_NONE, TIE_LIMIT, TIE_ORDER };
int synth_tie_kind(sqlsim_db *db, const char *keyed, long limit, long offset, int nkeys, double *spent);
/* The gold keeps every row at the top by a `col = (SELECT max(col) ..)`
 * lookup, the prediction one of them by ORDER BY col DESC LIMIT 1: the two
 * differ only where the top value is shared. */
int synth_top_row_of_top_rows(const sqlsim_query *gold, const sqlsim_query *pred);
/* The query aggregates over all its rows (one row whatever the data). */
int synth_one_row_aggregate(const sqlsim_query *q);
/* One row of zeros and NULLs: an aggregate over no matching row. */
int synth_nothing_counted(const sqlsim_result *r);
/* However ties at the gold's LIMIT are broken, the answers differ (another
 * number of rows, other columns, rows where the gold has none). */
int synth_differs_however_tied(const synth_env *e, const sqlsim_result *g, const sqlsim_result *p);
/* The prediction ran past its limits (a time, a size). */
int synth_ran_away(const sqlsim_result *p);

/* p's answer is the gold's g, by the semantics (BIRD's sets; Spider's rows,
 * in order when ordered), reals agreeing to 12 significant digits when both
 * were run with SQLSIM_EXEC_VALUES (judge.c says why). */
int synth_same_answer(int bird, int ordered, const sqlsim_result *g, const sqlsim_result *p);

/* The text a query runs as: as written for BIRD, Spider's execution text
 * otherwise (malloc'd). */
char *synth_run_text(const char *sql, int bird, int keep_distinct);
/* p's answer against the gold's g (g ran): SYNTH_SAME, SYNTH_DIFFER (p failed
 * too), or SYNTH_TIED. */
int synth_judge(synth_env *e, const sqlsim_result *g, const sqlsim_result *p);
/* The same for the strict verdict: where ties at a LIMIT decide which rows
 * the gold returns but no way of breaking them gives the prediction's answer
 * (another number of rows), SYNTH_DIFFER. */
int synth_judge_strict(synth_env *e, const sqlsim_result *g, const sqlsim_result *p);
/* d loaded on the connection (its tables emptied first): 0, or -1 with why. */
int synth_env_load(synth_env *e, const synth_data *d, char *why, size_t wn);
/* Whether d, a database the schema allows, tells the prediction (pred_text)
 * from the gold (gold_text) by the strict comparison: 1 it does, 0 they
 * agree, -1 not judged (not allowed, not loaded, the gold failed, ties). */
int synth_env_tells(synth_env *e, const synth_data *d, const char *gold_text, const char *pred_text);
/* Whether d holds a NULL in a table marked in tables[]. */
int synth_data_holds_null(const synth_data *d, const unsigned char *tables);

/* The solver (solver.c): both texts as run, encoded over at most k rows per
 * table (k = 1, 2, .. while the budget lasts) for z3. */
enum { SYNTH_SOLVE_OUTSIDE, SYNTH_SOLVE_REFUTED, SYNTH_SOLVE_BOUNDED, SYNTH_SOLVE_BUDGET };
typedef struct synth_solved {
  int status;              /* SYNTH_SOLVE_*: a model found (data), no counterexample up to bound,
                              a construct outside the subset, the budget spent before any bound */
  int bound;               /* the largest k with no counterexample (0: none) */
  int k;                   /* the last k tried */
  int one_row;             /* both answers hold at most one row (their order cannot count) */
  int order_bound;         /* SYNTH_SOLVE_ORDERED: the largest k up to which the rows were also compared
                              in order (both queries ordered by number keys), 0 when none */
  synth_data *data;        /* REFUTED: the model as a database (the caller replays and owns it) */
  char why[200];
  double seconds;
  uint64_t units;          /* z3's resource units spent (the budget's unit, solver.c) */
} synth_solved;
/* flags: SYNTH_SOLVE_SETS, BIRD's comparison (sets of rows; else
 * multisets), SYNTH_SOLVE_ANY_ORDER (the columns in any order: Spider's
 * comparison, the audit's), SYNTH_SOLVE_NO_NULLS (assume_not_null),
 * SYNTH_SOLVE_ORDERED (the gold's order counts: the rows compared in order
 * where both queries order by number keys). 0 with out filled. */
enum { SYNTH_SOLVE_SETS = 1, SYNTH_SOLVE_NO_NULLS = 2, SYNTH_SOLVE_ANY_ORDER = 4, SYNTH_SOLVE_ORDERED = 8 };
#define SYNTH_SOLVER_BUDGET 0.05 /* seconds a pair, by default */
#define SYNTH_SOLVER_MAX_K 6    /* rows per table the solver grows to */
int synth_solve(const sqlsim_schema *s, const char *gold_text, const char *pred_text, int flags, double budget_s,
                synth_solved *out);

/* Whether the gold's answer counts for the synth verdict: a row holding a
 * value that is not NULL. */
int synth_informative(const sqlsim_result *r);

/* ---------------------------------------------------------------- the distilled suite (suite.c) */

/* A gold's distilled suite: small databases the schema allows, each kept
 * because it tells the gold apart from a neighbor no database kept before it
 * does, and the gold's answer on each. */
typedef struct synth_suite {
  char *gold_text;          /* the gold as run: with the schema and the semantics, the cache's key */
  const char *ddl;          /* the schema's tables (the runner slot's text) */
  int bird, keep_distinct;
  synth_data **dbs;
  sqlsim_result *gold;      /* the gold's answer on each */
  int ndbs;
  int neighbors, told;      /* neighbors (those found equivalent left out), and told apart */
  int equivalent;           /* neighbors found equivalent to the gold (the same run text, or the same
                               tree once equivalent forms are made one) */
  char **survivors;         /* up to SYNTH_SURVIVORS neighbors no database tells apart, not found
                               equivalent: for a person to read */
  int nsurvivors;
  int runs;                 /* queries run to distil it */
} synth_suite;

#define SYNTH_SURVIVORS 8

/* Distils the suite of gold (parsed with its schema; gold_text as run) on
 * e's connection, seeded by seed. NULL only when out of memory. */
synth_suite *synth_suite_build(synth_env *e, const sqlsim_query *gold, const char *gold_text, uint64_t seed);
void synth_suite_free(synth_suite *st);
/* The gold's answers on the suite's databases taken again where e's queries
 * run now (a suite distilled on SQLite, judged on an engine: mirror.c);
 * a database where the gold fails there is dropped. */
void synth_suite_regold(synth_env *e, synth_suite *st);
/* The first database of the suite where the prediction (pred_text, as run)
 * answers otherwise than the gold: its index, with why; -1 when none does.
 * *judged counts the databases that were compared (not set aside),
 * *answered those of them where the gold returned a row. */
int synth_suite_judge(synth_env *e, const synth_suite *st, const char *pred_text, int *judged, int *answered,
                      char *why, size_t wn);

/* The pair's own search, where neither the pair's databases nor the gold's
 * suite told the two apart: the same variations (below) of the pair's
 * databases seeds[0..nseeds), each run with both queries, within a budget of
 * runs. 1 with *found (the first variation the schema allows on which they
 * answer differently) and why; 0 when none does. *judged counts the
 * variations compared, *answered those where the gold returned a row. */
int synth_search_pair(synth_env *e, synth_data *const *seeds, int nseeds, const synth_facts *f,
                      const char *gold_text, const char *pred_text, synth_data **found, int *judged, int *answered,
                      char *why, size_t wn);

/* Changes of a database that keep it one the schema allows, for the search
 * (synth/data.c): child rows without a parent removed (after rows were
 * removed); a table emptied; NULL in every other row (parity 0 or 1; 2: in every row) of the
 * nullable columns of the tables the gold reads (synth_nullable), or of one
 * column only (only >= 0: a NULL beside the row's other values); 0 in every other row of their number columns that are no key
 * (COUNT's value over nothing, the boundary of a sign); every row of a table twice, with new key values (of a key of
 * several columns, the last); rows holding one of the gold's literals
 * removed. Each returns a new database, or NULL when it would change
 * nothing. */
void synth_data_cascade(synth_data *d);
synth_data *synth_vary_empty(const synth_data *d, int t);
synth_data *synth_vary_nulls(const synth_data *d, const synth_facts *f, int parity, int only);
/* Column col may hold NULL: not in the primary key, not declared NOT NULL,
 * no foreign key points at it. */
int synth_nullable(const sqlsim_schema *s, int col);
/* ... and may hold one under the facts' rules: nullable, NULLs not ruled out
 * (no_nulls), no CHECK IS NOT NULL. */
int synth_may_null(const synth_facts *f, int col);
synth_data *synth_vary_zeros(const synth_data *d, const synth_facts *f, int parity);
synth_data *synth_vary_twice(const synth_data *d, int t);
synth_data *synth_vary_unplanted(const synth_data *d, const synth_facts *f);
/* The number values of the tables the queries read that no literal names
 * moved apart (no key, no foreign key): a real each up by a millionth of
 * itself and its row; an integer column's tied values within the type, each
 * to the next integer free below the next value held and the next literal:
 * ties at an ORDER BY's LIMIT broken, every comparison with a literal as it
 * was. */
synth_data *synth_vary_spread(const synth_data *d, const synth_facts *f);
/* The columns of pair k of f->compared made equal: in every other row of a
 * column compared with one of its own table, the other's value; across two
 * tables, each row of the second (every other one) takes a value of the
 * first's; a column compared with itself (a self-join) holds each value
 * twice. Keys and unique columns, and values a CHECK or the column's type
 * refuses, are left. NULL when nothing changes or past the last pair. */
synth_data *synth_vary_equal(const synth_data *d, const synth_facts *f, int k);
/* The number values of the tables the queries read (no key) made negative
 * in every other row (parity 0 or 1), where their column's CHECK allows:
 * a filter or an ABS the other query lacks. */
synth_data *synth_vary_negatives(const synth_data *d, const synth_facts *f, int parity);

/* ---------------------------------------------------------------- witnesses (witness.c) */

/* The witness of a verdict from d (taken over), on which the prediction
 * (pred_text) answers otherwise than the gold (gold_text): shrunk while it
 * still does and still satisfies the schema, with both answers. informative:
 * the synth verdict's rule, the gold must return a value there. tables: the
 * tables the queries read (created in the witness's SQL). runaway (non-NULL,
 * not empty): the prediction ran past its limits on d with that error; d is
 * then the witness as it is and the prediction is not run again. NULL when d
 * does not tell the two apart, or out of memory. */
sqlsim_witness *synth_witness_make(synth_env *e, synth_data *d, const char *gold_text, const char *pred_text,
                                   int informative, const char *verdict, const unsigned char *tables,
                                   const char *runaway);

#endif
