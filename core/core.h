/* core.h -- internal helpers shared by every module: strbuf, JSON, files. */
#ifndef SQLSIM_CORE_H
#define SQLSIM_CORE_H

#include "sqlsim.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The 64-bit finalizer of MurmurHash3: spreads every input bit over the word. */
static inline uint64_t mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

/* The library's one hash: FNV-1a steps from FNV_OFFSET (its 64-bit offset
 * basis), over bytes or whole words, finished with mix64 where the bits must
 * spread (hash tables, sampling). */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
/* One step over a word (a cell hash, a count, an id). */
static inline uint64_t fnv1a_word(uint64_t h, uint64_t w) { return (h ^ w) * FNV_PRIME; }
/* Over a string's bytes, continuing from h (NULL: h). */
static inline uint64_t fnv1a_str(uint64_t h, const char *s) {
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * FNV_PRIME;
  return h;
}

typedef struct strbuf {
  char *buf;
  size_t len, cap;
} strbuf;

void sb_putn(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_putc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_json_str(strbuf *sb, const char *s);
/* An identifier quoted for SQLite: "name", with " doubled. */
void sb_ident(strbuf *sb, const char *name);
/* A number with 6 significant digits; null for NaN and infinities (JSON has neither). */
void sb_json_num(strbuf *sb, double v);
/* A value as it is (a row's cell): the shortest form that reads back as v,
 * with ".0" when integral; NaN and infinities as null. */
void sb_json_real(strbuf *sb, double v);
/* The same, safe inside an HTML <script> (< > & U+2028 U+2029 escaped). */
void sb_json_str_script(strbuf *sb, const char *s);
/* Hands the buffer to the caller (never NULL) and resets sb. */
char *sb_take(strbuf *sb);
void sb_free(strbuf *sb);

/* Arena internals. The layout is here so that the common allocation, a bump
 * of the current block, is inlined at every call site (the parser and the
 * matchers allocate a few hundred small pieces per query); arena.c has the
 * rest: a new block when the current one is full, reset, free. */
typedef struct arena_block {
  struct arena_block *next;
  size_t size, used;
  max_align_t data[]; /* aligned payload */
} arena_block;

struct sqlsim_arena {
  arena_block *head;
  size_t next_size;
  size_t total;
  arena_block first; /* header of the inline first block */
};

#define ARENA_ALIGN(n) (((n) + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1))

/* The slow path of arena_alloc_raw: a new block with room for size bytes. */
void *arena_alloc_slow(sqlsim_arena *a, size_t size);

/* Allocation without zeroing. */
static inline void *arena_alloc_raw(sqlsim_arena *a, size_t size) {
  size = ARENA_ALIGN(size ? size : 1);
  arena_block *b = a->head;
  if (__builtin_expect(b->size - b->used < size, 0)) return arena_alloc_slow(a, size);
  void *p = (char *)b->data + b->used;
  b->used += size;
  a->total += size;
  return p;
}

/* sqlsim_arena_alloc inside the library: the same zeroed memory, inlined (a
 * constant size becomes a few stores). The exported function stays for
 * other programs. */
static inline void *arena_zalloc(sqlsim_arena *a, size_t size) {
  void *p = arena_alloc_raw(a, size);
  memset(p, 0, size);
  return p;
}
#define sqlsim_arena_alloc(a, size) arena_zalloc((a), (size))

/* An arena with a first block of the given size; dropping everything but the
 * first block for reuse. */
sqlsim_arena *arena_new_sized(size_t first);
void arena_reset(sqlsim_arena *a);
/* Room for one more element in an arena array of n elements of size bytes
 * with capacity *cap: the array itself while n < *cap, else a copy in a new
 * block twice as large (first elements the first time), *cap updated. The
 * old block stays in the arena until it dies. */
void *arena_array_grow(sqlsim_arena *a, void *items, int n, int *cap, size_t size, int first);

/* Parses JSON text into the arena (never cJSON_Delete the result). Returns
 * NULL on a syntax error with *err_offset set to the byte where it stopped. */
cJSON *core_json_parse(sqlsim_arena *a, const char *text, size_t len, size_t *err_offset);

/* Reads a whole input ("-" for standard input; a file, a pipe, /dev/fd/N)
 * into a malloc'd NUL-terminated buffer the caller frees. Returns 0, or a
 * negative code with err naming the path and what it is (a directory, a
 * device, too large). core/file.c */
int core_file_read(const char *path, char **out, size_t *len, sqlsim_error *err);

/* ASCII case folding, the way SQLite compares identifiers. */
static inline char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c; }
char *core_fold_dup(sqlsim_arena *a, const char *s, size_t len);
int core_fold_eq(const char *a, const char *b);

/* SQLite's affinity of a declared type name, by the five rules of "Determination
 * of column affinity" (datatype3.html, 3.1), in their order: 'I' INTEGER, 'T'
 * TEXT, 'B' BLOB (no type), 'R' REAL, 'N' NUMERIC. CAST(x AS FLOAT) and
 * CAST(x AS real) are one conversion. core/strbuf.c */
int core_type_affinity(const char *declared);

/* The value of an integer literal's text (optional sign, decimal digits, the
 * whole string). Returns 1 and sets *v when it is one and fits in 64 bits;
 * returns 0 otherwise, *v then holding the nearest end of the range for
 * digits past it (9223372036854775808 -> LLONG_MAX) and 0 for text that is
 * no integer. Never undefined: atol/atoll on such text are. core/strbuf.c */
int core_int_literal(const char *text, long long *v);

#endif
