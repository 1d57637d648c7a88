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
  unsigned char *edges;   /* [ncolumns] for a column the prediction compares with one of the gold's
                             literals by another range operator (> 2.0 against >= 2.0): where the
                             gold's range comparisons of it fail, SYNTH_BELOW (x > 2), SYNTH_ABOVE
                             (x < 2) or both (BETWEEN); 0 elsewhere. NULL: no such column */
  int ngroups;
  int *related;           /* [ngroups] each SELECT's representative among the SELECTs a key subquery
                             joins it to (x IN (SELECT x FROM t ..), x = (SELECT x ..)): a row of one
                             whose own SELECT has no parent row takes one of the others' */
  struct synth_pair { int outer, inner; } *sub; /* those subquery joins, while reading */
  int nsub, sub_cap;
  int count_threshold;    /* the largest number compared with COUNT(..) (HAVING count(*) > N) */
  struct synth_null { int column, group, isnull; } *nulls; /* the gold's x IS [NOT] NULL tests, per SELECT */
  int nnulls, nulls_cap;
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
  int outside;       /* free values of a column the two queries bound at one literal by different
                        range operators (x >= 2.0, x > 2.0) all where the gold's comparison
                        fails (below 2.0), not around the literals: the rows planted at the
                        edge are then the only ones that pass, so >= and > differ (one
                        database more, synth_wants_outside) */
  uint64_t seed;
} synth_shape;

enum { SYNTH_BELOW = 1, SYNTH_ABOVE = 2 };

/* Whether the two queries bound a column at one literal by different range
 * operators (f->edges): then the pair gets a database more, with the shape
 * of the next k and outside set. */
static inline int synth_wants_outside(const synth_facts *f) { return f->edges != NULL; }

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

#endif
