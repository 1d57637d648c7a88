/* spider.h -- Spider component matching, internal to metrics/.
 *
 * The official Spider evaluator compares Python tuples, lists and dicts with
 * ==. To reproduce it item by item, both modes describe a query with the same
 * small value model (sp_val: None, bool, number, string, tuple, list, sql),
 * whose equality is Python's. spider_official.c builds it the way the official
 * parser does (tokens, quirks and all); spider_corrected.c builds it from the
 * normalized tree; spider_match.c compares two of them. */
#ifndef SQLSIM_SPIDER_H
#define SQLSIM_SPIDER_H

#include "core.h"

typedef enum { SV_NONE, SV_BOOL, SV_NUM, SV_STR, SV_TUPLE, SV_LIST, SV_SQL } sv_type;

typedef struct sp_val sp_val;
struct sp_val {
  uint8_t t;
  double num;        /* SV_BOOL (0/1), SV_NUM */
  const char *str;   /* SV_STR */
  sp_val **items;    /* SV_TUPLE, SV_LIST, SV_SQL */
  int n, cap;
};

/* Fields of an SV_SQL value, in this order. */
enum { SQ_SELECT, SQ_FROM_UNITS, SQ_FROM_CONDS, SQ_WHERE, SQ_GROUP, SQ_HAVING, SQ_ORDER,
       SQ_LIMIT, SQ_INTERSECT, SQ_EXCEPT, SQ_UNION, SQ__COUNT };

sp_val *sv_none(sqlsim_arena *a);
sp_val *sv_bool(sqlsim_arena *a, int b);
sp_val *sv_num(sqlsim_arena *a, double d);
sp_val *sv_str(sqlsim_arena *a, const char *s);
sp_val *sv_tuple(sqlsim_arena *a, int n, ...);
sp_val *sv_list(sqlsim_arena *a);
sp_val *sv_sql(sqlsim_arena *a);
void sv_push(sqlsim_arena *a, sp_val *list, sp_val *v);
/* Python ==. */
int sv_eq(const sp_val *x, const sp_val *y);
/* Python <, for sorting FROM table units; *err set if Python would raise. */
int sv_lt(const sp_val *x, const sp_val *y, int *err);
/* How many items of pred find an equal item of gold, each gold item used
 * once: what the official evaluator counts by `if u in gold: gold.remove(u)`
 * (first equal or any: the count is the same), in linear time by hashing. */
int sv_bag_common(sqlsim_arena *a, const sp_val *pred, const sp_val *gold);
sp_val *sv_copy_list(sqlsim_arena *a, const sp_val *list);
/* Python repr-ish text, for diagnostics. */
void sv_dump(strbuf *sb, const sp_val *v);

/* The ten partial components, in the official report's order. */
enum { SP_SELECT, SP_SELECT_NO_AGG, SP_WHERE, SP_WHERE_NO_OP, SP_GROUP_NO_HAVING, SP_GROUP,
       SP_ORDER, SP_AND_OR, SP_IUEN, SP_KEYWORDS, SP__NPARTIAL };

/* Operators and aggregates, numbered as the official tuples number them. */
enum { SP_AGG_NONE, SP_AGG_MAX, SP_AGG_MIN, SP_AGG_COUNT, SP_AGG_SUM, SP_AGG_AVG };
enum { SP_OP_NOT, SP_OP_BETWEEN, SP_OP_EQ, SP_OP_GT, SP_OP_LT, SP_OP_GE, SP_OP_LE, SP_OP_NE,
       SP_OP_IN, SP_OP_LIKE, SP_OP_IS, SP_OP_EXISTS };
enum { SP_UNIT_NONE, SP_UNIT_SUB, SP_UNIT_ADD, SP_UNIT_MUL, SP_UNIT_DIV };

/* Schema as the official evaluator sees it: lower-cased table -> columns, and
 * the foreign-key map of tables.json ("__t.c__" -> representative). */
typedef struct sp_colent sp_colent;
typedef struct sp_schema {
  int ntables;
  const char **tables;   /* lower-cased names */
  const char ***columns; /* per table, lower-cased, NULL-terminated */
  int nkmap;
  const char **kmap_from, **kmap_to;
  /* Built once, read by every query: each "__table.column__" of the tables
   * above and each key of the map, with its table and its key-map entry
   * (the rebuild looks a column up here instead of spelling out every
   * column of its FROM tables); and the ids of the tables.json schema's
   * tables and columns, by index, for corrected mode. */
  sp_colent *colmap;
  const char **tabid, **colid;
} sp_schema;

/* Builds the official view of a schema: tables and columns from the SQLite
 * file when db_path exists (as the official get_schema does), else from the
 * tables.json schema; the key map always from tables.json. */
sp_schema *sp_schema_build(sqlsim_arena *a, const sqlsim_schema *s, const char *db_path);
/* Frees what sp_schema_build took outside the arena (its lookup table's
 * buckets); the arena frees the rest. */
void sp_schema_release(sp_schema *sp);

/* Parses like the official process_sql.get_sql(); NULL on failure with a
 * message in the official evaluator's terms ("AssertionError: Error col: as"). */
sp_val *sp_official_parse(sqlsim_arena *a, const sp_schema *s, const char *sql, char *why,
                          size_t whylen);
/* The official rebuild: values dropped, foreign keys mapped, DISTINCT dropped. */
void sp_official_rebuild(sqlsim_arena *a, const sp_schema *s, sp_val *sql);
/* An empty query, what the official evaluator scores an unparsable prediction as. */
sp_val *sp_empty_sql(sqlsim_arena *a);

/* Per-item match result. */
typedef struct sp_item_score {
  int exact;
  int f1[SP__NPARTIAL];          /* 0/1 */
  int acc[SP__NPARTIAL], rec[SP__NPARTIAL];
  int pred_total[SP__NPARTIAL], label_total[SP__NPARTIAL];
} sp_item_score;

enum { SP_EASY, SP_MEDIUM, SP_HARD, SP_EXTRA };
int sp_hardness(const sp_val *gold);
/* Fills *out; returns 0, or -1 if the official evaluator would raise. */
int sp_match(sqlsim_arena *a, const sp_val *pred, const sp_val *gold, sp_item_score *out);

/* Corrected mode: the same value model built from a normalized tree. */
sp_val *sp_corrected_build(sqlsim_arena *a, const sp_schema *s, const sqlsim_query *q);

#endif
