/* json.c -- cJSON (Debian libcjson) parsing into a sqlsim arena.
 *
 * cJSON allocates through global hooks. We install hooks once that take
 * memory from a thread-local arena while core_json_parse() runs and fall back to
 * malloc/free otherwise, so parsed documents live and die with an arena and
 * are never cJSON_Delete()d. cJSON was chosen as the fastest Debian JSON
 * reader on libpg_query's output and on the corpus files (the benchmark
 * that measured it, bench_json.c, is not in this tree). */
#include "core.h"

#include <pthread.h>
#include <stdlib.h>

static _Thread_local sqlsim_arena *json_arena;

static void *json_malloc(size_t n) {
  return json_arena ? arena_alloc_raw(json_arena, n) : malloc(n);
}

static void json_free(void *p) {
  if (!json_arena) free(p);
}

static pthread_once_t json_once = PTHREAD_ONCE_INIT;
static void json_init(void) {
  cJSON_Hooks hooks = {json_malloc, json_free};
  cJSON_InitHooks(&hooks);
}

cJSON *core_json_parse(sqlsim_arena *a, const char *text, size_t len, size_t *err_offset) {
  pthread_once(&json_once, json_init);
  sqlsim_arena *saved = json_arena;
  json_arena = a;
  const char *end = NULL;
  cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  json_arena = saved;
  if (!doc && err_offset) *err_offset = end ? (size_t)(end - text) : 0;
  if (!doc && err_offset && !end) {
    const char *e = cJSON_GetErrorPtr();
    *err_offset = (e && e >= text && e <= text + len) ? (size_t)(e - text) : 0;
  }
  return doc;
}
