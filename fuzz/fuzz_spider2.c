/* fuzz_spider2.c -- Spider 2.0's readers and judgement (metrics/frame.c,
 * metrics/spider2.c) on any bytes. The first byte chooses:
 *   0..99   the input is a CSV file: read as pandas reads it; every column
 *           as long as the table, each cell of a kind its dtype allows, text
 *           valid UTF-8 without NUL, each float's repr reading back as it;
 *   100..199 the input is up to three parts split at 0x1e (record
 *           separator): a gold CSV, a predicted CSV, the eval line's
 *           condition_cols and ignore_order as JSON; judged by lite's and
 *           snow's rules with --rows: a score of 0 or 1, rows never above
 *           it, a matched variant exactly when it passes;
 *   200..227 the input is rows of typed values: saved as the scripts save
 *           them (to_csv), which must read back row for row unless a
 *           text held \r (to_csv leaves it unquoted: pandas reads a new line)
 *           or is blank alone on its line (pandas skips the line);
 *   228..255 the input is a database folder (schema/spider2_schema.c): a
 *           DDL.csv and one table JSON split at 0x1e, loaded as a schema
 *           source: an error with a message, or a schema whose DDL SQLite
 *           loads and whose samples are at most 32 non-empty texts a column. */
#include "fuzz_common.h"
#include "core.h"
#include "metrics/spider2.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_frame(const s2_frame *f) {
  for (int c = 0; c < f->ncols; c++) {
    const s2_column *col = &f->cols[c];
    for (long r = 0; r < f->nrows; r++) {
      const s2_value *v = &col->v[r];
      switch (col->dtype) {
      case S2_INT64: if (v->kind != S2_V_INT) abort(); break;
      case S2_UINT64: if (v->kind != S2_V_UINT) abort(); break;
      case S2_FLOAT64: if (v->kind != S2_V_FLOAT) abort(); break;
      case S2_BOOL: if (v->kind != S2_V_BOOL) abort(); break;
      default: break;
      }
      if (v->kind == S2_V_STR) {
        if (s2_utf8_bad((const unsigned char *)v->s, v->len) >= 0 || memchr(v->s, '\0', v->len)) abort();
      } else if (v->kind == S2_V_FLOAT && isfinite(v->x)) {
        char b[48];
        s2_float_repr(v->x, v->s, v->len, b);
        if (strtod(b, NULL) != v->x) abort();
        char c2[48];
        s2_float_repr(v->x, NULL, 0, c2); /* from its text or not, the same repr */
        if (strcmp(b, c2)) abort();
      }
    }
  }
}

static void read_csv(const uint8_t *data, size_t size) {
  s2_frame *f = NULL;
  sqlsim_error e = {0};
  if (s2_frame_read((const char *)data, size, &f, &e) == 0) {
    check_frame(f);
    s2_frame_free(f);
  } else if (!e.message[0]) {
    abort();
  }
}

static void judge(const uint8_t *data, size_t size) {
  const uint8_t *part[3] = {data, NULL, NULL};
  size_t len[3] = {size, 0, 0};
  int n = 1;
  for (size_t i = 0; i < size && n < 3; i++)
    if (data[i] == 0x1e) {
      len[n - 1] = (size_t)(data + i - part[n - 1]);
      part[n] = data + i + 1;
      len[n] = size - i - 1;
      n++;
    }
  s2_frame *gold = NULL, *pred = NULL;
  if (s2_frame_read((const char *)part[0], len[0], &gold, NULL) ||
      s2_frame_read(n > 1 ? (const char *)part[1] : "", n > 1 ? len[1] : 0, &pred, NULL)) {
    s2_frame_free(gold);
    return;
  }
  sqlsim_arena *a = sqlsim_arena_new();
  size_t off;
  cJSON *rule = n > 2 ? core_json_parse(a, (const char *)part[2], len[2], &off) : NULL;
  if (!cJSON_IsObject(rule)) rule = core_json_parse(a, "{\"condition_cols\": [], \"ignore_order\": true}", 46, &off);
  for (int flavor = S2_LITE; flavor <= S2_SNOW; flavor++)
    for (int variants = 1; variants <= 2; variants++) {
      char *names[2] = {"t_a.csv", "t_b.csv"};
      s2_frame *frames[2] = {gold, pred};
      s2_task_gold t = {.nvariants = variants, .single = variants == 1, .names = names, .frames = frames,
                        .flavor = flavor, .rule = rule};
      s2_verdict v;
      s2_judge(&t, pred, 1, &v);
      if (v.score != 0 && v.score != 1) abort();
      if (v.rows > v.score || v.rows < 0) abort();
      if ((v.variant >= 0) != (v.score == 1) || v.variant >= variants) abort();
      s2_judge(&t, pred, 0, &v);
      if (v.rows != -1) abort();
    }
  sqlsim_arena_free(a);
  s2_frame_free(gold);
  s2_frame_free(pred);
}

