/* fuzz_pgjson.c -- the in-place reader of libpg_query's JSON (parser/pgjson.c)
 * on any bytes, unterminated: whatever it accepts, cJSON accepts too and reads
 * to the same values (types, names, strings, integers), unless the document is
 * deeper than cJSON's nesting limit. */
#include "fuzz_common.h"

#include "parser/pgjson.h"

#include <cjson/cJSON.h>
#include <math.h>

static int depth_of(const pj *v) {
  int d = 0;
  const pj *k;
  pj_foreach(k, v) {
    int kd = depth_of(k);
    if (kd > d) d = kd;
  }
  return d + (v->type == PJ_ARR || v->type == PJ_OBJ);
}

/* A number written as an integer that fits: its value must be exact. */
static int plain_int(const char *s, const uint8_t *end) {
  int digits = 0;
  if ((const uint8_t *)s < end && *s == '-') s++;
  for (; (const uint8_t *)s < end && *s >= '0' && *s <= '9'; s++) digits++;
  if ((const uint8_t *)s < end && (*s == '.' || *s == 'e' || *s == 'E')) return 0;
  return digits > 0 && digits < 10;
}

static void same(const pj *v, const cJSON *c, const uint8_t *end) {
  if (!c) abort();
  if ((v->key || c->string) && (!v->key || !c->string || strcmp(v->key, c->string))) abort();
  int n = 0;
  const pj *k;
  const cJSON *ck = c->child;
  switch (v->type) {
  case PJ_NULL: if (!cJSON_IsNull(c)) abort(); break;
  case PJ_TRUE: if (!cJSON_IsTrue(c)) abort(); break;
  case PJ_FALSE: if (!cJSON_IsFalse(c)) abort(); break;
  case PJ_NUM:
    if (!cJSON_IsNumber(c)) abort();
    if (plain_int(v->str, end) ? v->ival != c->valueint : fabs(v->ival - (double)c->valueint) > 1) abort();
    break;
  case PJ_STR:
    if (!cJSON_IsString(c) || strcmp(v->str, c->valuestring)) abort();
    break;
  default:
    if (v->type == PJ_ARR ? !cJSON_IsArray(c) : !cJSON_IsObject(c)) abort();
    pj_foreach(k, v) {
      same(k, ck, end);
      ck = ck->next;
      n++;
    }
    if (ck || n != v->n) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cJSON *c = cJSON_ParseWithLength((const char *)data, size);
  char *buf = malloc(size ? size : 1); /* no terminator: the reader keeps to size */
  memcpy(buf, data, size);
  sqlsim_arena *a = sqlsim_arena_new();
  size_t at = 0;
  const pj *v = pj_parse(a, buf, size, &at);
  if (v) {
    if (c) same(v, c, (const uint8_t *)buf + size);
    else if (depth_of(v) < CJSON_NESTING_LIMIT) abort(); /* cJSON stops at its limit */
  } else if (at > size) {
    abort();
  }
  sqlsim_arena_free(a);
  free(buf);
  cJSON_Delete(c);
  return 0;
}
