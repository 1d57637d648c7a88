/* fuzz_stream.c -- the JSON Lines protocol of `sqlsim stream`
 * (sqlsim_serve_jsonl): any bytes as the request stream. Every non-blank
 * line must get exactly one answer, each answer must be one valid JSON
 * object, and nothing may crash or leak. The evaluator (structural score,
 * categories, reward) is made once. */
#include "fuzz_common.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static sqlsim_evaluator *ev;

/* Lines that are not blank once a final CR is dropped: the requests. */
static size_t requests(const uint8_t *d, size_t n) {
  size_t count = 0, start = 0;
  for (size_t i = 0; i <= n; i++)
    if (i == n || d[i] == '\n') {
      size_t len = i - start;
      if (len && d[start + len - 1] == '\r') len--;
      count += len > 0;
      start = i + 1;
    }
  return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ev) {
    sqlsim_config cfg = {.metrics = SQLSIM_M_BIS | SQLSIM_M_CATEGORIES};
    if (sqlsim_evaluator_new(&cfg, &ev, NULL)) abort();
  }
  int fd = memfd_create("fuzz_stream", 0);
  if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size) || lseek(fd, 0, SEEK_SET) != 0) abort();
  char *out = NULL;
  size_t outlen = 0;
  FILE *f = open_memstream(&out, &outlen);
  if (sqlsim_serve_jsonl(ev, fd, f, 2, 1)) abort();
  fclose(f);
  close(fd);
  size_t answers = 0;
  for (char *line = out, *nl; (nl = strchr(line, '\n')); line = nl + 1) {
    *nl = '\0';
    cJSON *j = cJSON_Parse(line);
    if (!cJSON_IsObject(j) || !cJSON_GetObjectItemCaseSensitive(j, "line")) abort();
    cJSON_Delete(j);
    answers++;
  }
  if (answers != requests(data, size)) abort();
  free(out);
  return 0;
}
