/* sqlsim.h -- the one public header of sqlsim, a toolkit for text-to-SQL SQL.
 *
 * Pipeline: SQL text -> dialect front end (parser/lexer.c) -> libpg_query ->
 * the project's own tree (parser/build.c) -> normalized tree (parser/normalize.c)
 * -> printer (parser/print.c) and the later stages (match, diff, rewrite,
 * metrics).
 *
 * Conventions, as in STYLE.md:
 * - fallible functions return 0 on success or a negative SQLSIM_E* code, and
 *   fill an optional sqlsim_error with a message and a byte offset into the
 *   caller's original text;
 * - every parsed query lives in one arena and dies with sqlsim_query_free();
 * - schemas live in their catalog's arena and die with sqlsim_catalog_free(). */
#ifndef SQLSIM_H
#define SQLSIM_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every name this header declares is exported from libsqlsim.so and nothing
 * else is: the library is built with hidden visibility, and SQLSIM_API marks
 * the public API. */
#if defined(__GNUC__) || defined(__clang__)
#define SQLSIM_API __attribute__((visibility("default")))
#else
#define SQLSIM_API
#endif

/* ---------------------------------------------------------------- errors */

enum {
  SQLSIM_OK = 0,
  SQLSIM_ESYNTAX = -1,  /* the SQL does not parse */
  SQLSIM_EUNSUPPORTED = -2, /* parses, but uses a construct sqlsim does not model */
  SQLSIM_EIO = -3,      /* a file could not be read or written */
  SQLSIM_EFORMAT = -4,  /* an input file is not in the expected format */
  SQLSIM_ENOTFOUND = -5,/* a named item (db_id, table) does not exist */
  SQLSIM_ESQLITE = -6,  /* SQLite reported an error */
  SQLSIM_EMULTI = -7,   /* more than one statement where one was expected */
  SQLSIM_ENOMEM = -8,
  SQLSIM_ECONFIG = -9,  /* a configuration that cannot score as given (a metric without what it
                           needs, an option out of range): the caller's to fix */
  SQLSIM_EEXISTS = -10  /* what would be written exists and was left as it is (sqlsim_load) */
};

typedef struct sqlsim_error {
  int code;            /* one of the SQLSIM_E* codes, 0 when no error */
  int offset;          /* byte offset in the user's original text, -1 if none */
  char message[512];
} sqlsim_error;

