/* pgnodes_check.c -- the two routes from libpg_query's parse tree to the
 * builder's document, compared on real text: every query of the given item
 * files (and, after --raw, every file as one text) goes through the front
 * end, PostgreSQL's parser, and then both the node reader and libpg_query's
 * JSON; the documents must be the same value. Prints the counts (same,
 * handed to the JSON route, refused by a parser) and the first differences;
 * exit status 1 if any differ or the node reader is not in use where it
 * should be.
 *
 * usage: pgnodes_check [--min-read PERCENT] ITEMS... [--raw FILE...] */
#include "frontend.h"
#include "pgnodes.h"
#include "sqlsim.h"

#include <pg_query.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n_same, n_handed, n_refused, n_diff;

static void dump(const pj *v) {
  if (v->key) printf("\"%.*s\":", v->klen, v->key);
  switch (v->type) {
  case PJ_NULL: printf("null"); break;
  case PJ_TRUE: printf("true"); break;
  case PJ_FALSE: printf("false"); break;
  case PJ_NUM: printf("%d", v->ival); break;
  case PJ_STR: printf("\"%.*s\"", v->ival, v->str); break;
  default:
    putchar(v->type == PJ_OBJ ? '{' : '[');
    for (const pj *c = v->child; c; c = c->next) {
      dump(c);
      if (c->next) putchar(',');
    }
    putchar(v->type == PJ_OBJ ? '}' : ']');
  }
}

static void check(const char *where, int index, const char *sql) {
  sqlsim_arena *a = sqlsim_arena_new(), *scratch = sqlsim_arena_new();
  fe_result fe;
  sqlsim_error err = {0};
  const pj *nodes, *json;
  pg_doc d;
  if (fe_translate(a, sql, (int)strlen(sql), &fe, &err)) {
    n_refused++;
  } else if (pg_parse_both(scratch, fe.out, &nodes, &json, &d)) {
    n_refused++;
    pg_doc_done(&d);
  } else {
    if (!nodes) {
      n_handed++;
    } else if (pj_same(nodes, json)) {
      n_same++;
    } else if (++n_diff <= 3) {
      printf("DIFFERENT: %s item %d\n  nodes: ", where, index);
      dump(nodes);
      printf("\n  json:  ");
      dump(json);
      printf("\n");
    }
    pg_doc_done(&d);
  }
  sqlsim_arena_free(scratch);
  sqlsim_arena_free(a);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  size_t k;
  while (buf && (k = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (cap - n - 1 == 0) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  return buf;
}

int main(int argc, char **argv) {
  int raw = 0;
  double min_read = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--raw")) {
      raw = 1;
    } else if (!strcmp(argv[i], "--min-read") && i + 1 < argc) {
      min_read = atof(argv[++i]);
    } else if (raw) {
      char *text = slurp(argv[i]);
      if (!text) {
        fprintf(stderr, "%s: cannot read\n", argv[i]);
        return 2;
      }
      check(argv[i], 0, text);
      free(text);
    } else {
      sqlsim_itemset *s;
      sqlsim_error err = {0};
      if (sqlsim_items_load(argv[i], &s, &err)) {
        fprintf(stderr, "%s: %s\n", argv[i], err.message);
        return 2;
      }
      for (int k = 0; k < s->n; k++)
        if (s->items[k].sql) check(argv[i], k, s->items[k].sql);
      sqlsim_items_free(s);
    }
  }
  long parsed = n_same + n_handed + n_diff;
  double read = parsed ? 100.0 * (double)(n_same + n_diff) / (double)parsed : 0;
  printf("node reader in use: %s\n", pg_nodes_in_use() ? "yes" : "no (JSON route only)");
  printf("%ld texts: %ld the same document both ways, %ld handed to the JSON route, %ld refused "
         "before a document, %ld DIFFERENT; read without JSON: %.2f%%\n",
         parsed + n_refused, n_same, n_handed, n_refused, n_diff, read);
  sqlsim_thread_cleanup();
  if (n_diff) return 1;
  if (pg_nodes_in_use() && read < min_read) {
    printf("read without JSON below %.2f%%\n", min_read);
    return 1;
  }
  return 0;
}
