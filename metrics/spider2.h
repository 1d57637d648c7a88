/* spider2.h -- Spider 2.0's judgement (xlang-ai/Spider2, evaluation_suite/
 * evaluate.py at e12c5f1e), the interface of metrics/frame.c and
 * metrics/spider2.c to the engine.
 *
 * Spider 2.0 compares result tables, not queries: each saved as CSV and read
 * back by pandas.read_csv, then compare_pandas_table. What pandas makes of a
 * CSV decides the score (which column is a number, what a missing value
 * is, the text Python's str() gives a value for the sort), so the reader
 * here is pandas 1.5.3's (the C engine with its defaults, low_memory), cell
 * for cell, and the values are the Python objects the script compares:
 * docs/spider2.md has every rule with the line of pandas or evaluate.py it
 * comes from. */
#ifndef SQLSIM_SPIDER2_H
#define SQLSIM_SPIDER2_H

#include "core.h"

#include <stdint.h>

/* A column's dtype as pandas infers it. */
typedef enum { S2_INT64, S2_UINT64, S2_FLOAT64, S2_BOOL, S2_OBJECT } s2_dtype;

/* A cell as the Python object .values.tolist() gives the script. */
enum { S2_V_INT, S2_V_UINT, S2_V_FLOAT, S2_V_BOOL, S2_V_STR };
typedef struct s2_value {
  double x;                /* S2_V_FLOAT (NaN: a missing value) */
  union {
    int64_t i;             /* S2_V_INT; S2_V_BOOL: 0 or 1 */
    uint64_t u;            /* S2_V_UINT */
    const char *s;         /* S2_V_STR: its text (UTF-8, no NUL); S2_V_FLOAT: the CSV text it was
                              read from, or NULL */
  };
  uint32_t len;            /* the text's bytes */
  uint8_t kind;
} s2_value;

typedef struct s2_column {
  s2_dtype dtype;
  s2_value *v;             /* nrows cells */
} s2_column;

/* A result table as pandas holds it after read_csv: the data columns (an
 * implicit index left out), every column nrows long. */
typedef struct s2_frame {
  int ncols;
  long nrows;
  s2_column *cols;
  char *text;              /* the cells' text (owned) */
  long cells_budget_used;
} s2_frame;

#define S2_MAX_CSV_BYTES ((size_t)512 << 20) /* the largest CSV read (larger: an error, scored 0) */
#define S2_MAX_CELLS 50000000L                /* the most cells of one table */

/* Reads CSV bytes as pandas.read_csv(path) reads a file (pandas 1.5.3,
 * default arguments). Returns 0 with *out (free with s2_frame_free), or -1
 * with err saying what pandas raises there (the message names the line):
 * no columns, a row with more fields than the one before it, EOF inside a
 * quoted field, text that is not UTF-8, a table past the limits above. */
int s2_frame_read(const char *data, size_t n, s2_frame **out, sqlsim_error *err);
void s2_frame_free(s2_frame *f);

/* Python's strict UTF-8 decoder: -1 when s[0..n) decodes, else the offset
 * of the first byte it cannot (overlong forms, surrogates, past U+10FFFF). */
long s2_utf8_bad(const unsigned char *s, size_t n);

/* Python's repr() of a double (str() of a float): the shortest digits that
 * read back as x, in Python's layout ("0.1", "1e-05", "1e+16", "5.0",
 * "-inf", "nan"). buf holds at least 32 bytes; returns the length. text, when
 * not NULL, is a decimal x was read from (of len bytes): when it names x in
 * at most 15 digits, its digits are x's shortest and are taken from it. */
int s2_float_repr(double x, const char *text, uint32_t len, char *buf);

/* ---------------------------------------------------------------- the judgement (spider2.c) */

enum { S2_LITE = 1, S2_SNOW = 2 }; /* the two scripts: lite's and snow's evaluate.py */

/* A column of a table as the script compares it: the cells as Python
 * objects once the table's columns are put in one array (.values: one
 * dtype for all, floats for ints beside floats, objects beside text or
 * bools) and NaN read as 0 (normalize), each with str() of it (the sort's
 * key) and, for a number, float() of it. */
typedef struct s2_pyv {
  const char *key;
  uint32_t klen;
  uint8_t num;             /* isinstance(x, (int, float)): bools too */
  double f;
} s2_pyv;

typedef struct s2_vec {
  s2_pyv *v;               /* nrows, in the table's order */
  const s2_pyv **sorted;   /* the same sorted by (str(x), is a number): ignore_order's order */
  long n;
} s2_vec;

