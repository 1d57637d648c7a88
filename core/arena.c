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

#define FIRST_BLOCK 8192
#define MAX_BLOCK (1u << 20)



/* Frees every block but the inline first one. */
static void free_blocks(sqlsim_arena *a) {
  arena_block *b = a->head;
  while (b) {
    arena_block *next = b->next;
    if (b != &a->first) free(b);
    b = next;
  }
}

void sqlsim_arena_free(sqlsim_arena *a) {
  if (!a) return;
  free_blocks(a);
  free(a);
}

/* Out of memory is the one failure here; like SQLite's malloc failures in
 * a tool of this kind, it ends the process with a message. */
static arena_block *arena_grow(sqlsim_arena *a, size_t need) {
  size_t size = a->next_size;
  while (size < need) size *= 2;
  arena_block *b = malloc(sizeof *b + size);
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

void *arena_alloc_slow(sqlsim_arena *a, size_t size) {
  arena_block *b = arena_grow(a, size);
  void *p = (char *)b->data + b->used;
  b->used += size;
  a->total += size;
  return p;
}

void *(sqlsim_arena_alloc)(sqlsim_arena *a, size_t size) { return arena_zalloc(a, size); }

void *arena_array_grow(sqlsim_arena *a, void *items, int n, int *cap, size_t size, int first) {
  if (n < *cap) return items;
  int nc = *cap ? *cap * 2 : first;
  void *p = sqlsim_arena_alloc(a, size * (size_t)nc);
  if (n) memcpy(p, items, size * (size_t)n);
  *cap = nc;
  return p;
}

void arena_reset(sqlsim_arena *a) {
  free_blocks(a);
  a->head = &a->first;
  a->first.next = NULL;
  a->first.used = 0;
  a->total = 0;
}

sqlsim_arena *arena_new_sized(size_t first) {
  sqlsim_arena *a = malloc(sizeof *a + first);
  if (!a) return NULL;
  a->head = &a->first;
  a->first.next = NULL;
  a->first.size = first;
  a->first.used = 0;
  a->next_size = first * 2;
  a->total = 0;
  return a;
}

char *sqlsim_arena_strndup(sqlsim_arena *a, const char *s, size_t len) {
  char *p = arena_alloc_raw(a, len + 1);
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
  char *p = arena_alloc_raw(a, (size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

size_t sqlsim_arena_used(const sqlsim_arena *a) { return a->total; }

sqlsim_arena *sqlsim_arena_new(void) { return arena_new_sized(FIRST_BLOCK); }