/* Sets err (if not NULL) and returns code. printf-style. */
SQLSIM_API int sqlsim_error_set(sqlsim_error *err, int code, int offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---------------------------------------------------------------- arena */

typedef struct sqlsim_arena sqlsim_arena;

/* Returns a new arena, or NULL when out of memory. */
SQLSIM_API sqlsim_arena *sqlsim_arena_new(void);
/* Frees every block of the arena; NULL is a no-op. */
SQLSIM_API void sqlsim_arena_free(sqlsim_arena *a);
/* Returns zeroed memory owned by the arena; aborts only on out of memory. */
SQLSIM_API void *sqlsim_arena_alloc(sqlsim_arena *a, size_t size);
/* Copies len bytes of s and a terminating NUL into the arena. */
SQLSIM_API char *sqlsim_arena_strndup(sqlsim_arena *a, const char *s, size_t len);
SQLSIM_API char *sqlsim_arena_strdup(sqlsim_arena *a, const char *s);
/* printf into the arena. */
SQLSIM_API char *sqlsim_arena_printf(sqlsim_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Bytes handed out so far (for benchmarks and memory reports). */
SQLSIM_API size_t sqlsim_arena_used(const sqlsim_arena *a);

/* ---------------------------------------------------------------- schemas */

typedef struct sqlsim_column {
  const char *name;       /* as written in the schema */
  const char *key;        /* case-folded (ASCII lower case), for lookups */
  const char *type;       /* declared type, "" if none */
  const char *collation;  /* declared collation, NULL for BINARY/unknown */
  int table;              /* index into sqlsim_schema.tables */
  unsigned pk : 1;        /* part of the primary key */
  unsigned notnull : 1;   /* declared NOT NULL (or INTEGER PRIMARY KEY) */
  unsigned unique : 1;    /* alone forms a primary key or a UNIQUE index */
  unsigned numeric : 1;   /* declared a number type: tables.json's number, integer, real; a SQLite
                             type of INTEGER or REAL affinity, or NUMERIC, DECIMAL, NUMBER (not
                             DATE or BOOLEAN): its values are numbers */
  /* Values the column holds in the real data, as text (distinct, at most
   * 32): Spider 2.0's sample rows (sqlsim_catalog_load_spider2); NULL with
   * nsamples 0 for other sources. Generated databases draw from them. */
  const char *const *samples;
  int nsamples;
} sqlsim_column;

typedef struct sqlsim_table {
  const char *name;       /* as written */
  const char *key;        /* case-folded */
  int first_column;       /* columns are contiguous in sqlsim_schema.columns */
  int ncolumns;
  /* The table's CHECK constraints (a SQLite file's; tables.json has none):
   * each expression as its CREATE TABLE writes it, comments taken out. Text
   * that could close the CHECK clause (a ';', parentheses that do not
   * balance) is never kept, so sqlsim_schema_ddl writes each as
   * CHECK (text) and SQLite enforces it; sqlsim never runs it otherwise. */
  const char *const *checks;
  int nchecks;
} sqlsim_table;

typedef struct sqlsim_fkey {
  int column;             /* referencing column (index into columns) */
  int ref_column;         /* referenced column */
} sqlsim_fkey;

typedef struct sqlsim_schema {
  const char *db_id;
  sqlsim_table *tables;
  int ntables;
  sqlsim_column *columns;
  int ncolumns;
  sqlsim_fkey *fkeys;
  int nfkeys;
  struct sqlsim_schema_index *index; /* private lookup tables */
} sqlsim_schema;

typedef struct sqlsim_catalog sqlsim_catalog;

/* Loads every database of a Spider/BIRD tables.json file (or, given a
 * folder, Spider 2.0's: sqlsim_catalog_load_spider2). Returns 0 or a
 * negative code with err filled (message names the entry and byte offset). */
SQLSIM_API int sqlsim_catalog_load_tables_json(const char *path, sqlsim_catalog **out,
                                    sqlsim_error *err);
/* Loads Spider 2.0's database folders: DIR/<db>/DDL.csv (each CREATE
 * TABLE, run in a private SQLite and read back) and DIR/<db>/<table>.json
 * (sample rows: sqlsim_column.samples). sqlsim_catalog_load_tables_json
 * takes such a folder too. 0 or an error naming the file and line. */
SQLSIM_API int sqlsim_catalog_load_spider2(const char *dir, sqlsim_catalog **out, sqlsim_error *err);
/* The same from text in memory; name (may be NULL) stands for the file. */
SQLSIM_API int sqlsim_catalog_parse_tables_json(const char *text, size_t len, const char *name,
                                     sqlsim_catalog **out, sqlsim_error *err);
/* Reads the schema of one SQLite database file (opened read-only) as a
 * one-schema catalog whose db_id is the file's base name without extension. */
SQLSIM_API int sqlsim_catalog_load_sqlite(const char *path, sqlsim_catalog **out,
                               sqlsim_error *err);
/* Returns the schema for db_id, or NULL. A db_id not found as written
 * finds the one schema named alike but for letter case and - for _. */
SQLSIM_API const sqlsim_schema *sqlsim_catalog_find(const sqlsim_catalog *c, const char *db_id);
/* Number of schemas, and the i-th one. */
SQLSIM_API int sqlsim_catalog_count(const sqlsim_catalog *c);
SQLSIM_API const sqlsim_schema *sqlsim_catalog_at(const sqlsim_catalog *c, int i);
SQLSIM_API void sqlsim_catalog_free(sqlsim_catalog *c);

/* Case-insensitive lookups; return an index or -1. */
SQLSIM_API int sqlsim_schema_find_table(const sqlsim_schema *s, const char *name);
SQLSIM_API int sqlsim_schema_find_column(const sqlsim_schema *s, int table, const char *name);

/* Writes the CREATE TABLE statements of a schema (SQLite SQL) into a malloc'd
 * string the caller frees. */
SQLSIM_API char *sqlsim_schema_ddl(const sqlsim_schema *s);
/* The same for the tables marked in tables[] (one byte per table; NULL: all). */
SQLSIM_API char *sqlsim_schema_ddl_tables(const sqlsim_schema *s, const unsigned char *tables);
/* Creates the tables marked in tables[] (NULL: all) in db (a sqlite3 *,
 * writable), one statement at a time under an authorizer that allows
 * creating tables and indexes and nothing else: what a schema file wrote
 * (a type, a CHECK) can do no more. 0, or SQLSIM_ESQLITE with err set. */
SQLSIM_API int sqlsim_schema_create_tables(void *db, const sqlsim_schema *s, const unsigned char *tables,
                                           sqlsim_error *err);
/* Creates a schema-only SQLite database at path (":memory:" allowed) and
 * returns the open handle in *db (a sqlite3 *). Refuses to touch an existing
 * file. */
SQLSIM_API int sqlsim_schema_create_sqlite(const sqlsim_schema *s, const char *path,
                                void **db, sqlsim_error *err);

/* ---------------------------------------------------------------- items */

/* One question of a benchmark, or one prediction: the SQL and what is known
 * of it. Strings are NULL when the file does not have them. */
typedef struct sqlsim_item {
  const char *sql;
  const char *db_id;
  const char *question;
  const char *difficulty; /* BIRD "difficulty" */
  const char *case_type;  /* BIS "case_type" */
  int line;               /* 1-based line (line files) or position in the JSON */
} sqlsim_item;

typedef struct sqlsim_itemset {
  const char *path;
  const char *format;     /* "lines", "spider-json", "bird-json", "bis-json", "bird-pred" */
  sqlsim_item *items;
  int n;
  sqlsim_arena *arena;
} sqlsim_itemset;

/* Loads gold or predictions, detecting the format: one SQL per line or
 * "SQL<TAB>db_id" lines (CRLF, no final newline, tabs inside the SQL all
 * fine); a JSON array of Spider/BIRD/BIS questions; or a BIRD prediction
 * object {"0": "SQL\t----- bird -----\tdb_id", ...}, whose keys are question
 * indices and may cover part of the set (items ordered by key, each with
 * line = key + 1). Returns 0, or a negative
 * code with err naming the file and the byte offset of the problem. */
SQLSIM_API int sqlsim_items_load(const char *path, sqlsim_itemset **out, sqlsim_error *err);
/* The same from text in memory; name (may be NULL) stands for the file in
 * messages. */
SQLSIM_API int sqlsim_items_parse(const char *text, size_t len, const char *name, sqlsim_itemset **out,
                       sqlsim_error *err);
SQLSIM_API void sqlsim_items_free(sqlsim_itemset *s);
/* Whether two SQL texts are the same up to surrounding white space and
 * trailing semicolons (so they parse to the same tree). */
SQLSIM_API int sqlsim_same_text(const char *a, const char *b);

/* A db_id from a benchmark file names a database, never a path: it must be
 * non-empty, at most 255 bytes, not start with '.', and have no '/', '\'
 * or control character. Returns 0 or SQLSIM_EFORMAT with err saying why. */
SQLSIM_API int sqlsim_check_db_id(const char *db_id, sqlsim_error *err);
/* DIR/<db_id>/<db_id>.sqlite (Spider's and BIRD's layout) for a checked
 * db_id, so the path stays inside dir whatever a file says; malloc'd, or NULL
 * with err set. Whether the file exists is not checked. */
SQLSIM_API char *sqlsim_db_path(const char *dir, const char *db_id, sqlsim_error *err);

/* ---------------------------------------------------------------- trees */

typedef enum sqlsim_kind {
  SQLSIM_N_SELECT = 1, /* kids: SQLSIM_SEL_* slots, any may be NULL */
  SQLSIM_N_LIST,       /* a list; flag SQLSIM_F_UNORDERED when compared as a bag */
  SQLSIM_N_TARGET,     /* select item; text = alias or NULL; kids[0] = expr */
  SQLSIM_N_TABLE,      /* table in FROM; text = table, alias = alias */
  SQLSIM_N_SUBQUERY,   /* derived table; alias; kids[0] = SELECT */
  SQLSIM_N_JOIN,       /* op = SQLSIM_JOIN_*; kids: left, right, on, using */
  SQLSIM_N_FUNCTABLE,  /* table-valued function in FROM; kids[0] = FUNC */
  SQLSIM_N_CTE,        /* text = name; kids[0] = SELECT, kids[1] = column list */
  SQLSIM_N_SORT,       /* op = SQLSIM_SORT_*; kids[0] = expr */
  SQLSIM_N_COLUMN,     /* text = column, qual = qualifier as written */
  SQLSIM_N_STAR,       /* '*' or 'qual.*' */
  SQLSIM_N_CONST,      /* op = SQLSIM_CONST_*; text = literal text */
  SQLSIM_N_PARAM,      /* ?, ?1, :name, $1 */
  SQLSIM_N_BINOP,      /* op = SQLSIM_OP_*; kids: left, right[, escape] */
  SQLSIM_N_UNOP,       /* op = SQLSIM_OP_NEG/PLUS/BITNOT; kids[0] */
  SQLSIM_N_AND,        /* n-ary, canonical order */
  SQLSIM_N_OR,         /* n-ary, canonical order */
  SQLSIM_N_NOT,        /* kids[0] */
  SQLSIM_N_ISNULL,     /* op = SQLSIM_ISNULL/SQLSIM_NOTNULL */
  SQLSIM_N_BOOLTEST,   /* op = SQLSIM_IS_TRUE ...; kids[0] */
  SQLSIM_N_BETWEEN,    /* flag NOT; kids: x, low, high */
  SQLSIM_N_IN,         /* flag NOT; kids: x, LIST of values (canonical order) */
  SQLSIM_N_SUBLINK,    /* op = SQLSIM_SUB_*; flag NOT; kids: test or NULL, SELECT */
  SQLSIM_N_FUNC,       /* text = name; flags DISTINCT/STAR; kids: args LIST, filter, window */
  SQLSIM_N_CASE,       /* kids: operand or NULL, else or NULL, WHEN... */
  SQLSIM_N_WHEN,       /* kids: condition, result */
  SQLSIM_N_CAST,       /* text = type name; kids[0] */
  SQLSIM_N_COLLATE,    /* text = collation; kids[0] */
  SQLSIM_N_ROW,        /* (a, b, ...) */
  SQLSIM_N_WINDOW,     /* text = name or NULL; kids: partition LIST, order LIST; alias = frame */
  SQLSIM_N_VALUES,     /* VALUES rows: kids = ROW */
  SQLSIM_N__COUNT
} sqlsim_kind;

/* Slots of a SELECT node (kids[]). A plain SELECT uses WITH..OFFSET; a set
 * operation (op != SQLSIM_SET_NONE) uses LARG/RARG plus ORDER/LIMIT/OFFSET. */
enum {
  SQLSIM_SEL_WITH, SQLSIM_SEL_TARGETS, SQLSIM_SEL_FROM, SQLSIM_SEL_WHERE,
  SQLSIM_SEL_GROUP, SQLSIM_SEL_HAVING, SQLSIM_SEL_ORDER, SQLSIM_SEL_LIMIT,
  SQLSIM_SEL_OFFSET, SQLSIM_SEL_LARG, SQLSIM_SEL_RARG, SQLSIM_SEL_WINDOW,
  SQLSIM_SEL_VALUES, SQLSIM_SEL_DISTINCT_ON, /* PostgreSQL's DISTINCT ON (list) */
  SQLSIM_SEL__COUNT
};

enum { SQLSIM_SET_NONE, SQLSIM_SET_UNION, SQLSIM_SET_INTERSECT, SQLSIM_SET_EXCEPT };
enum { SQLSIM_JOIN_INNER, SQLSIM_JOIN_LEFT, SQLSIM_JOIN_RIGHT, SQLSIM_JOIN_FULL,
       SQLSIM_JOIN_CROSS };
enum { SQLSIM_SORT_DEFAULT, SQLSIM_SORT_ASC, SQLSIM_SORT_DESC };
enum { SQLSIM_NULLS_DEFAULT, SQLSIM_NULLS_FIRST, SQLSIM_NULLS_LAST };
enum { SQLSIM_CONST_INT, SQLSIM_CONST_FLOAT, SQLSIM_CONST_STRING, SQLSIM_CONST_NULL,
       SQLSIM_CONST_BOOL, SQLSIM_CONST_BLOB };
enum { SQLSIM_ISNULL, SQLSIM_NOTNULL };
enum { SQLSIM_IS_TRUE, SQLSIM_IS_NOT_TRUE, SQLSIM_IS_FALSE, SQLSIM_IS_NOT_FALSE,
       SQLSIM_IS_UNKNOWN, SQLSIM_IS_NOT_UNKNOWN };
enum { SQLSIM_SUB_EXISTS, SQLSIM_SUB_IN, SQLSIM_SUB_SCALAR, SQLSIM_SUB_ANY,
       SQLSIM_SUB_ALL };

typedef enum sqlsim_op {
  SQLSIM_OP_NONE = 0,
  SQLSIM_OP_EQ, SQLSIM_OP_NE, SQLSIM_OP_LT, SQLSIM_OP_LE, SQLSIM_OP_GT, SQLSIM_OP_GE,
  SQLSIM_OP_IS, SQLSIM_OP_ISNOT,          /* SQLite IS / IS NOT (null-safe) */
  SQLSIM_OP_ADD, SQLSIM_OP_SUB, SQLSIM_OP_MUL, SQLSIM_OP_DIV, SQLSIM_OP_MOD,
  SQLSIM_OP_CONCAT, SQLSIM_OP_BITAND, SQLSIM_OP_BITOR, SQLSIM_OP_SHL, SQLSIM_OP_SHR,
  SQLSIM_OP_LIKE, SQLSIM_OP_NOTLIKE, SQLSIM_OP_GLOB, SQLSIM_OP_NOTGLOB,
  SQLSIM_OP_REGEXP, SQLSIM_OP_NOTREGEXP,
  SQLSIM_OP_ILIKE, SQLSIM_OP_NOTILIKE,    /* not SQLite: dialect error */
  SQLSIM_OP_OTHER,                        /* any other operator; text = symbol */
  SQLSIM_OP_NEG, SQLSIM_OP_PLUS, SQLSIM_OP_BITNOT,
  SQLSIM_OP__COUNT
} sqlsim_op;

/* Node flags. */
enum {
  SQLSIM_F_UNORDERED = 1u << 0,  /* LIST compared as a bag by the metrics */
  SQLSIM_F_DISTINCT = 1u << 1,   /* SELECT DISTINCT, COUNT(DISTINCT ..) */
  SQLSIM_F_NOT = 1u << 2,        /* NOT IN, NOT BETWEEN, NOT EXISTS */
  SQLSIM_F_ALL = 1u << 3,        /* UNION ALL */
  SQLSIM_F_STAR = 1u << 4,       /* COUNT(*) */
  SQLSIM_F_UNRESOLVED = 1u << 5, /* a name the schema does not know */
  SQLSIM_F_AMBIGUOUS = 1u << 6,  /* a column several tables in scope have */
  SQLSIM_F_ALIASREF = 1u << 7,   /* a column naming a select-list alias */
  SQLSIM_F_OUTER = 1u << 8,      /* a column of an enclosing query (correlated) */
  SQLSIM_F_DQSTRING = 1u << 9,   /* a "double-quoted" word SQLite reads as a string */
  SQLSIM_F_NATURAL = 1u << 10,   /* NATURAL JOIN */
  SQLSIM_F_DIALECT = 1u << 11,   /* valid elsewhere, not in SQLite (::, ILIKE..) */
  SQLSIM_F_RECURSIVE = 1u << 12, /* WITH RECURSIVE */
  SQLSIM_F_SYNTHETIC = 1u << 13, /* alias added by the front end, not the user */
  SQLSIM_F_SWAPPED = 1u << 14,   /* operands put in canonical order */
  SQLSIM_F_CTEREF = 1u << 15,    /* a TABLE naming a common table expression */
  SQLSIM_F_FILTER = 1u << 16     /* FUNC has a FILTER clause (kids[1]) */
};

typedef struct sqlsim_node sqlsim_node;
struct sqlsim_node {
  uint16_t kind;          /* sqlsim_kind */
  uint16_t op;            /* per-kind operator / sub-kind */
  uint32_t flags;         /* SQLSIM_F_* */
  const char *text;       /* name or literal; case-folded identifiers */
  const char *alias;      /* TABLE/SUBQUERY alias, N_COLUMN qualifier as written */
  const char *raw;        /* identifier as the user spelled it (case kept) */
  sqlsim_node **kids;
  uint32_t nkids;
  int32_t start, end;     /* byte span in the original SQL, -1 if unknown */
  int32_t aux;            /* WINDOW: PostgreSQL frame options; SORT: SQLSIM_NULLS_*;
                             FUNC: 1 for a keyword form (CURRENT_DATE) */
  /* Filled by normalization. */
  int32_t table;          /* COLUMN: schema table index, -1 unknown;
                             TABLE: schema table index, -1 unknown */
  int32_t column;         /* COLUMN: schema column index, -1 unknown */
  sqlsim_node *source;    /* COLUMN: the FROM item (TABLE/SUBQUERY/CTE) it reads;
                             TABLE with F_CTEREF: the CTE */
  uint32_t instance;      /* TABLE/SUBQUERY: number of the FROM item in the query */
};

typedef struct sqlsim_query {
  sqlsim_node *root;           /* a SELECT node */
  const char *sql;             /* copy of the original text */
  size_t sql_len;
  const sqlsim_schema *schema; /* NULL when parsed without a schema */
  int nunresolved;             /* names flagged UNRESOLVED or AMBIGUOUS */
  int ndialect;                /* nodes flagged DIALECT */
  sqlsim_arena *arena;         /* owns everything above */
} sqlsim_query;

/* ---------------------------------------------------------------- answers */

/* The SQL in a model's answer (parser/extract.c): the last fenced block
 * naming SQL (or none), else the last <answer> element, else the text after
 * a final-answer marker, else after </think>, else the text; and when that
 * does not parse, its longest leading part ending at a ';' or a line end
 * that does (prose after the query). Returns 0 with the SQL at
 * text[out->start, out->start + out->len) and where it came from, or
 * SQLSIM_ENOTFOUND (from = SQLSIM_FROM_NONE) when no statement starts there:
 * "no SQL found in the answer". */
enum { SQLSIM_FROM_TEXT, SQLSIM_FROM_FENCE, SQLSIM_FROM_ANSWER, SQLSIM_FROM_MARKER, SQLSIM_FROM_THINK,
       SQLSIM_FROM_STATEMENT, SQLSIM_FROM_NONE };
/* "text", "fence", "answer", "marker", "think", "statement", "none" */
SQLSIM_API extern const char *const sqlsim_extract_names[];
typedef struct sqlsim_extract {
  int from;              /* SQLSIM_FROM_* */
  size_t start, len;     /* the SQL's span in the text */
} sqlsim_extract;
SQLSIM_API int sqlsim_extract_sql(const char *text, size_t len, sqlsim_extract *out);

/* Parse options. */
enum {
  SQLSIM_PARSE_NO_NORMALIZE = 1u << 0, /* build the tree, skip normalization */
  /* The dialect the text is written in (default: SQLite's, with the MySQL
   * forms models mix into it: backticks, LIMIT a, b). */
  SQLSIM_PARSE_POSTGRES = 1u << 1,     /* PostgreSQL's: read as PostgreSQL reads it, nothing rewritten */
  SQLSIM_PARSE_MYSQL = 1u << 2,        /* MySQL's: backslash escapes, "..." strings, # comments, || as
                                          OR, <=>, DIV, MOD, INTERVAL 1 DAY, CAST(x AS SIGNED) ... */
  SQLSIM_PARSE_PIPES_AS_CONCAT = 1u << 3, /* MySQL under sql_mode PIPES_AS_CONCAT (or ANSI): || joins text */
  SQLSIM_PARSE_ANSI_QUOTES = 1u << 4,  /* MySQL under sql_mode ANSI_QUOTES (or ANSI): "x" is a name */
  SQLSIM_PARSE_DUCKDB = 1u << 5        /* with POSTGRES: DuckDB's, its date functions read as the
                                          SQLite forms they are (strftime(d, fmt), year(d), date_diff) */
};
/* The parse options of a dialect (SQLSIM_DIALECT_*; ENGINE: the engine's
 * own, SQLite's for files). */
enum { SQLSIM_DIALECT_ENGINE, SQLSIM_DIALECT_SQLITE, SQLSIM_DIALECT_POSTGRES, SQLSIM_DIALECT_MYSQL,
       SQLSIM_DIALECT_DUCKDB };
SQLSIM_API unsigned sqlsim_dialect_parse_options(int dialect);
/* Reads a dialect's name (sqlite, postgres or postgresql, mysql or mariadb,
 * duckdb):
 * 0 and *out, or SQLSIM_EFORMAT. */
SQLSIM_API int sqlsim_dialect_parse(const char *name, int *out, sqlsim_error *err);
/* A dialect's name ("sqlite", "duckdb" ...), NULL for no dialect. */
SQLSIM_API const char *sqlsim_dialect_name(int dialect);

/* Parses one SQL statement (a trailing ';' and comments allowed), in the
 * dialect the options name, into a normalized tree. schema may be NULL. On success
 * *out owns an arena the caller frees with sqlsim_query_free(). On failure
 * returns a negative code, *out is NULL and err says what and where (a byte
 * offset in sql). */
SQLSIM_API int sqlsim_parse(const char *sql, size_t len, const sqlsim_schema *schema,
                 unsigned options, sqlsim_query **out, sqlsim_error *err);
SQLSIM_API void sqlsim_query_free(sqlsim_query *q);
/* A deep copy in an arena of its own (cheaper than parsing again). */
SQLSIM_API sqlsim_query *sqlsim_query_clone(const sqlsim_query *q);
/* Releases the calling thread's parser caches (done anyway at thread exit);
 * call before exit when checking for leaks. */
SQLSIM_API void sqlsim_thread_cleanup(void);

/* Tree walking: the callback returns one of these. */
enum { SQLSIM_WALK_CONTINUE = 0, SQLSIM_WALK_PRUNE = 1, SQLSIM_WALK_ABORT = 2 };
typedef int (*sqlsim_walk_fn)(sqlsim_node *n, sqlsim_node *parent, void *ctx);
/* Visits n and its descendants in pre-order; post (may be NULL) is called
 * after a node's children. Returns SQLSIM_WALK_ABORT if a callback aborted. */
SQLSIM_API int sqlsim_walk(sqlsim_node *n, sqlsim_walk_fn pre, sqlsim_walk_fn post, void *ctx);

/* Printing. */
enum {
  SQLSIM_PRINT_QUALIFY = 1u << 0  /* write resolved columns as table.column, by table name
                                     (for display and comparison: not runnable when the
                                     query gives the table an alias) */
};
/* Returns the node printed as SQLite SQL, in a malloc'd string the caller
 * frees; NULL only when out of memory. */
SQLSIM_API char *sqlsim_print_sql(const sqlsim_node *n, unsigned options);
/* Returns an indented S-expression dump of the tree (malloc'd). */
SQLSIM_API char *sqlsim_print_tree(const sqlsim_node *n);
/* Returns the tree as JSON (malloc'd). */
SQLSIM_API char *sqlsim_print_json(const sqlsim_node *n);

/* ---------------------------------------------------------------- Spider match */

/* Spider component matching and exact set match (metrics/spider_*.c).
 * COMPATIBLE reproduces the official test-suite evaluation.py item by item
 * (its parser, its rejections, its quirks); CORRECTED scores every query
 * SQLite accepts, from sqlsim's own parse (docs/spider-corrected.md). */
enum { SQLSIM_SPIDER_COMPATIBLE, SQLSIM_SPIDER_CORRECTED };
enum { SQLSIM_HARD_EASY, SQLSIM_HARD_MEDIUM, SQLSIM_HARD_HARD, SQLSIM_HARD_EXTRA,
       SQLSIM_HARD_UNKNOWN };
#define SQLSIM_SPIDER_NPARTIAL 10
SQLSIM_API extern const char *const sqlsim_spider_partial_names[SQLSIM_SPIDER_NPARTIAL]; /* JSON keys */
SQLSIM_API extern const char *const sqlsim_spider_partial_labels[SQLSIM_SPIDER_NPARTIAL]; /* report rows */
SQLSIM_API extern const char *const sqlsim_hardness_names[5];

typedef struct sqlsim_spider sqlsim_spider;           /* evaluator: schemas, caches */
typedef struct sqlsim_spider_gold sqlsim_spider_gold; /* one gold query, parsed once */

typedef struct sqlsim_spider_score {
  int hardness;                               /* SQLSIM_HARD_* */
  int exact;                                  /* 0/1 */
  int f1[SQLSIM_SPIDER_NPARTIAL];             /* per component, 0/1 */
  int pred_total[SQLSIM_SPIDER_NPARTIAL], label_total[SQLSIM_SPIDER_NPARTIAL];
  int pred_rejected;                          /* the prediction was scored as empty */
  sqlsim_error error;                         /* why (code 0 when none) */
} sqlsim_spider_score;

/* Makes an evaluator over a catalog (tables.json). db_dir (may be NULL) holds
 * DIR/<db_id>/<db_id>.sqlite; compatible mode reads table and column names from
 * there when present, as the official evaluator does. */
SQLSIM_API int sqlsim_spider_new(const sqlsim_catalog *cat, const char *db_dir, int mode,
                      sqlsim_spider **out, sqlsim_error *err);
SQLSIM_API void sqlsim_spider_free(sqlsim_spider *e);
/* Parses a gold query once. On failure the gold cannot be scored: returns a
 * negative code with err set, and *out is NULL. */
SQLSIM_API int sqlsim_spider_gold_prepare(sqlsim_spider *e, const char *sql, const char *db_id,
                               sqlsim_spider_gold **out, sqlsim_error *err);
/* Hardness of a prepared gold. */
SQLSIM_API int sqlsim_spider_gold_hardness(const sqlsim_spider_gold *g);
/* Frees a prepared gold (NULL is a no-op); the evaluator keeps only schemas. */
SQLSIM_API void sqlsim_spider_gold_free(sqlsim_spider_gold *g);
/* Scores a prediction against a prepared gold. Never fails: a prediction that
 * cannot be read is scored as the official evaluator scores it (an empty
 * query), with out->pred_rejected and out->error saying why. */
SQLSIM_API void sqlsim_spider_score_pred(sqlsim_spider *e, const sqlsim_spider_gold *g, const char *pred,
                              sqlsim_spider_score *out);

/* Totals over items, by hardness, as the official report computes them. */
typedef struct sqlsim_spider_totals {
  int count[5];                               /* easy, medium, hard, extra, all */
  double exact[5];
  double acc[5][SQLSIM_SPIDER_NPARTIAL], rec[5][SQLSIM_SPIDER_NPARTIAL];
  int acc_count[5][SQLSIM_SPIDER_NPARTIAL], rec_count[5][SQLSIM_SPIDER_NPARTIAL];
  int rejected;                               /* predictions scored as empty */
} sqlsim_spider_totals;

SQLSIM_API void sqlsim_spider_totals_add(sqlsim_spider_totals *t, const sqlsim_spider_score *s);
/* Final figures for level (0..4): exact accuracy, and per component the
 * accuracy, recall and F1. Compatible mode keeps the official F1 of 1 when
 * accuracy and recall are both 0; corrected mode gives 0 there, and NaN when
 * no item of the level has the component at all. */
SQLSIM_API void sqlsim_spider_totals_final(const sqlsim_spider_totals *t, int mode, int level, double *exact,
                                double acc[], double rec[], double f1[]);

/* ---------------------------------------------------------------- execution */

/* The safe executor (exec/exec.c, on exec/sandbox.c): databases opened
 * read-only and hardened (defensive, untrusted schema, no extensions), an
 * authorizer that refuses every write, ATTACH, state-changing PRAGMA and
 * extension loading, one statement only, and limits on everything SQL can
 * grow: time (progress handler, a watchdog, and time checks inside the string
 * functions whose cost is more than linear), memory per connection, value and
 * SQL size, rows. Results are streamed into per-cell hashes, never held as
 * values. docs/execution.md lists every rule. */
typedef struct sqlsim_exec_opts {
  double timeout_s;      /* per query; 0 = 30 s */
  long max_rows;         /* 0 = 10 million */
  const char *fixed_now; /* "YYYY-MM-DD HH:MM:SS" SQLite's 'now' and CURRENT_*, or NULL */
  size_t max_memory;     /* bytes SQLite may hold for one connection; 0 = 512 MiB */
} sqlsim_exec_opts;

/* Checks a fixed "now" the way the executor reads it: 0, or SQLSIM_EFORMAT
 * with err saying what is wrong (not a date, not a calendar date). */
SQLSIM_API int sqlsim_check_now(const char *text, sqlsim_error *err);

enum { SQLSIM_EXEC_OK, SQLSIM_EXEC_ERROR, SQLSIM_EXEC_REFUSED, SQLSIM_EXEC_TIMEOUT,
       SQLSIM_EXEC_TOO_BIG, SQLSIM_EXEC_MULTI };

typedef struct sqlsim_result {
  int status;            /* SQLSIM_EXEC_* */
  char reason[256];      /* for anything but OK */
  int ncols;
  long nrows;
  uint64_t *cells;       /* nrows * ncols value hashes (malloc'd, see below) */
  double *nums;          /* with SQLSIM_EXEC_VALUES: cell as a number (NaN for NULL) */
  uint8_t *kinds;        /* with SQLSIM_EXEC_VALUES: 0 NULL, 1 number, 2 text, 3 blob */
  double first_row_s;    /* time to the first row (or to the end when none) */
  double total_s;        /* prepare through the last row, wall clock */
  double cpu_s;          /* the same span in this thread's CPU time */
  unsigned has_order_by : 1; /* the statement has a top-level ORDER BY (sqlite3 says so) */
  unsigned reconnected : 1;  /* a server's connection was lost and opened again for this statement */
} sqlsim_result;

typedef struct sqlsim_db sqlsim_db;
/* Opens path read-only under the safety rules. Returns 0 or a negative code.
 * A server's URL (below) opens that server's database. */
SQLSIM_API int sqlsim_db_open(const char *path, const sqlsim_exec_opts *opts, sqlsim_db **out,
                   sqlsim_error *err);

/* Engines (docs/engines.md), one table of them (exec/server.h). SQLite runs
 * in process on a file path; PostgreSQL (libpq) and MySQL/MariaDB (the
 * MariaDB client library) are servers, DuckDB (libduckdb) a file, each named
 * by a URL whose client library is loaded at its first use:
 *   postgresql://[user[:password]@][host][:port]/dbname[?param=value&..]
 *   mysql://[user[:password]@][host][:port]/dbname[?socket=PATH]
 *   duckdb://PATH
 * where {db_id} anywhere is replaced by an item's db_id (one database per
 * db_id; without it, one database holds every db_id's tables). The password
 * comes from the URL, a password_file=PATH parameter, or the environment
 * (PGPASSWORD, MYSQL_PWD); sqlsim never prints it. Model SQL is checked
 * before it is sent (one statement that reads; no function that reaches
 * outside the query) and runs where it cannot write (a read-only transaction
 * on a server, a database opened read-only and locked from files, network
 * and extensions in DuckDB) under a time limit; rows are streamed, hashed and
 * capped as they arrive; a lost connection is opened again once. Cells hash
 * as the Python drivers' values compare (psycopg2, PyMySQL, duckdb): a
 * Decimal equals a number only when exactly equal, dates only dates. */
enum { SQLSIM_ENGINE_SQLITE, SQLSIM_ENGINE_POSTGRES, SQLSIM_ENGINE_MYSQL, SQLSIM_ENGINE_DUCKDB };
/* The engine a target names: a postgresql:// or postgres:// URL, a mysql://
 * or mariadb:// one, a duckdb:// one, else SQLite (a file). */
SQLSIM_API int sqlsim_engine_of(const char *target);
/* The engines' URL schemes ("postgresql://, mysql:// or duckdb://"), and a
 * help text of the engine table: each engine's URL form and dialect. */
SQLSIM_API const char *sqlsim_engine_urls(void);
SQLSIM_API const char *sqlsim_engines_help(void);
/* Opens the database of db_id at target: a server's URL with {db_id}
 * replaced, or a SQLite file as sqlsim_db_open. 0, or a negative code with
 * err saying why (the URL shown without its password). */
SQLSIM_API int sqlsim_db_connect(const char *target, const char *db_id, const sqlsim_exec_opts *opts,
                                 sqlsim_db **out, sqlsim_error *err);
/* target as it may be printed: a URL's password replaced by *** (malloc'd). */
SQLSIM_API char *sqlsim_engine_redacted(const char *target);
/* The engine of an open connection, and how many times it reconnected. */
SQLSIM_API int sqlsim_db_engine(const sqlsim_db *db);
SQLSIM_API int sqlsim_db_reconnects(const sqlsim_db *db);

/* Copies the SQLite database at sqlite_path into the server database target
 * names (a URL as above; {db_id} replaced by db_id, the database created when
 * it does not exist) (load/load.c): each table created with types chosen
 * from what its columns hold (BIGINT, DOUBLE, DATE, TIMESTAMP, bytes, text),
 * its rows streamed in one transaction (COPY in PostgreSQL, INSERTs of a
 * megabyte in MySQL), then its keys (primary, unique, foreign) added, each
 * one the data breaks left out and said in the report. PostgreSQL folds plain
 * names to lower case as it folds unquoted names in queries. A table that
 * exists is SQLSIM_EEXISTS and nothing is loaded, unless replace (it is
 * dropped first). The source file is only read. */
typedef struct sqlsim_load_opts {
  int replace;
} sqlsim_load_opts;
typedef struct sqlsim_load_report {
  int tables;
  long rows;
  char *notes;             /* lines: columns loaded as text, keys not kept, databases created (malloc'd) */
} sqlsim_load_report;
SQLSIM_API int sqlsim_load(const char *sqlite_path, const char *target, const char *db_id,
                           const sqlsim_load_opts *opts, sqlsim_load_report *out, sqlsim_error *err);
SQLSIM_API void sqlsim_load_report_free(sqlsim_load_report *r);
SQLSIM_API void sqlsim_db_close(sqlsim_db *db);
/* Runs one statement to completion. Never fails as a call: what went wrong is
 * out->status and out->reason. A cell's hash is equal for values Python
 * compares equal (1 == 1.0), distinct for text and blobs; NULL has its own. */
SQLSIM_API void sqlsim_exec(sqlsim_db *db, const char *sql, sqlsim_result *out);
/* The same, with flags: SQLSIM_EXEC_VALUES also keeps numbers (for
 * tolerance comparisons); SQLSIM_EXEC_NO_CELLS keeps nothing (timing);
 * SQLSIM_EXEC_NO_CPU_TIME leaves cpu_s 0 (reading the thread's CPU clock is
 * a system call, 1.5 us each on a paravirtualized VM: two a statement were
 * about a tenth of strict's time, whose runs nobody times). */
enum { SQLSIM_EXEC_VALUES = 1, SQLSIM_EXEC_NO_CELLS = 2, SQLSIM_EXEC_NO_CPU_TIME = 4 };
SQLSIM_API void sqlsim_exec_flags(sqlsim_db *db, const char *sql, unsigned flags, sqlsim_result *out);
SQLSIM_API void sqlsim_result_free(sqlsim_result *r);

/* EX semantics. BIRD: set of row tuples equal (order and duplicates ignored,
 * column order kept). Spider test-suite: equal under some column permutation,
 * as multisets, or as sequences when ordered is set. */
SQLSIM_API int sqlsim_ex_bird(const sqlsim_result *gold, const sqlsim_result *pred);
/* Stricter than both: the same columns in the same order, and the same rows
 * as multisets (duplicates counted), or as sequences when ordered is set. */
SQLSIM_API int sqlsim_same_rows(const sqlsim_result *a, const sqlsim_result *b, int ordered);
/* For results whose last nkeys columns are the ORDER BY keys: the same key
 * sequence, and within each run of equal keys (a tie group) the same rows as
 * multisets. */
SQLSIM_API int sqlsim_same_rows_ties(const sqlsim_result *a, const sqlsim_result *b, int nkeys);
SQLSIM_API int sqlsim_ex_spider(const sqlsim_result *gold, const sqlsim_result *pred, int ordered);
/* BIRD mini-dev's Soft F1-Score (evaluation_f1.py) to the last bit: rows
 * de-duplicated in order, the i-th of each side paired, per pair the shares
 * of values found in the other row; 1 when both are empty, 0 when either
 * failed (metrics/soft_f1.c). */
SQLSIM_API double sqlsim_soft_f1(const sqlsim_result *gold, const sqlsim_result *pred);
/* The official Spider evaluator's preparation of a query for execution:
 * "> =" joined, and every DISTINCT token removed (its keep_distinct off).
 * Returns a malloc'd string. */
SQLSIM_API char *sqlsim_spider_exec_text(const char *sql);
/* The same, with DISTINCT kept when keep_distinct (the test-suite
 * evaluator's --keep_distinct). */
SQLSIM_API char *sqlsim_spider_exec_text_opts(const char *sql, int keep_distinct);
/* The test-suite evaluator's --plug_value: the prediction with the gold's
 * values plugged into its value slots (its string and number literals), every
 * assignment of the gold's distinct literals to the slots. Returns the number
 * of alternatives in *out (malloc'd strings in a malloc'd array), 0 when there
 * are none (no slot or no gold value), or -1 when they would be more than max. */
SQLSIM_API int sqlsim_plug_values(const char *gold, const char *pred, int max, char ***out);
/* Whether the official Spider evaluator compares rows in order: "order by"
 * anywhere in the (prepared) gold text. */
SQLSIM_API int sqlsim_spider_order_matters(const char *gold_exec_text);
/* One item, each semantic end to end on an open database: 1 match, 0 not
 * (why says why when the prediction failed), -1 the gold itself failed. */
SQLSIM_API int sqlsim_ex_spider_item(sqlsim_db *db, const char *gold, const char *pred, char *why, size_t wn);
SQLSIM_API int sqlsim_ex_bird_item(sqlsim_db *db, const char *gold, const char *pred, char *why, size_t wn);

/* ---------------------------------------------------------------- synthetic execution */

/* Execution without the database (synth/): K small in-memory databases
 * generated from the schema alone, with both queries' literals planted in
 * them (synth/gen.c says how), both queries run on each through the safe
 * executor, and the results compared with Spider's test-suite semantics
 * (multiset, column order free, row order when the gold has ORDER BY) or
 * BIRD's (sets). A database counts when the gold returned rows there (not only
 * NULLs) and its answer does not hinge on ties (an ORDER BY ... LIMIT whose
 * cut falls inside a run of equal sort keys is set aside; a full ORDER BY
 * with equal keys compares as a multiset). docs/synthetic.md. */
typedef struct sqlsim_synth_opts {
  int databases;         /* K; 0 = 6 */
  uint64_t seed;         /* 0 = the default seed */
  int bird;              /* 1: BIRD's set semantics; 2: sets with the columns in any order (the
                            audit's: the answer, not its presentation); 0: Spider's */
  int keep_distinct;     /* Spider: DISTINCT kept (else removed, as the official evaluator does) */
  double timeout_s;      /* per query and database, and the prediction's time over all the
                            databases together (the pair stops past it); 0 = 2 s */
  const char *fixed_now;
  int strict;            /* also the strict verdict, on the gold's distilled suite (below) */
  int witness;           /* a failing verdict comes with its witness (sqlsim_witness) */
  int assume_not_null;   /* judge as if every column were NOT NULL: no database holds a NULL
                            (for data known to have none) */
  int no_solver;         /* strict: no solver stage (z3) after the search */
  double solver_budget_s; /* strict: the solver's seconds per pair; 0 = 0.05 s */
} sqlsim_synth_opts;

/* The evidence for a verdict: the smallest database found on which the two
 * queries' answers differ as the verdict compares them (shrunk: rows and
 * tables removed while it still tells them apart and still satisfies the
 * schema), as SQL text plain sqlite3 loads, and both answers. On a real
 * database (verdict "exec") there is no database text: the answers are the
 * first rows each query returned that the other did not. Every string is
 * malloc'd; sqlsim_witness_free frees them and the struct. */
typedef struct sqlsim_witness {
  const char *verdict;   /* "synth", "strict" or "exec" (static) */
  char *database;        /* CREATE TABLE and INSERT statements; NULL for a real database */
  char *tables;          /* the same database as JSON, for a page to draw: [{"name", "columns":
                            [..], "rows": [[..], ..]}, ..]; NULL for a real database */
  long rows;             /* rows in that database (0 for a real one) */
  char *gold_sql, *pred_sql; /* the queries as run (Spider's semantics drop DISTINCT) */
  char *gold_rows, *pred_rows; /* JSON arrays of at most 20 rows, each a JSON array */
  long gold_count, pred_count; /* rows each query returned; -1: it failed (pred_error says why) */
  char *pred_error;      /* the prediction's error there, or NULL */
} sqlsim_witness;
SQLSIM_API void sqlsim_witness_free(sqlsim_witness *w);
/* A deep copy (NULL when w is, or out of memory). */
SQLSIM_API sqlsim_witness *sqlsim_witness_copy(const sqlsim_witness *w);

typedef struct sqlsim_synth {
  int databases;         /* generated and run: K, fewer when a query ran past its limits */
  int informative;       /* ... where the gold returned rows and ties did not decide */
  int agree;             /* ... of those, where the prediction returned the same */
  int ties;              /* set aside: the gold's LIMIT cut through tied sort keys */
  int gold_failed;       /* databases where the gold itself failed (its error in why) */
  double graded;         /* agree / informative; NaN when none was informative */
  int pass;              /* 1 agreed on every informative database, 0 not, -1 none informative */
  int gold_empty;        /* the gold returned no rows (or only NULLs) wherever it ran */
  char why[256];         /* the first disagreement (database, and how), or why nothing counted */
  double gen_s, exec_s;  /* time spent generating and loading rows, and running queries */
  /* The strict verdict (opts.strict): equivalence under the schema's
   * constraints, judged on the gold's distilled suite (databases chosen, from
   * the schema alone, because they tell the gold from the queries one change
   * away from it: its neighbors) and on the pair's own databases that the
   * schema allows, each database counting, the gold returning nothing
   * included. */
  int strict;            /* 1 no database tells them apart, 0 one does, -1 not judged */
  int strict_databases;  /* databases judged */
  char strict_why[256];  /* the first database that tells them apart, and how */
  int suite;             /* databases in the gold's suite */
  int neighbors, told;   /* the gold's neighbors (those found equivalent to it left out) and how
                            many its suite tells apart: told / neighbors is its coverage */
  int needs_null;        /* strict refuted: 1 when no database without NULLs was found that refutes
                            (within the budget; the witness then holds the NULL), 0 when one was
                            (the witness is it), -1 not refuted */
  /* How far strict was checked beyond the search: the solver (z3) encodes
   * both queries over at most k rows per table and asks for a database
   * telling them apart (docs/synthetic.md, "The solver"). */
  int bound;             /* no counterexample up to bound rows per table; -1: none reached */
  int by_solver;         /* strict refuted by the solver's database (replayed on SQLite) */
  char solver[200];      /* what the solver did: refuted at k, the bound, or why it did not check */
  double solver_s;       /* its seconds */
  int dropped;           /* refutations dropped because their database did not load into the
                            declared schema with its constraints enforced (never expected: a
                            regression shows here) */
  sqlsim_witness *witness; /* opts.witness and a failing verdict (strict's when it fails, else
                            synth's); owned by the caller: sqlsim_witness_free */
} sqlsim_synth;

/* A runner keeps one in-memory connection per schema it has seen (a few):
 * one per thread. */
typedef struct sqlsim_synth_runner sqlsim_synth_runner;
/* NULL only when out of memory; opts may be NULL (defaults). */
SQLSIM_API sqlsim_synth_runner *sqlsim_synth_runner_new(const sqlsim_synth_opts *opts);
SQLSIM_API void sqlsim_synth_runner_free(sqlsim_synth_runner *x);
/* Scores a pair whose queries were parsed and normalized with schema
 * (sqlsim_parse); the texts are what runs. Returns 0 with out filled, or a
 * negative code when no database could be built (err says why). A prediction
 * that fails to run disagrees; a gold that fails everywhere leaves pass = -1
 * with why saying so. */
SQLSIM_API int sqlsim_synth_trees(sqlsim_synth_runner *x, const sqlsim_query *gold, const char *gold_sql,
                       const sqlsim_query *pred, const char *pred_sql, sqlsim_synth *out, sqlsim_error *err);
/* The same from texts: parses both with schema. An unparseable gold is an
 * error; an unparseable prediction still runs (its literals are not planted). */
SQLSIM_API int sqlsim_synth_pair(sqlsim_synth_runner *x, const sqlsim_schema *schema, const char *gold, const char *pred,
                      sqlsim_synth *out, sqlsim_error *err);
/* The gold's distilled suite, for a person to inspect (sqlsim diff --witness):
 * the databases kept, the neighbors it was distilled against and how many it
 * tells apart, and the neighbors none of its databases tells apart that were
 * not found equivalent to the gold (some may be equivalent all the same:
 * equivalence is found only for the same run text or the same tree once
 * equivalent forms are made one). The runner's cached suite when it has one.
 * 0, or a negative code (err says why: the gold does not parse, no memory). */
typedef struct sqlsim_suite_report {
  int databases;         /* kept */
  int neighbors;         /* judged: the equivalent ones left out */
  int told;              /* told apart by some database */
  int equivalent;        /* found equivalent to the gold */
  int nsurvivors;        /* of the neighbors - told not told apart, those listed (at most 8) */
  char **survivors;      /* their SQL (malloc'd) */
} sqlsim_suite_report;
SQLSIM_API int sqlsim_synth_suite(sqlsim_synth_runner *x, const sqlsim_schema *schema, const char *gold,
                                  sqlsim_suite_report *out, sqlsim_error *err);
SQLSIM_API void sqlsim_suite_report_free(sqlsim_suite_report *r);

/* Builds database k (0-based) of a pair's run into a new SQLite file at path
 * (which must not exist), to look at what a pair ran on (tests/test_synth.c
 * checks the generator's guarantees on these files). */
SQLSIM_API int sqlsim_synth_dump(const sqlsim_schema *schema, const char *gold, const char *pred,
                      const sqlsim_synth_opts *opts, int k, const char *path, sqlsim_error *err);

/* ---------------------------------------------------------------- timing */

/* VES and R-VES (metrics/ves.c). Both time full runs (prepare through the
 * last row) on a fresh connection per run, the prediction and the gold one
 * after the other in each iteration, and keep the per-iteration ratio
 * gold_time / pred_time; ratios beyond mean +- 3 population sd are dropped
 * (strictly) and the rest averaged. Time to the first row is recorded too. */
typedef struct sqlsim_timing_opts {
  int iterations;        /* default 100 */
  double timeout_s;      /* per run; the pair stops at timeout * iterations */
  const char *fixed_now;
  int alternate;         /* 1: swap the order every iteration (ABBA), else pred first */
  int cpu_clock;         /* 1: time with the thread's CPU clock instead of the wall clock */
  const volatile int *cancel; /* when set and non-zero: stop between runs (ok = 0, "cancelled") */
  /* Adaptive (--iterations auto): with auto_width > 0 the pair stops as soon as
   * it has min_iterations (default 10) and the 95% interval of its mean ratio
   * (normal, from the iterations so far) is at most auto_width times the mean
   * wide; `iterations` is then the most it runs. */
  double auto_width;
  int min_iterations;
  /* 1: one connection for the whole pair, both queries run once on it before
   * timing, then every timed run on it: the query's own cost, without a
   * connection's set-up and schema read. Faster and quieter, and NOT the
   * papers' protocol (its ratios are further from 1 than the published
   * ones); 0 (default): a fresh connection for every timed run. */
  int reuse;
} sqlsim_timing_opts;
/* The width `--iterations auto` asks for when none is given (docs/timing.md:
 * how it was chosen). */
#define SQLSIM_AUTO_WIDTH 0.1

typedef struct sqlsim_timing {
  int ok;                /* all runs completed */
  char reason[256];
  int n, kept;           /* iterations run, ratios kept by the 3-sd filter */
  double ratio;          /* mean of kept gold/pred ratios (all of them when the
                            filter keeps none: the reference divides by zero) */
  double ci_low, ci_high;/* 95% bootstrap interval of that mean */
  double first_row_ratio;/* the same ratio on time to first row (original VES) */
  double gold_median_s, pred_median_s;
} sqlsim_timing;

/* Times a pair on the database at path. */
SQLSIM_API void sqlsim_time_pair(const char *path, const char *gold, const char *pred,
                      const sqlsim_timing_opts *opts, sqlsim_timing *out);
/* The 3-sigma filter and mean over n ratios (*kept: how many it kept); with
 * nothing kept, the mean of all. */
SQLSIM_API double sqlsim_ves_filtered_mean(const double *ratios, int n, int *kept);
/* R-VES reward buckets of the mini-dev evaluator. */
SQLSIM_API double sqlsim_rves_reward(double ratio);
/* VES and R-VES over items, as the papers sum them: each item adds
 * sqrt(ratio) (R-VES: sqrt of its reward) when it is correct and timed, 0
 * otherwise, and counts. The one sum the reports, the noise floor and the
 * rewrite's before and after use. */
typedef struct sqlsim_ves_sum {
  double ves, rves;
  long n;
} sqlsim_ves_sum;
/* Adds an item: its timing ratio, or 0 (or less) for an item not correct or
 * not timed (counted, adding nothing). */
SQLSIM_API void sqlsim_ves_add(sqlsim_ves_sum *s, double ratio);
/* 100 x the sum over the items counted: VES, R-VES; NaN with none. */
SQLSIM_API double sqlsim_ves_value(const sqlsim_ves_sum *s);
SQLSIM_API double sqlsim_rves_value(const sqlsim_ves_sum *s);

/* The noise floor of a timed run, from the ratios of golds timed against
 * themselves (records' self_timing): how many, their median and the range
 * holding the middle 90% of them, and the VES and R-VES (0-100) those
 * self-pairs score, which a prediction exactly as fast as its gold would
 * score on average (100 for both if timing had no noise). */
typedef struct sqlsim_noise_floor {
  int n;
  double median, p05, p95;
  double ves, rves;
} sqlsim_noise_floor;
/* Fills out from n self-ratios (any order; the array is sorted in place).
 * With n = 0, out->n is 0 and the rest NaN. */
SQLSIM_API void sqlsim_noise_floor_of(double *self_ratios, int n, sqlsim_noise_floor *out);

/* Sequential speed comparison (metrics/race.c), for rewrite decisions: is
 * query b (a candidate) at least `threshold` times faster than query a (the
 * original)? Both are timed on fresh connections, full fetch; each next run
 * goes to the side that has had less time so far (so similar queries
 * alternate, and a candidate 50x faster runs many times per run of the
 * original). After every run, once each side has min_runs, Welch's t on the
 * log times gives an interval for the ratio of geometric means at level
 * 1 - 2 alpha; the race stops as soon as it lies wholly at or above the
 * threshold (faster) or wholly below it (not faster). When max_runs per side
 * or the budget is reached first, the final rule is distribution-free: the
 * Hodges-Lehmann estimate of the ratio (the median of a_i / b_j over all
 * pairs) at least the threshold, and its 95% interval (Moses', from the exact
 * Mann-Whitney distribution) above 1. docs/timing.md gives the error rates
 * this rule was measured at. */
typedef struct sqlsim_race_opts {
  double threshold;      /* default 1.1 */
  int min_runs;          /* per side before any decision; default 2 */
  int max_runs;          /* per side; default 20 */
  double budget_s;       /* wall seconds for the whole comparison; 0 = no limit */
  double alpha;          /* one-sided error per look for an early stop; default 0.005 */
  double timeout_s;      /* per run; default 30 */
  const char *fixed_now;
  const volatile int *cancel;
  /* Runs already made (the proof's runs on the database, full fetch on a
   * fresh connection), counted as each side's first: seconds, 0 = none. */
  double prior_a, prior_b;
} sqlsim_race_opts;

enum { SQLSIM_RACE_FASTER = 1, SQLSIM_RACE_UNDECIDED = 0, SQLSIM_RACE_NOT_FASTER = -1 };

typedef struct sqlsim_race {
  int ok;                /* every run completed (else reason says why) */
  char reason[256];
  int decision;          /* SQLSIM_RACE_*: what the rule concluded; UNDECIDED only when the
                            budget ran out before 2 runs a side (reason says so) */
  int early;             /* 1: stopped by the sequential rule before max_runs / the budget */
  int na, nb;            /* runs of each side, priors included */
  double ratio;          /* Hodges-Lehmann estimate of time(a) / time(b) */
  double lo95, hi95;     /* its 95% interval (0 and infinity: too few runs for one) */
  double gm, lo, hi;     /* ratio of geometric means and its Welch interval at 1 - 2 alpha
                            (the early stop's) */
  double wall_s;         /* seconds the comparison took, runs and bookkeeping */
  double median_a, median_b; /* seconds */
  double spread_a;       /* the original's own run-to-run noise: (q3 - q1) / median of its times */
  int budget_spent;      /* stopped by the budget (reason says after how many runs) */
} sqlsim_race;

/* Races b against a on the database at path. */
SQLSIM_API void sqlsim_race_run(const char *path, const char *a, const char *b, const sqlsim_race_opts *opts,
                     sqlsim_race *out);
/* The same race on a caller's timer (simulations, tests): timer(ctx, side)
 * runs side 0 (a) or 1 (b) once and returns its seconds, or -1 with why
 * filled. */
typedef double (*sqlsim_race_timer)(void *ctx, int side, char *why, size_t wn);
SQLSIM_API void sqlsim_race_with(const sqlsim_race_opts *opts, sqlsim_race_timer timer, void *ctx, sqlsim_race *out);
/* The rule alone, on times already measured (a[0..na), b[0..nb), seconds):
 * fills ratio, lo95, hi95, gm, lo, hi and returns SQLSIM_RACE_FASTER when
 * lo >= threshold, NOT_FASTER when hi < threshold, else UNDECIDED (always
 * with fewer than 2 runs a side). Deterministic: tests/test_race.c drives it
 * with synthetic timings. */
SQLSIM_API int sqlsim_race_decide(const double *a, int na, const double *b, int nb, double threshold, double alpha,
                       sqlsim_race *out);
/* The final rule (at max_runs or the budget): estimate >= threshold and the
 * 95% interval above 1. */
SQLSIM_API int sqlsim_race_final(const sqlsim_race *r, double threshold);
/* The exact lower-tail critical count of the Mann-Whitney U statistic: the
 * largest c with P(U < c) <= alpha for samples of m and n (0: no c; samples
 * too small for that alpha). */
SQLSIM_API int sqlsim_mw_critical(int m, int n, double alpha);

/* ---------------------------------------------------------------- rewrite */

/* Rewriting a slow query (rewrite/): rules on the normalized tree, each with
 * its safety conditions (rewrite/rules.c); a candidate is offered only when
 * it returns the same rows as the original on the database and on small
 * adversarial copies of its data (NULLs, duplicated maxima, duplicated rows,
 * empty tables) built in memory, and when it is measured faster
 * (full fetch, fresh connections): by the sequential race (sqlsim_race_run)
 * unless the fixed protocol is asked for. The user's database is only ever
 * read. */
enum {
  SQLSIM_RULE_COUNT_STAR,     /* COUNT(c) -> COUNT(*) for a column that cannot be NULL */
  SQLSIM_RULE_DATE_RANGE,     /* year/month of ISO date text -> a range on the column */
  SQLSIM_RULE_DISTINCT_GROUP, /* DISTINCT dropped over GROUP BY of plain select items */
  SQLSIM_RULE_IN_JOIN,        /* x IN (SELECT y ..) -> join to a unique y or to SELECT DISTINCT */
  SQLSIM_RULE_IN_EXISTS,      /* x IN (SELECT y ..) -> EXISTS (.. AND x = y), y indexed */
  SQLSIM_RULE_DECORRELATE,    /* correlated aggregate subquery -> join to a grouped derived table */
  SQLSIM_RULE_TOP1_MAX,       /* ORDER BY x LIMIT 1 -> x = (SELECT MAX(x) ..), x unique NOT NULL */
  SQLSIM_RULE_MAX_TOP1,       /* x = (SELECT MAX(x) ..) -> ORDER BY x DESC LIMIT 1, x unique */
  SQLSIM_RULE_JOIN_IN,        /* JOIN t ON x = t.y, t.y unique, t read nowhere else -> x IN (SELECT y ..) */
  SQLSIM_RULE_IN_PLUS,        /* x IN (SELECT y FROM t) -> +x IN (..): the index on y drives */
  SQLSIM_RULE_SUBQUERY_ORDER, /* ORDER BY dropped in an IN/EXISTS subquery without LIMIT */
  SQLSIM_RULE_COUNT_PK,       /* COUNT(*) -> COUNT(pk) (BIRD's rule 2) */
  SQLSIM_NRULES
};
SQLSIM_API extern const char *const sqlsim_rule_names[SQLSIM_NRULES];
/* Reads a comma-separated list of rule names (empty items skipped). Returns 0,
 * or SQLSIM_EFORMAT with err naming the unknown word and the rules there are. */
SQLSIM_API int sqlsim_rules_parse(const char *list, unsigned *out, sqlsim_error *err);
/* Every rule but the BIRD paper's forward forms count_pk and top1_max, which
 * ../shared/REWRITE.md and bench_rewrite never measured faster: they run only
 * when asked for. */
#define SQLSIM_RULES_ALL ((1u << SQLSIM_NRULES) - 1)
#define SQLSIM_RULES_DEFAULT (SQLSIM_RULES_ALL & ~(1u << SQLSIM_RULE_COUNT_PK) & ~(1u << SQLSIM_RULE_TOP1_MAX))

typedef struct sqlsim_rewrite_opts {
  unsigned rules;        /* 1 << SQLSIM_RULE_*; 0 = SQLSIM_RULES_DEFAULT */
  int iterations;        /* timed runs per side and candidate: the most the sequential
                            race takes (sqlsim_race_run), or with fixed the count of
                            alternating pairs; default 20 */
  int fixed;             /* 1: the fixed protocol (sqlsim_time_pair, no early stop) */
  double time_budget_s;  /* wall seconds for the timing of one query, all candidates;
                            0 = no limit (the race stops at `iterations`) */
  double timeout_s;      /* per run; default 30 */
  double min_speedup;    /* default 1.1 */
  const char *fixed_now;
  int copy_rows;         /* rows per table in the adversarial copies; default 200 */
} sqlsim_rewrite_opts;

/* How a rewrite ended: offered, or why the best candidate was not. */
enum { SQLSIM_REWRITE_NO_RULE, SQLSIM_REWRITE_OFFERED, SQLSIM_REWRITE_CHANGES_RESULT,
       SQLSIM_REWRITE_NOT_FASTER, SQLSIM_REWRITE_UNCHECKED /* copies or timing could not run */ };

typedef struct sqlsim_rewrite_result {
  int offered;           /* 1: sql is a proved, faster rewrite */
  int verdict;           /* SQLSIM_REWRITE_* */
  char *sql;             /* the rewrite (printed SQLite SQL) when offered, else NULL; malloc'd */
  unsigned rules;        /* the rules of the best candidate (offered or not) */
  int candidates;        /* candidates built */
  int rejected_results;  /* ... that returned different rows somewhere */
  int rejected_speed;    /* ... equivalent but not measured faster enough */
  char checks[256];      /* the equivalence checks the best candidate passed */
  char reason[512];      /* when not offered: why (the failed check, or the measured ratio) */
  char *notes;           /* places the rules left alone, and why (malloc'd, may be "") */
  sqlsim_timing timing;  /* original (gold side) against the best candidate: ratio and
                            95% interval, n = the candidate's runs */
  sqlsim_race race;      /* the sequential race of that candidate (unless fixed) */
  double timing_s;       /* wall seconds spent timing, all candidates */
} sqlsim_rewrite_result;

/* Rewrites sql for the database at db_path. Returns 0 (out filled, offered or
 * not), or a negative code when the query itself cannot be parsed or run
 * (err says why). Free out with sqlsim_rewrite_result_free. */
SQLSIM_API int sqlsim_rewrite(const char *db_path, const char *sql, const sqlsim_rewrite_opts *opts,
                   sqlsim_rewrite_result *out, sqlsim_error *err);
SQLSIM_API void sqlsim_rewrite_result_free(sqlsim_rewrite_result *r);

/* ---------------------------------------------------------------- BIS result */

/* BIS result similarity (metrics/result_sim.c), as the paper defines it: a
 * predicted column matches a gold column when all their values agree (numbers
 * within a relative tolerance of 1e-6, NULL equal only to NULL), in row order
 * when the gold has a top-level ORDER BY, as multisets otherwise; the best
 * one-to-one assignment over all pairs; precision = matched / predicted
 * columns, recall = matched / gold columns. Both results without rows: 1. */
typedef struct sqlsim_result_sim {
  int matched, pred_cols, gold_cols;
  double p, r, f1;
} sqlsim_result_sim;
SQLSIM_API void sqlsim_result_similarity(const sqlsim_result *gold, const sqlsim_result *pred, int ordered,
                              sqlsim_result_sim *out);

/* ---------------------------------------------------------------- tree diff */

/* Edit script between two normalized trees (diff/treediff.c), GumTree-style
 * (Falleri et al. 2014): isomorphic subtrees matched top-down, containers
 * bottom-up by the share of matched descendants, then recovery of the
 * children of matched containers. Aliases and the order of bag items are not
 * part of what is compared. */
enum { SQLSIM_EDIT_KEEP, SQLSIM_EDIT_MOVE, SQLSIM_EDIT_UPDATE, SQLSIM_EDIT_INSERT,
       SQLSIM_EDIT_DELETE };

typedef struct sqlsim_edit {
  int action;               /* SQLSIM_EDIT_* */
  const sqlsim_node *gold;  /* NULL for INSERT */
  const sqlsim_node *pred;  /* NULL for DELETE */
  int clause;               /* SQLSIM_SEL_* slot the node sits in (-1 none) */
  unsigned table : 1;       /* a FROM item (table, derived table) */
  unsigned ordered : 1;     /* MOVE within an ordered list (ORDER BY keys, arguments) */
  double weight;            /* the calibrated score's weight of this edit */
  const char *why;          /* the weight's category */
  int gold_index, pred_index; /* pre-order positions in the diff's flattened trees, -1 */
  const sqlsim_node *gold_content, *pred_content; /* a clause edit: what the clause holds */
  int pred_clause;          /* the clause on the prediction's side (moves), -1 none */
  int whole;                /* an added/removed whole condition: its parent is a clause or AND/OR */
  int root;                 /* first edit of an inserted/deleted subtree (its parent is not) */
  const sqlsim_node *gold_parent, *pred_parent; /* the nodes they sit in (NULL: a clause) */
} sqlsim_edit;

typedef struct sqlsim_diff {
  sqlsim_edit *edits;
  int nedits;
  int nkeep, nmove, nupdate, ninsert, ndelete;
  int table_changed;        /* a table inserted, deleted or changed */
  double bis;               /* the BIS semantic similarity (paper) */
  double score;             /* the calibrated score (see docs/bis-similarity.md) */
  double penalty;           /* sum of the calibrated weights */
  sqlsim_arena *arena;
  struct diff_private *priv;
} sqlsim_diff;

/* Diffs gold against pred. Returns 0, or SQLSIM_EUNSUPPORTED for trees past
 * the size bound (20,000 nodes). The diff owns its arena. */
SQLSIM_API int sqlsim_diff_trees(const sqlsim_node *gold, const sqlsim_node *pred, sqlsim_diff **out,
                      sqlsim_error *err);
SQLSIM_API void sqlsim_diff_free(sqlsim_diff *d);

/* The calibrated score's view of a query: equivalent forms rewritten to one
 * (explicit and implicit inner joins, COUNT(col) of a NOT NULL column and
 * COUNT(*), BETWEEN and its two comparisons, NOT (a = b) and a <> b, ...).
 * Modifies the tree in place (diff/equiv.c). */
SQLSIM_API void sqlsim_equiv_normalize(sqlsim_query *q);
/* The same under a comparison of results: SQLSIM_EQUIV_SETS when rows are
 * compared as sets (BIRD's EX: duplicates never count, so IN-subqueries may
 * become joins and the top DISTINCT goes), SQLSIM_EQUIV_NO_DISTINCT when the
 * comparison drops DISTINCT (Spider's EX without --keep-distinct). */
enum { SQLSIM_EQUIV_SETS = 1u << 0, SQLSIM_EQUIV_NO_DISTINCT = 1u << 1 };
SQLSIM_API void sqlsim_equiv_normalize_as(sqlsim_query *q, unsigned flags);

/* The two comparisons of a pair of parsed queries, as `sqlsim eval` makes
 * them: *plain diffs the trees as parsed (its bis is the paper's BIS),
 * *calibrated diffs copies with the equivalent forms made one under
 * equiv_flags (sqlsim_equiv_normalize_as; its score is the calibrated score;
 * its edits point into those copies, which it owns and frees). gold and pred
 * are not changed. Returns 0, or sqlsim_diff_trees' error on the trees as
 * parsed (both NULL then); *calibrated alone is NULL, with err set and 0
 * returned, when the copies grew past the size bound. */
SQLSIM_API int sqlsim_diff_pair(const sqlsim_query *gold, const sqlsim_query *pred, unsigned equiv_flags, sqlsim_diff **plain,
                     sqlsim_diff **calibrated, sqlsim_error *err);

/* Both scores for one pair, parsing as needed: returns 0, or a negative code
 * when the gold cannot be parsed; an unparseable prediction gives bis = score
 * = 0 with err describing it (and return 0). */
SQLSIM_API int sqlsim_similarity(const char *gold, const char *pred, const sqlsim_schema *schema,
                      double *bis, double *score, sqlsim_error *err);

/* ---------------------------------------------------------------- error categories */

/* What kind of mistake a prediction makes (analyze/: categories.c, verdict.c, dialect.c); several can
 * hold for one item. docs/error-categories.md defines each with an example. */
enum {
  SQLSIM_CAT_CORRECT, SQLSIM_CAT_CORRECT_OTHER_FORM, SQLSIM_CAT_UNPARSEABLE, SQLSIM_CAT_DIALECT,
  SQLSIM_CAT_EXEC_ERROR, SQLSIM_CAT_EMPTY_RESULT, SQLSIM_CAT_WRONG_TABLE, SQLSIM_CAT_MISSING_TABLE,
  SQLSIM_CAT_EXTRA_TABLE, SQLSIM_CAT_JOIN, SQLSIM_CAT_WRONG_COLUMN, SQLSIM_CAT_MISSING_COLUMN,
  SQLSIM_CAT_EXTRA_COLUMN, SQLSIM_CAT_AGGREGATE, SQLSIM_CAT_FILTER_COLUMN, SQLSIM_CAT_FILTER_OPERATOR,
  SQLSIM_CAT_FILTER_VALUE, SQLSIM_CAT_MISSING_FILTER, SQLSIM_CAT_EXTRA_FILTER, SQLSIM_CAT_GROUP_HAVING,
  SQLSIM_CAT_ORDER_LIMIT, SQLSIM_CAT_DISTINCT, SQLSIM_CAT_NESTING, SQLSIM_CAT_OTHER,
  SQLSIM_NCAT
};
SQLSIM_API extern const char *const sqlsim_category_names[SQLSIM_NCAT];

typedef struct sqlsim_categories {
  uint32_t mask;                         /* 1 << SQLSIM_CAT_* */
  const char *evidence[SQLSIM_NCAT];     /* what shows it (arena strings), per category */
  uint32_t secondary;                    /* categories that follow from another one found
                                            (a join condition that goes with a changed table) */
  int main;                              /* the category a person names first; -1 none */
  int nranked;                           /* the categories of mask, main first */
  signed char ranked[SQLSIM_NCAT];
  uint32_t weak;                         /* found alone, a difference that seldom changes a
                                            result (COUNT(x) for COUNT(*)), not in mask: the
                                            category where execution shows the results differ
                                            and nothing else was found; its evidence is in
                                            evidence[] */
  uint32_t before_tables;                /* categories named before a table changed: another
                                            attribute returned (a plain column for a column of
                                            another name) before the table that brings it */
} sqlsim_categories;

/* Ranks the categories of c->mask (fills main, ranked, nranked): the errors
 * that stop a query first (unparseable, dialect, execution), then where the
 * rows come from and what is returned, then which rows, then their order,
 * then the form (nesting); categories in c->secondary after all others.
 * docs/error-categories.md, "The main category". */
SQLSIM_API void sqlsim_categories_rank(sqlsim_categories *c);

/* Keeps the first `keep` ranked categories (at least 1) and folds the others
 * into the last one kept: their names and evidence follow its evidence ("also
 * missing_filter: ..."), and they leave the mask. Call after ranking. A person
 * names one reason first and seldom more than a second (on the hand-labelled
 * BIRD sample the reason a person wrote was third or later in sqlsim's ranking
 * in 2 of 92 wrong items): the analysis lists two, and nothing of what was
 * found is lost from the evidence. Evidence strings go into arena a. */
SQLSIM_API void sqlsim_categories_limit(sqlsim_categories *c, sqlsim_arena *a, int keep);

/* Structural categories from an edit script (a diff of equivalence-normalized
 * trees): each edit that counts, by where it is and what it changes. s, the
 * schema both queries were read with (may be NULL), tells which keys are
 * unique. Evidence strings go into arena a. */
SQLSIM_API void sqlsim_categorize_diff(const sqlsim_diff *d, const sqlsim_schema *s, sqlsim_arena *a,
                            sqlsim_categories *out);
/* A construct SQLite does not have (YEAR(), DATE_FORMAT, ILIKE, ::, ...): returns
 * 1 and a description, else 0. */
SQLSIM_API int sqlsim_dialect_construct(const sqlsim_query *q, sqlsim_arena *a, const char **what);

/* ---------------------------------------------------------------- the evaluator */

/* The engine every face calls (engine/): the command line's eval,
 * analyze and stream, and the Python package. An evaluator holds the schemas,
 * the database location and the options; it scores a (gold, prediction,
 * db_id) pair into a record with every requested metric, one pair at a time
 * or a batch with worker threads. Thread-safe: any number of threads may call
 * sqlsim_evaluate on one evaluator (each call borrows a worker: a Spider
 * matcher, database connections, the last prepared gold queries). */
enum {
  SQLSIM_M_MATCH = 1,      /* Spider exact set match and partial components (needs tables) */
  SQLSIM_M_EXEC = 2,       /* EX, Spider's and BIRD's semantics */
  SQLSIM_M_VES = 4,        /* VES timing ratio (the paper's) */
  SQLSIM_M_RVES = 8,       /* R-VES reward (BIRD mini-dev) */
  SQLSIM_M_RESULT = 16,    /* BIS result similarity */
  SQLSIM_M_BIS = 32,       /* BIS semantic similarity and the calibrated score */
  SQLSIM_M_CATEGORIES = 64, /* error categories, evidence and spans (implies BIS) */
  SQLSIM_M_SYNTH = 128,    /* synthetic execution on databases made from the schema (implies BIS;
                              the calibrated score then combines both, docs/synthetic.md) */
  SQLSIM_M_STRICT = 256,   /* the strict verdict: equivalence under the schema, on the gold's distilled
                              suite and the pair's own databases (implies synth) */
  SQLSIM_M_SOFT_F1 = 512,  /* BIRD mini-dev's Soft F1-Score (sqlsim_soft_f1) */
  SQLSIM_M_SPIDER2 = 1024  /* Spider 2.0's judgement (config.spider2): the pair's gold is an instance
                              id, its prediction a result table or SQL whose result is one */
};
#define SQLSIM_M_DB (SQLSIM_M_EXEC | SQLSIM_M_VES | SQLSIM_M_RVES | SQLSIM_M_RESULT | SQLSIM_M_SOFT_F1)
#define SQLSIM_M_TIMING (SQLSIM_M_VES | SQLSIM_M_RVES)
/* The metrics, one bit each; the engine's metric table (engine/metrics.c)
 * names them. */
#define SQLSIM_NMETRICS 11
/* The name of a metric's flag ("match", "exec", ...), NULL for none. */
SQLSIM_API const char *sqlsim_metric_name(unsigned flag);
/* Every metric, one line each ("  name  what it is; needs ...; implies ..."),
 * for a face's help. Static text. */
SQLSIM_API const char *sqlsim_metrics_help(void);
/* Reads a comma-separated list of metric names ("ex" is "exec"). Returns 0,
 * or SQLSIM_EFORMAT with err naming the unknown word. */
SQLSIM_API int sqlsim_metrics_parse(const char *list, unsigned *out, sqlsim_error *err);

typedef struct sqlsim_config {
  const char *tables;      /* tables.json: schemas (names, hardness, Spider matching) */
  const char *db_dir;      /* databases as DIR/<db_id>/<db_id>.sqlite */
  const char *sqlite;      /* or one database for every pair (its schema when no tables) */
  const char *engine;      /* or a server: a postgresql:// or mysql:// URL ({db_id}: a database per
                              db_id; without it one database holds every db_id's tables) */
  int dialect;             /* SQLSIM_DIALECT_*: the dialect gold and predictions are read in
                              (default ENGINE: the engine's; MySQL's sql_mode read from its server) */
  unsigned metrics;        /* SQLSIM_M_*; 0 means SQLSIM_M_BIS */
  int mode;                /* SQLSIM_SPIDER_COMPATIBLE (default) or CORRECTED */
  int bird_semantics;      /* categories: BIRD's EX decides "correct" (else Spider's) */
  double timeout_s;        /* per query; 0 = 30 s */
  int iterations;          /* VES runs per pair; 0 = 100 (with auto_width: the most) */
  double auto_width;       /* > 0: adaptive VES, each pair stops when its ratio's 95%
                              interval is at most this share of the ratio wide
                              (sqlsim_timing_opts); 0 = the fixed count */
  int alternate;           /* VES: swap the order every iteration */
  int reuse_connection;    /* VES/R-VES: one connection per pair (sqlsim_timing_opts.reuse;
                              not the papers' protocol); 0 = a fresh one per timed run */
  int noise_every;         /* VES/R-VES noise floor: about one timed pair in this many also
                              has its gold timed against itself, by the same protocol
                              (chosen by a hash of the gold, so the same items whatever the
                              batching or the machine); 0 = 40, -1 = never */
  const char *now;         /* fixed 'now' for SQLite ("YYYY-MM-DD HH:MM:SS"), NULL = clock */
  size_t max_memory;       /* bytes per connection; 0 = 512 MiB */
  /* Spider test-suite options (execution): DISTINCT kept in both texts
   * (else removed, as the official evaluator does by default), and the
   * gold's values plugged into the prediction's value slots. */
  int keep_distinct, plug_value;
  int synth_databases;     /* synthetic execution: databases per pair; 0 = 6 */
  int witness;             /* a wrong pair's evidence in its record (sqlsim_witness): the smallest
                              generated database found that tells the two apart (synth, strict), or
                              on a real database the rows each returned that the other did not */
  int extract;             /* predictions are model answers: their SQL is read out of them first
                              (sqlsim_extract_sql); one with none scores as failing with "no SQL
                              found in the answer" */
  int repair;              /* with categories: each wrong pair's repair (sqlsim_record.repair_sql),
                              the parts whose fix gives the gold's answer, checked by running */
  int assume_not_null;     /* synth, strict: judge as if every column were NOT NULL (no generated
                              database holds a NULL), for users whose data has none */
  int no_solver;           /* strict: no solver stage (z3) after the search (bound then null) */
  double solver_budget;    /* strict: the solver's seconds per pair; 0 = 0.05 */
  int reward_bound;        /* the reward (sqlsim_reward) without a database, with strict: 1 only for
                              a pair strict passes with no counterexample up to this many rows per
                              table (0: any pass) */
  /* Spider 2.0 (docs/spider2.md): with the spider2 metric, a pair's gold is
   * a task's instance_id, judged as the benchmark's own evaluate.py judges
   * it against the task's gold results. */
  const char *spider2;     /* the gold: a directory laid out as the repository's evaluation_suite/gold
                              (exec_result/ and spider2lite_eval.jsonl or spider2snow_eval.jsonl) */
  int spider2_flavor;      /* SQLSIM_SPIDER2_LITE or _SNOW: whose script; 0 = by the eval file there */
  int spider2_pred;        /* what a pair's prediction is: SQLSIM_SPIDER2_SQL (run on the pair's
                              database, its rows saved as the lite script saves SQLite's), _CSV (a
                              result table's CSV text), _CSV_FILE (the path of one) */
  int spider2_rows;        /* also judge row by row: the matched columns' values from the same
                              predicted rows (the record's spider2.rows) */
  int audit;               /* each record keeps what the benchmark's audit reads (its audit part):
                              the prediction's answer as the audit compares answers, and the gold's
                              own evidence. Needs a schema; on databases it runs with exec, without
                              them on the gold's realistic generated databases (docs/audit.md) */
} sqlsim_config;

typedef struct sqlsim_evaluator sqlsim_evaluator;

/* Checks the configuration (paths, options, metrics that need a schema or a
 * database) and loads the schemas. Returns 0, or a negative code with err
 * saying what to fix. The evaluator copies every string it keeps. */
SQLSIM_API int sqlsim_evaluator_new(const sqlsim_config *cfg, sqlsim_evaluator **out, sqlsim_error *err);
SQLSIM_API void sqlsim_evaluator_free(sqlsim_evaluator *ev);
/* The sqlsim_parse options the evaluator reads gold and predictions with
 * (its dialect, and a MySQL server's sql_mode). */
SQLSIM_API unsigned sqlsim_evaluator_parse_options(const sqlsim_evaluator *ev);
/* The configuration as the evaluator uses it (defaults filled in). */
SQLSIM_API const sqlsim_config *sqlsim_evaluator_config(const sqlsim_evaluator *ev);
/* Settings a benchmark file implies where the caller left them unset: BIS
 * fixes 'now' at 2023-01-17, BIRD gold decides "correct" by BIRD's EX. */
SQLSIM_API void sqlsim_config_for_benchmark(sqlsim_config *cfg, const sqlsim_itemset *gold);
/* A configuration under which no gold item could be scored is an error: no
 * database for any gold item, no schema for any gold db_id, an empty gold set,
 * an item without db_id where one is needed. Returns 0 or SQLSIM_ENOTFOUND /
 * SQLSIM_EFORMAT with err saying what to fix. */
SQLSIM_API int sqlsim_evaluator_check(const sqlsim_evaluator *ev, const sqlsim_itemset *gold, const char *gold_name,
                           sqlsim_error *err);

/* ---------------------------------------------------------------- records */

/* What one pair scored: a record (record/, written by the engine). Each
 * stage of the engine returns its own part below and the record takes it;
 * no stage writes another's part. Every has_* / -1 says whether that part
 * was computed; errors are texts ("" when none).
 *
 * Ownership: every string and array a record points to lives in its arena,
 * but for its witness, which is malloc'd and owned by the record alone (a
 * part never points into another record). sqlsim_record_clear frees both;
 * the engine's copy (batch.c, for a prediction written twice) is a deep copy
 * into a new arena, so a record and its copy are cleared in any order. */

/* exec: EX on every database of the item, both semantics, and the BIS result
 * similarity on its own database. */
typedef struct sqlsim_exec_part {
  int spider, bird;        /* 1/0; -1 not run (no database, or the gold failed) */
  int databases;           /* databases the pair was executed on: the db_id's own and its
                            * test-suite siblings (DIR/<db_id>/ *.sqlite); 0 when not run */
  long gold_rows, pred_rows; /* -1 when not run */
  int has_rsim;
  sqlsim_result_sim rsim;
  int has_soft_f1;
  double soft_f1;          /* mini-dev's Soft F1-Score on the item's database (0 when the prediction failed) */
  int reconnected;         /* the server's connection was lost and opened again to run the prediction */
  char err[256];           /* why the prediction did not run */
} sqlsim_exec_part;

/* config.audit: what the benchmark's audit (sqlsim_audit_records) reads of
 * a pair. The prediction's answer on the item's database (or, without one,
 * on each of the gold's realistic generated databases in turn), hashed as
 * the audit compares answers: a set of rows, the columns in an order of
 * their own. The gold's part is the same in every record of its gold. */
typedef struct sqlsim_audit_part {
  int has;                 /* the pair was looked at for the audit */
  unsigned long long answer; /* the prediction's answer; 0: it failed, or was set aside (absent) */
  int agree;               /* 1 the gold's answer, 0 another (or it failed), -1 no verdict (the gold
                              answered nothing there, or it has no answer: no schema, it failed) */
  int absent;              /* its answer rests on a value the database does not hold: set aside */
  int gold_ok;             /* the gold parsed (and ran, on a database) */
  int generated;           /* compared on generated databases */
  int no_schema;           /* nothing looked at: the db_id has no schema */
  unsigned kinds;          /* SQLSIM_AUDIT_* of the gold's own evidence (below) */
  double keep;             /* the product of (1 - weight) over it (1: none) */
  const char *evidence;    /* its objects, comma-separated JSON ("" when none) */
  const char *error;       /* why the item was not looked at as asked ("" when it was) */
} sqlsim_audit_part;

/* spider2: Spider 2.0's judgement of the pair (config.spider2). */
enum { SQLSIM_SPIDER2_LITE = 1, SQLSIM_SPIDER2_SNOW = 2 };
enum { SQLSIM_SPIDER2_SQL = 0, SQLSIM_SPIDER2_CSV = 1, SQLSIM_SPIDER2_CSV_FILE = 2 };
typedef struct sqlsim_spider2_part {
  int has;                 /* judged (the gold's task and the prediction's table were read) */
  int score;               /* the script's 0/1 */
  int rows;                /* config.spider2_rows: 1 when a matching gold variant's columns also match
                              row by row in the prediction, else 0; -1 not asked */
  const char *variant;     /* the gold file that matched first (<id>.csv, <id>_b.csv, ...), or NULL */
  char err[400];           /* why the pair scored 0 other than a mismatch ("" none) */
  int err_gold;            /* err is the gold's (no such task, a gold file unreadable, its rule) */
  long pred_rows;          /* rows of the predicted table (-1 unread) */
} sqlsim_spider2_part;

/* bis: the tree diff of the prediction against the gold. */
typedef struct sqlsim_structure_part {
  int has;                 /* the gold was read: bis and score hold (0 when the prediction
                              does not parse) */
  double bis;              /* BIS similarity to the gold as written */
  double score;            /* the calibrated score from structure alone (equivalent forms made one) */
  const char *dialect;     /* with categories: a construct SQLite does not have, or NULL */
  char err[256];           /* why the prediction does not parse */
  char diff_err[256];      /* why the two trees were not compared (bis, score and the
                              structural categories then say nothing) */
} sqlsim_structure_part;

/* categories: the error analysis. */
typedef struct sqlsim_analysis_part {
  sqlsim_categories cats;  /* the final categories */
  int *gspans, *pspans;    /* byte spans [start, end) of the differing parts, gold and prediction */
  int ngspans, npspans;
} sqlsim_analysis_part;

/* With config.repair, a wrong pair's repair (analyze/repair.c,
 * docs/error-categories.md): the smallest set of its parts found whose fix
 * gives the gold's answer where the pair was judged, as SQL, and those
 * parts' categories (main first: the part that alone fixes the most). */
typedef struct sqlsim_repair_part {
  int asked;               /* config.repair and categories */
  const char *sql;         /* the prediction with those parts fixed, NULL: none found */
  sqlsim_categories cats;  /* their categories (nranked 0 when none found) */
  const char *no_effect;   /* parts that differ and need no fix, or NULL */
  const char *note;        /* a wrong pair with no repair: why (static), or NULL */
  int checks;              /* repaired queries run for this pair */
} sqlsim_repair_part;

/* With config.extract, the prediction is a model's answer: its SQL. */
typedef struct sqlsim_answer_part {
  int from;                /* where the SQL was found (SQLSIM_FROM_*), else -1 */
  const char *sql;         /* the SQL scored, NULL when none was found */
} sqlsim_answer_part;

typedef struct sqlsim_record {
  unsigned metrics;        /* the evaluator's metrics */
  int hardness;            /* of the gold (SQLSIM_HARD_UNKNOWN without a tables schema) */
  char gold_err[512];      /* why the gold cannot be scored (parse, database, run) */
  char match_err[512];     /* why the Spider matcher cannot read the gold */
  char input_err[192];     /* why the prediction's text could not be scored as it came (a NUL
                              character, text that is not Unicode): set by the face that read it,
                              which scores the empty text in its place (so every metric fails) */
  sqlsim_answer_part answer;
  int has_match;
  sqlsim_spider_score match;
  sqlsim_exec_part exec;
  int has_timing;
  sqlsim_timing timing;
  int has_self_timing;     /* the gold timed against itself (config noise_every): its ratio
                            * is what the protocol's noise alone makes of two equal queries */
  sqlsim_timing self_timing;
  sqlsim_structure_part structure;
  double score;            /* the calibrated score: structure's, or with synth combined with
                              synthetic execution (docs/synthetic.md) */
  int has_synth;
  sqlsim_synth synth;      /* synthetic execution (pass -1: no database counted); its witness
                              is the record's (below), synth.witness NULL */
  char synth_err[256];     /* why synthetic execution could not run */
  sqlsim_analysis_part analysis;
  sqlsim_repair_part repair;
  sqlsim_audit_part audit; /* config.audit */
  sqlsim_spider2_part spider2; /* the spider2 metric */
  int witness_asked;       /* the evaluator's config.witness */
  sqlsim_witness *witness; /* with it, a wrong pair's evidence (the real database's when there is
                              one, else the generated one's), or NULL */
  sqlsim_arena *arena;     /* owns every string and array above; NULL when there are none */
} sqlsim_record;

/* Frees what a record owns and zeroes it. */
SQLSIM_API void sqlsim_record_clear(sqlsim_record *r);
/* The evidence that pred's answer is not gold's, as the audit compares
 * answers (sets of rows, the columns in an order of their own), from one of
 * ev's workers: on db_id's database, the first rows each returned that the
 * other did not; without one, the first of the gold's realistic generated
 * databases where they differ, with its SQL. NULL when none is found (free
 * with sqlsim_witness_free). */
SQLSIM_API sqlsim_witness *sqlsim_evaluator_witness(sqlsim_evaluator *ev, const char *gold, const char *pred,
                                                    const char *db_id);
/* A witness as its per-item JSON field (an object; malloc'd). */
SQLSIM_API char *sqlsim_witness_to_json(const sqlsim_witness *w);
/* The record as one JSON object, the fields of `sqlsim eval --per-item`
 * (docs/per-item.md); malloc'd. */
SQLSIM_API char *sqlsim_record_to_json(const sqlsim_record *r);

/* A record's per-item fields written through a sink: the JSON writer and
 * the Python face's dicts are two sinks of one walk over the engine's metric
 * table (engine/metrics.c), so the two cannot disagree on a key. Inside an
 * object each value is preceded by key(); numbers that are not finite are
 * null; json() is JSON text sqlsim made (a witness's rows). */
typedef struct sqlsim_sink {
  void (*key)(void *ctx, const char *key);
  void (*null)(void *ctx);
  void (*boolean)(void *ctx, int v);
  void (*integer)(void *ctx, long long v);
  void (*number)(void *ctx, double v);
  void (*string)(void *ctx, const char *s);
  void (*json)(void *ctx, const char *text);
  void (*begin)(void *ctx, int array); /* an object (0) or an array (1) */
  void (*end)(void *ctx, int array);
} sqlsim_sink;
/* Writes r's fields, in the order of the per-item JSON, as the members of
 * one object (no begin/end around them). */
SQLSIM_API void sqlsim_record_write(const sqlsim_record *r, const sqlsim_sink *sink, void *ctx);

/* The first error of a record and its side ("gold" or "pred"), or NULL. */
SQLSIM_API const char *sqlsim_record_error(const sqlsim_record *r, const char **side, int *offset);
/* The group an item is reported in: BIRD difficulty, BIS case_type, or the
 * Spider hardness; NULL when none is known. */
SQLSIM_API const char *sqlsim_group_of(const sqlsim_item *gold, const sqlsim_record *r);

/* Scores one pair (db_id may be NULL with a --sqlite database or a single
 * schema). Returns 0 with *out filled (problems with the queries or the
 * database are in the record), or SQLSIM_EFORMAT for a NULL query. Timing
 * metrics run here, on the calling thread. */
SQLSIM_API int sqlsim_evaluate(sqlsim_evaluator *ev, const char *gold, const char *pred, const char *db_id,
                    sqlsim_record *out, sqlsim_error *err);

typedef struct sqlsim_pair {
  const char *gold, *pred, *db_id;
} sqlsim_pair;

typedef struct sqlsim_batch_opts {
  int jobs;                /* worker threads; 0 = 1 */
  /* Called on the calling thread for each finished record, in pair order. */
  void (*on_record)(void *ctx, size_t k, const sqlsim_record *r);
  /* Called on the calling thread as records finish: the phase ("scoring",
   * "timing"), records done in it, and its total. */
  void (*on_progress)(void *ctx, const char *phase, size_t done, size_t total);
  void *ctx;
  /* When it becomes non-zero (a signal handler may set it), no new pair is
   * started; the pairs finished up to the first unfinished one are kept. */
  const volatile int *cancel;
} sqlsim_batch_opts;

/* Scores n pairs into out[0..n-1] with worker threads: everything but timing
 * in parallel, then the timing metrics one pair at a time (timing alone on the
 * machine). Pairs that share a gold query (consecutive, same text and db_id)
 * prepare and run it once. Returns how many records, from the first, are
 * finished (n unless cancelled); the caller clears each of out[0..n-1]. */
SQLSIM_API size_t sqlsim_evaluate_batch(sqlsim_evaluator *ev, const sqlsim_pair *pairs, size_t n, sqlsim_record *out,
                             const sqlsim_batch_opts *opts);

/* The schema the evaluator reads a db_id with (NULL: none known). */
SQLSIM_API const sqlsim_schema *sqlsim_evaluator_schema(const sqlsim_evaluator *ev, const char *db_id);

/* A reward for reinforcement learning on one record (engine/reward.c):
 *   the prediction does not parse, or fails to run:      0
 *   it ran and returns the gold's rows (EX, the evaluator's semantics): 1
 *   it ran and returns other rows:   partial x the calibrated score (0..partial)
 *   no database, strict judged: 1 when it passes (and with config
 *     reward_bound k, its bound is at least k), partial x the calibrated
 *     score when it is refuted, the calibrated score otherwise
 *   no database, no strict verdict: the calibrated score
 * NaN when the gold itself cannot be scored (no signal: drop the sample).
 * partial < 0 means the default, 0.2. */
SQLSIM_API double sqlsim_reward(const sqlsim_evaluator *ev, const sqlsim_record *r, double partial);

/* The JSON Lines protocol of `sqlsim stream` (engine/stream.c): requests
 * {"gold", "pred", "db_id", "id"} read from in_fd until its end, one answer
 * line per request written to out in order and flushed (the record's fields,
 * "id", "line", and "reward" when reward is set; a line that is not a
 * request is answered with an error and the stream goes on). Requests already
 * waiting are scored together on jobs threads. Returns 0, or -1 when out
 * cannot be written (errno says why). */
SQLSIM_API int sqlsim_serve_jsonl(sqlsim_evaluator *ev, int in_fd, FILE *out, int jobs, int reward);

/* ---------------------------------------------------------------- Spider 2.0 */

/* Spider 2.0 scored as its own evaluate.py scores it (docs/spider2.md):
 * each task's predicted result table against its gold tables, read as
 * pandas 1.5.3 reads CSV and compared by compare_pandas_table's rules (lite's
 * or snow's script), one record per task (the spider2 metric's part). The
 * predictions are a folder as the script takes it (<instance_id>.csv result
 * tables, or <instance_id>.sql run on the task's database), or given in
 * memory. */
typedef struct sqlsim_spider2_opts {
  const char *gold;        /* the gold directory (evaluation_suite/gold's layout) */
  int flavor;              /* SQLSIM_SPIDER2_LITE or _SNOW; 0: by the eval file in gold */
  int mode;                /* SQLSIM_SPIDER2_CSV (result tables) or _SQL; -1: by the folder's files
                              (.csv or .sql) */
  const char *tasks;       /* SQL: the tasks file giving each task's database (spider2-lite.jsonl's
                              "db", spider2-snow.jsonl's "db_id"); NULL: that file beside gold */
  const char *db_dir;      /* SQL: the databases, DIR/<db>.sqlite (or DIR/<db>/<db>.sqlite) */
  const char *sqlite;      /* or one SQLite file for every task */
  const char *engine;      /* or an engine's URL ({db_id}: the task's database) */
  int rows;                /* also judge row by row (the records' spider2.rows) */
  int jobs;                /* worker threads; 0 = 1 */
  double timeout_s;        /* per query; 0 = 60 */
  const volatile int *cancel;
  void (*on_progress)(void *ctx, const char *phase, size_t done, size_t total);
  /* each finished record, in instance_id order, on the calling thread */
  void (*on_record)(void *ctx, const char *instance_id, const sqlsim_record *r);
  void *ctx;
} sqlsim_spider2_opts;

/* The tasks of one engine: the benchmark's, those predicted, those right. */
typedef struct sqlsim_spider2_group {
  const char *name;        /* "BigQuery" (bq, ga), "Snowflake" (sf), "SQLite" (local), "other" */
  int tasks, submitted, correct, rows_correct;
} sqlsim_spider2_group;

typedef struct sqlsim_spider2 {
  int flavor, mode;
  size_t n;                /* tasks scored: the predicted ones among the gold's, by instance_id */
  char **ids;              /* each one's instance_id */
  sqlsim_record *records;  /* and record (its spider2 part) */
  size_t done;             /* records finished (n unless cancelled) */
  int tasks;               /* the benchmark's (the eval file's) */
  int correct, rows_correct, rows_asked;
  int ignored;             /* prediction files or entries that name no task */
  sqlsim_spider2_group groups[4];
  int ngroups;
  double seconds;
} sqlsim_spider2;

/* Scores the predictions in pred_dir (ids NULL), or preds[0..n) for ids[0..n)
 * (CSV text in CSV mode; SQL in SQL mode, its first ```sql block when it has
 * one, as from a file), every one against its task. A
 * prediction that cannot be read or run scores 0 with its record's error;
 * the run goes on. 0 with *out (free with sqlsim_spider2_free), or a
 * negative code with err (no gold, a folder with both .csv and .sql files,
 * SQL without databases). */
SQLSIM_API int sqlsim_spider2_run(const sqlsim_spider2_opts *opts, const char *pred_dir, const char *const *ids,
                                  const char *const *preds, size_t n, sqlsim_spider2 **out, sqlsim_error *err);
SQLSIM_API void sqlsim_spider2_free(sqlsim_spider2 *s);
/* The summary as JSON: score over the predicted tasks and over the
 * benchmark's, per engine (malloc'd). */
SQLSIM_API char *sqlsim_spider2_summary_json(const sqlsim_spider2 *s);

/* A value as a database driver hands it over, for a result given in rows. */
enum { SQLSIM_V_NULL, SQLSIM_V_INT, SQLSIM_V_REAL, SQLSIM_V_TEXT, SQLSIM_V_BLOB, SQLSIM_V_BOOL, SQLSIM_V_DECIMAL,
       SQLSIM_V_OBJECT };
typedef struct sqlsim_value {
  int type;                /* SQLSIM_V_*; DECIMAL: p the digits (a Python Decimal); OBJECT: p the
                              value's str() (a date, a time) */
  int64_t i;
  double x;
  const char *p;
  size_t n;
} sqlsim_value;
/* A result given as rows (nrows x ncols values, row-major) as the CSV text
 * Spider 2.0's scripts make of it: pandas.DataFrame(rows).to_csv(index=
 * False) (chunk 0), or lite's read_sql_query(chunksize=chunk) then to_csv
 * (chunk 500). 0 with *out (malloc'd, *len bytes: a text's NUL is kept), or
 * -1 with err. */
SQLSIM_API int sqlsim_spider2_rows_csv(const sqlsim_value *cells, long nrows, int ncols, long chunk, char **out,
                                       size_t *len, sqlsim_error *err);

/* ---------------------------------------------------------------- audit */

/* The benchmark audited (audit/): which gold queries are likely wrong or
 * leave their answer undetermined, from several systems' predictions and
 * the gold's own behaviour (docs/audit.md). Each item gets a score in
 * [0, 1] (higher: more likely wrong), the noisy-OR of its evidence:
 *   consensus      systems that agree with each other and not with the gold
 *                  (the same rows on the item's database; without one, the
 *                  same answers on generated databases), weighed by each
 *                  system's agreement with the gold on the other items;
 *                  strength (W_group / W) x (1 - W_gold / W)
 *   gold_fails     the gold does not parse, names what the schema lacks, or
 *                  fails to run
 *   gold_empty     it returns no row, or only NULLs
 *   limit_ties     ORDER BY .. LIMIT cutting through rows of equal keys
 *   limit_unordered LIMIT without ORDER BY over more rows than it keeps
 *   group_free     a column outside GROUP BY that the groups do not determine
 *   int_division   integer divided by integer where a ratio is asked
 *   literal_case   a text literal the column holds only in another case or
 *                  spelling
 * each with the rows (or the witness database) that show it. */
enum {
  SQLSIM_AUDIT_CONSENSUS = 1u << 0, SQLSIM_AUDIT_GOLD_FAILS = 1u << 1, SQLSIM_AUDIT_GOLD_EMPTY = 1u << 2,
  SQLSIM_AUDIT_LIMIT_TIES = 1u << 3, SQLSIM_AUDIT_LIMIT_UNORDERED = 1u << 4, SQLSIM_AUDIT_GROUP_FREE = 1u << 5,
  SQLSIM_AUDIT_INT_DIVISION = 1u << 6, SQLSIM_AUDIT_LITERAL_CASE = 1u << 7
};
#define SQLSIM_AUDIT_NKINDS 8
SQLSIM_API extern const char *const sqlsim_audit_kind_names[SQLSIM_AUDIT_NKINDS];

typedef struct sqlsim_audit_opts {
  const char *tables;     /* the schemas: a tables.json, or (NULL) the sqlite file's */
  const char *db_dir;     /* DIR/<db_id>/<db_id>.sqlite, or NULL */
  const char *sqlite;     /* one SQLite file for every item, or NULL */
  const char *engine;     /* a server URL (sqlsim_db_connect), or NULL */
  int dialect;            /* SQLSIM_DIALECT_* the queries are written in */
  int jobs;               /* threads; 0 = 1 */
  double timeout_s;       /* per query on a real database; 0 = 30 s */
  const char *fixed_now;
  double min_score;       /* flagged at or above; 0 = 0.5 */
  int witness;            /* flagged consensus items get a witness (default on: -1 off) */
} sqlsim_audit_opts;

typedef struct sqlsim_audit_item {
  int index;              /* the gold item's position, from 0 */
  double score;
  unsigned kinds;         /* SQLSIM_AUDIT_* found */
  int flagged;            /* score >= min_score */
  int agree;              /* systems that agree with the gold */
  int group;              /* the largest group of systems agreeing with each other, not the gold (0: none) */
  char *json;             /* the item's record: {"index", "db_id", "score", "kinds", "gold", "evidence": [..]}
                             (docs/audit.md), one line */
} sqlsim_audit_item;

typedef struct sqlsim_audit {
  int nitems, nsystems;
  int with_db;            /* answers came from real databases */
  sqlsim_audit_item *items; /* every gold item, ranked: score descending, then index */
  char **systems;         /* names */
  double *weight;         /* each system's agreement with the gold over all items (its weight is
                             this over the other items: leave-one-out) */
  double *ex, *ex_kept;   /* each system's EX over all items, and over the items not flagged */
  int flagged;
  double seconds;
} sqlsim_audit;

/* Audits gold (n items) against npreds prediction sets: preds[p][i] is
 * system p's SQL for gold item i (NULL: none), names[p] its name. An
 * evaluator made from opts (config.audit) scores every pair once
 * (sqlsim_evaluate_batch, on opts->jobs threads), then sqlsim_audit_records
 * weighs the records. Bad input in one item (a gold or prediction that does
 * not parse or run) is evidence or a failed prediction, never an error. 0,
 * or a negative code with err (no schemas or no systems: SQLSIM_ECONFIG; no
 * gold item's db_id among the schemas: SQLSIM_ENOTFOUND; out of memory). */
SQLSIM_API int sqlsim_audit_run(const sqlsim_itemset *gold, const char *const *const *preds, const char *const *names,
                                int npreds, const sqlsim_audit_opts *opts, sqlsim_audit **out, sqlsim_error *err);
/* The audit over records an evaluator with config.audit made: recs holds
 * gold item i's record of system p at i * npreds + p (sqlsim_evaluate_batch
 * over the pairs in that order), the first n items of gold; preds[p][i] the
 * SQL scored (NULL: no prediction). Consensus is weighed, each item scored
 * and ranked; the flagged consensus items get their witness from ev
 * (sqlsim_evaluator_witness), unless opts->witness is -1. Only
 * opts->min_score and opts->witness are read. 0, or a negative code with err
 * (SQLSIM_ENOTFOUND when no item's db_id had a schema). */
SQLSIM_API int sqlsim_audit_records(sqlsim_evaluator *ev, const sqlsim_itemset *gold, int n,
                                    const sqlsim_record *recs, const char *const *const *preds,
                                    const char *const *names, int npreds, const sqlsim_audit_opts *opts,
                                    sqlsim_audit **out, sqlsim_error *err);
SQLSIM_API void sqlsim_audit_free(sqlsim_audit *a);
/* The audit's summary as JSON: systems with weight, ex and ex_kept, items,
 * flagged (malloc'd). */
SQLSIM_API char *sqlsim_audit_summary_json(const sqlsim_audit *a);

/* Pairs a prediction file with the gold: slot[i] = the index in pred of gold
 * item i's prediction, or -1. By position, or by question index for a BIRD
 * prediction object (which may cover part of the set). 0, or SQLSIM_EFORMAT
 * with err saying why (counts that do not pair, an index past the gold). */
SQLSIM_API int sqlsim_items_pair(const sqlsim_itemset *gold, const sqlsim_itemset *pred, int *slot,
                                 sqlsim_error *err);

/* Names for diagnostics. */
SQLSIM_API const char *sqlsim_kind_name(int kind);
SQLSIM_API const char *sqlsim_op_name(int op);

/* Structural comparison used for canonical order: <0, 0, >0. Resolved
 * columns compare by schema table and column, not by alias. */
SQLSIM_API int sqlsim_node_cmp(const sqlsim_node *a, const sqlsim_node *b);

#ifdef __cplusplus
}
#endif
#endif