/* The vectors of a table's columns cols[0..ncols) (-1: all of them), as
 * gold.iloc[:, cols].transpose().values.tolist() gives them, sorted too
 * when sort is set. NULL when out of memory. */
typedef struct s2_vecs s2_vecs;
s2_vecs *s2_vecs_make(const s2_frame *f, const int *cols, int ncols, int sort);
void s2_vecs_free(s2_vecs *v);

/* A task's gold: its variants (<id>.csv, or <id>_a.csv, <id>_b.csv, ...,
 * any of which a prediction may match) and its rule (condition_cols,
 * ignore_order) from the eval file. */
typedef struct s2_gold_set s2_gold_set;
typedef struct s2_task_gold {
  int nvariants;
  int single;              /* <id>.csv: compare_pandas_table, else compare_multi_pandas_table */
  char **names;            /* the variants' file names */
  s2_frame **frames;       /* each read, or NULL */
  char error[400];         /* a variant that cannot be read (the script scores the item 0), or
                              no variant at all, or a rule the script fails on */
  int flavor;
  const void *rule;        /* the eval line (cJSON), owned by the set */
} s2_task_gold;

/* Opens a gold directory laid out as Spider 2.0's evaluation_suite/gold:
 * exec_result/ and spider2lite_eval.jsonl or spider2snow_eval.jsonl (flavor
 * 0: whichever is there; S2_LITE or S2_SNOW to choose). 0, or a negative
 * code with err. */
int s2_gold_open(const char *dir, int flavor, s2_gold_set **out, sqlsim_error *err);
void s2_gold_close(s2_gold_set *g);
int s2_gold_flavor(const s2_gold_set *g);
/* The eval file's instance ids, in its order (each once). */
int s2_gold_ids(const s2_gold_set *g, const char *const **ids);
int s2_gold_has(const s2_gold_set *g, const char *id);
/* Reads a task's gold variants; 0, or -1 when id has no eval line. */
int s2_task_gold_load(const s2_gold_set *g, const char *id, s2_task_gold *out);
void s2_task_gold_clear(s2_task_gold *t);

/* The verdict on one prediction. */
typedef struct s2_verdict {
  int score;               /* the script's: 1 when a variant matches */
  int variant;             /* the first variant that matched (index into names), -1 none */
  int rows;                /* --rows: 1 when a matching variant's columns also match row by row
                              (the same predicted rows), 0 not, -1 not asked */
  char error[400];         /* why the script scored 0 other than a mismatch ("" none) */
  int gold_side;           /* error is the gold's (a variant unreadable, the rule) */
} s2_verdict;

/* compare_multi_pandas_table / compare_pandas_table of the flavor's script
 * on pred (already read), and with rows the row-by-row judgement. */
void s2_judge(const s2_task_gold *t, const s2_frame *pred, int rows, s2_verdict *out);

/* ---------------------------------------------------------------- a result as the scripts save it */

/* A value as a database driver hands it to pandas: sqlsim.h's sqlsim_value. */
typedef sqlsim_value s2_cell;
enum {
  S2_C_NULL = SQLSIM_V_NULL,
  S2_C_INT = SQLSIM_V_INT,
  S2_C_REAL = SQLSIM_V_REAL,
  S2_C_TEXT = SQLSIM_V_TEXT,
  S2_C_BLOB = SQLSIM_V_BLOB,
  S2_C_BOOL = SQLSIM_V_BOOL,
  S2_C_DECIMAL = SQLSIM_V_DECIMAL,
  S2_C_OBJECT = SQLSIM_V_OBJECT
};

/* A query's rows as CSV text the way the scripts save them: as DataFrames
 * of chunk rows (read_sql_query(chunksize=500) in lite's SQLite path; 0:
 * one DataFrame, as pd.DataFrame(rows)), each column's dtype inferred from
 * its Python values (maybe_convert_objects), written by to_csv(index=False)
 * (repr of floats, str of objects, empty for missing, quotes only where
 * ',', '"' or \n need them). ncols placeholder names head it. 0, or -1
 * with err (text that is not UTF-8: Python's sqlite3 cannot fetch it). */
int s2_rows_csv(const s2_cell *cells, long nrows, int ncols, long chunk, strbuf *out, sqlsim_error *err);

/* The SQL lite's script runs from a prediction file's text (read as text:
 * \r\n and \r become \n): the first ```sql fenced block, stripped, else
 * the whole text (malloc'd). */
char *s2_sql_from_file(const char *text, size_t n);

#endif
