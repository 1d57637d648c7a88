/* arena.c -- bump allocator: one per parsed query or loaded catalog.
 *
 * Memory comes from a chain of blocks; nothing is freed until the whole arena
 * goes with sqlsim_arena_free(). Blocks double in size up to 1 MiB, and an
 * allocation larger than a block gets a block of its own. */
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
  struct block *next;
  size_t size, used;
  max_align_t data[]; /* aligned payload */
} block;

struct sqlsim_arena {
  block *head;
  size_t next_size;
  size_t total;
  block first; /* header of the inline first block */
};

#define FIRST_BLOCK 4096
#define MAX_BLOCK (1u << 20)
#define ALIGN(n) (((n) + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1))

sqlsim_arena *sqlsim_arena_new(void) {
  sqlsim_arena *a = malloc(sizeof *a + FIRST_BLOCK);
  if (!a) return NULL;
  a->head = &a->first;
  a->first.next = NULL;
  a->first.size = FIRST_BLOCK;
  a->first.used = 0;
  a->next_size = FIRST_BLOCK * 2;
  a->total = 0;
  return a;
}

void sqlsim_arena_free(sqlsim_arena *a) {
  if (!a) return;
  block *b = a->head;
  while (b && b != &a->first) {
    block *next = b->next;
    free(b);
    b = next;
  }
  free(a);
}

/* Out of memory is the one failure here; like SQLite's malloc failures in
 * a tool of this kind, it ends the process with a message. */
static block *arena_grow(sqlsim_arena *a, size_t need) {
  size_t size = a->next_size;
  while (size < need) size *= 2;
  block *b = malloc(sizeof *b + size);
  if (!b) {
    fputs("sqlsim: out of memory\n", stderr);
    abort();
  }
  b->size = size;
  b->used = 0;
  if (need > a->next_size && a->head) {
    /* A large one-off: keep the current block in front for small requests. */
    b->next = a->head->next;
    a->head->next = b;
  } else {
    b->next = a->head;
    a->head = b;
    if (a->next_size < MAX_BLOCK) a->next_size *= 2;
  }
  return b;
}

void *sqlsim_arena_alloc(sqlsim_arena *a, size_t size) {
  size = ALIGN(size ? size : 1);
  block *b = a->head;
  if (b->size - b->used < size) b = arena_grow(a, size);
  void *p = (char *)b->data + b->used;
  b->used += size;
  a->total += size;
  memset(p, 0, size);
  return p;
}

char *sqlsim_arena_strndup(sqlsim_arena *a, const char *s, size_t len) {
  char *p = sqlsim_arena_alloc(a, len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *sqlsim_arena_strdup(sqlsim_arena *a, const char *s) {
  return sqlsim_arena_strndup(a, s, strlen(s));
}

char *sqlsim_arena_printf(sqlsim_arena *a, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = sqlsim_arena_alloc(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

size_t sqlsim_arena_used(const sqlsim_arena *a) { return a->total; }
