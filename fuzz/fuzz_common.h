/* fuzz_common.h -- what the fuzz targets share: a small schema to resolve
 * names against, and the split of one input into several strings. */
#ifndef SQLSIM_FUZZ_COMMON_H
#define SQLSIM_FUZZ_COMMON_H

#include "sqlsim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Spider's concert_singer, with a NOCASE column and a foreign key, so that
 * resolution, canonical order and the Spider parser all have names to find. */
static const char fuzz_tables_json[] =
    "[{\"db_id\": \"concert_singer\","
    " \"table_names_original\": [\"stadium\", \"singer\", \"concert\", \"singer_in_concert\"],"
    " \"table_names\": [\"stadium\", \"singer\", \"concert\", \"singer in concert\"],"
    " \"column_names_original\": [[-1, \"*\"], [0, \"Stadium_ID\"], [0, \"Location\"], [0, \"Name\"],"
    " [0, \"Capacity\"], [0, \"Highest\"], [0, \"Lowest\"], [0, \"Average\"], [1, \"Singer_ID\"], [1, \"Name\"],"
    " [1, \"Country\"], [1, \"Song_Name\"], [1, \"Song_release_year\"], [1, \"Age\"], [1, \"Is_male\"],"
    " [2, \"concert_ID\"], [2, \"concert_Name\"], [2, \"Theme\"], [2, \"Stadium_ID\"], [2, \"Year\"],"
    " [3, \"concert_ID\"], [3, \"Singer_ID\"]],"
    " \"column_names\": [[-1, \"*\"], [0, \"stadium id\"], [0, \"location\"], [0, \"name\"], [0, \"capacity\"],"
    " [0, \"highest\"], [0, \"lowest\"], [0, \"average\"], [1, \"singer id\"], [1, \"name\"], [1, \"country\"],"
    " [1, \"song name\"], [1, \"song release year\"], [1, \"age\"], [1, \"is male\"], [2, \"concert id\"],"
    " [2, \"concert name\"], [2, \"theme\"], [2, \"stadium id\"], [2, \"year\"], [3, \"concert id\"],"
    " [3, \"singer id\"]],"
    " \"column_types\": [\"text\", \"number\", \"text\", \"text\", \"number\", \"number\", \"number\", \"number\","
    " \"number\", \"text\", \"text\", \"text\", \"text\", \"number\", \"others\", \"number\", \"text\", \"text\","
    " \"text\", \"text\", \"number\", \"text\"],"
    " \"primary_keys\": [1, 8, 15, 20], \"foreign_keys\": [[18, 1], [21, 8], [20, 15]]}]";

static inline sqlsim_catalog *fuzz_catalog(void) {
  static sqlsim_catalog *cat;
  if (!cat) sqlsim_catalog_parse_tables_json(fuzz_tables_json, sizeof fuzz_tables_json - 1, "fuzz", &cat, NULL);
  return cat;
}

/* Splits the input at its first NUL or newline into two NUL-terminated
 * strings (malloc'd together in *buf); the second is empty when there is no
 * separator. */
static inline void fuzz_split(const uint8_t *data, size_t size, char **buf, const char **a, const char **b) {
  *buf = malloc(size + 2);
  memcpy(*buf, data, size);
  (*buf)[size] = '\0';
  (*buf)[size + 1] = '\0';
  size_t k = 0;
  while (k < size && data[k] != '\n' && data[k] != '\0') k++;
  (*buf)[k] = '\0';
  *a = *buf;
  *b = k < size ? *buf + k + 1 : *buf + size + 1;
}

#endif
