/* fuzz_spider.c -- Spider component matching: the reproduced official parser
 * (compatible mode) and the corrected mode, over (gold, newline, prediction). */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static sqlsim_spider *ev[2];
  if (!ev[0]) {
    sqlsim_spider_new(fuzz_catalog(), NULL, SQLSIM_SPIDER_COMPATIBLE, &ev[0], NULL);
    sqlsim_spider_new(fuzz_catalog(), NULL, SQLSIM_SPIDER_CORRECTED, &ev[1], NULL);
  }
  char *buf;
  const char *gold, *pred;
  fuzz_split(data, size, &buf, &gold, &pred);
  for (int m = 0; m < 2; m++) {
    sqlsim_spider_gold *g = NULL;
    if (sqlsim_spider_gold_prepare(ev[m], gold, "concert_singer", &g, NULL) == 0) {
      sqlsim_spider_score sc;
      sqlsim_spider_score_pred(ev[m], g, pred, &sc);
      sqlsim_spider_score_pred(ev[m], g, gold, &sc);
      if (sc.hardness < SQLSIM_HARD_EASY || sc.hardness > SQLSIM_HARD_UNKNOWN) abort();
      sqlsim_spider_gold_free(g);
    }
  }
  free(buf);
  return 0;
}