static void rows_csv(const uint8_t *data, size_t size) {
  if (size < 1) return;
  int ncols = 1 + data[0] % 4;
  sqlsim_value cells[256];
  int n = 0, cr = 0, bad = 0, blank = 0;
  size_t i = 1;
  while (i < size && n < 256) {
    sqlsim_value *v = &cells[n++];
    memset(v, 0, sizeof *v);
    uint8_t t = data[i++] % 8;
    size_t l = i < size ? data[i++] % 12 : 0;
    if (l > size - i) l = size - i;
    v->type = t;
    switch (t) {
    case SQLSIM_V_INT: memcpy(&v->i, data + i, l < 8 ? l : 8); break;
    case SQLSIM_V_REAL: memcpy(&v->x, data + i, l < 8 ? l : 8); break;
    case SQLSIM_V_BOOL: v->i = l & 1; break;
    case SQLSIM_V_NULL: break;
    default:
      v->p = (const char *)data + i, v->n = l;
      cr |= memchr(v->p, '\r', l) != NULL;
      size_t sp = 0;
      while (sp < l && (v->p[sp] == ' ' || v->p[sp] == '\t')) sp++;
      if (ncols == 1 && l && sp == l) blank = 1; /* a blank line: pandas skips it */
      if (t == SQLSIM_V_TEXT) bad |= s2_utf8_bad((const unsigned char *)v->p, l) >= 0;
    }
    i += l;
  }
  long nrows = n / ncols;
  for (long chunk = 0; chunk <= 2; chunk += 2) {
    char *out = NULL;
    size_t olen;
    sqlsim_error e = {0};
    int rc = sqlsim_spider2_rows_csv(cells, nrows, ncols, chunk, &out, &olen, &e);
    if (rc && !bad) abort();
    if (rc) continue;
    s2_frame *f = NULL;
    if (s2_frame_read(out, olen, &f, &e) == 0) {
      check_frame(f);
      if (!cr && !blank && (f->nrows != nrows || f->ncols != ncols)) abort();
      s2_frame_free(f);
    } else if (!cr && !olen) {
      abort();
    }
    free(out);
  }
}

static void put(const char *path, const uint8_t *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  if (n) fwrite(p, 1, n, f);
  fclose(f);
}

static void schema_folder(const uint8_t *data, size_t size) {
  static char root[64], db[96], ddl[128], json[128];
  if (!root[0]) { /* one folder for the process, rewritten by each input */
    strcpy(root, "/tmp/sqlsim_fuzz_s2schema_XXXXXX");
    if (!mkdtemp(root)) abort();
    snprintf(db, sizeof db, "%s/db1", root);
    if (mkdir(db, 0700)) abort();
    snprintf(ddl, sizeof ddl, "%s/DDL.csv", db);
    snprintf(json, sizeof json, "%s/t.json", db);
  }
  const uint8_t *sep = memchr(data, 0x1e, size);
  size_t n = sep ? (size_t)(sep - data) : size;
  put(ddl, data, n);
  put(json, sep ? sep + 1 : data, sep ? size - n - 1 : 0);
  sqlsim_catalog *c = NULL;
  sqlsim_error e = {0};
  if (sqlsim_catalog_load_spider2(root, &c, &e)) {
    if (!e.message[0] || c) abort();
    return;
  }
  for (int i = 0; i < sqlsim_catalog_count(c); i++) {
    const sqlsim_schema *s = sqlsim_catalog_at(c, i);
    for (int k = 0; k < s->ncolumns; k++) {
      const sqlsim_column *col = &s->columns[k];
      if (col->nsamples < 0 || col->nsamples > 32 || (col->nsamples && !col->samples)) abort();
      for (int j = 0; j < col->nsamples; j++)
        if (!col->samples[j] || !col->samples[j][0]) abort();
    }
    void *h = NULL;
    if (sqlsim_schema_create_sqlite(s, ":memory:", &h, &e)) abort(); /* what it read, SQLite loads */
    sqlite3_close(h);
  }
  sqlsim_catalog_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  if (data[0] < 100) read_csv(data + 1, size - 1);
  else if (data[0] < 200) judge(data + 1, size - 1);
  else if (data[0] < 228) rows_csv(data + 1, size - 1);
  else schema_folder(data + 1, size - 1);
  return 0;
}
