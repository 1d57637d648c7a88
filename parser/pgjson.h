/* pgjson.h -- reads the JSON libpg_query writes, in place.
 *
 * pg_query_parse() hands back its parse tree as JSON text in a buffer the
 * caller owns until pg_query_free_parse_result(). pj_parse() reads that text
 * where it lies: strings and member names are unescaped inside the buffer
 * and NUL-terminated there (the closing quote becomes the NUL), so nothing is
 * copied, and the values are small records in an arena, linked in document
 * order. The build (parser/build.c) needs the members of a node by name, not
 * in the order PostgreSQL writes them, which is why there is a record per
 * value at all; it is the whole of what a general reader's document would
 * cost without its copies, per-value allocations and number conversions.
 *
 * The reader is iterative (no recursion, any depth) and strict: any text that
 * is not one JSON value is an error with the byte offset where reading
 * stopped. It accepts any JSON, not only libpg_query's. */
#ifndef SQLSIM_PGJSON_H
#define SQLSIM_PGJSON_H

#include "core.h"

#include <string.h>

typedef enum pj_type { PJ_NULL, PJ_FALSE, PJ_TRUE, PJ_NUM, PJ_STR, PJ_ARR, PJ_OBJ } pj_type;

typedef struct pj {
  struct pj *next;  /* the next member or element of the parent */
  struct pj *child; /* PJ_ARR, PJ_OBJ: the first member or element */
  const char *key;  /* the member's name inside an object, else NULL */
  const char *str;  /* PJ_STR: the unescaped text (NUL-terminated, in the buffer);
                       PJ_NUM: the number's first byte in the buffer (not terminated) */
  int ival;         /* PJ_NUM: the value as an int, saturated (integer part);
                       PJ_STR: the length of str in bytes */
  int n;            /* PJ_ARR, PJ_OBJ: the number of members or elements */
  int klen;         /* the length of key */
  uint8_t type;     /* pj_type */
} pj;

/* Records come from an arena 64 at a time (pj_parse, and pgnodes.c, which
 * makes the same documents from PostgreSQL's nodes). Uninitialized. */
typedef struct pj_pool {
  pj *next;
  int spare;
} pj_pool;
static inline pj *pj_record(sqlsim_arena *a, pj_pool *p) {
  if (!p->spare) {
    p->next = arena_alloc_raw(a, sizeof *p->next * 64);
    p->spare = 64;
  }
  p->spare--;
  return p->next++;
}

/* Reads text (len bytes, modified in place; text[len] need not be NUL) into
 * records in arena a. Returns the root value, or NULL with *err_offset the
 * byte where reading stopped. */
pj *pj_parse(sqlsim_arena *a, char *text, size_t len, size_t *err_offset);

/* The member named key of object o, or NULL (o may be NULL or not an object).
 * With key a literal, its length is a constant and the comparison inline. */
static inline const pj *pj_get(const pj *o, const char *key) {
  if (!o || o->type != PJ_OBJ) return NULL;
  int n = (int)strlen(key);
  for (const pj *m = o->child; m; m = m->next)
    if (m->klen == n && m->key[0] == key[0] && !memcmp(m->key, key, (size_t)n)) return m;
  return NULL;
}

/* The number of elements of an array or members of an object (0 for others). */
static inline int pj_size(const pj *v) { return v ? v->n : 0; }

/* Element i of an array (member i of an object), or NULL. */
static inline const pj *pj_item(const pj *v, int i) {
  if (!v || i < 0) return NULL;
  const pj *m = v->child;
  while (m && i-- > 0) m = m->next;
  return m;
}

#define pj_foreach(it, v) for ((it) = (v) ? (v)->child : NULL; (it); (it) = (it)->next)

#endif
