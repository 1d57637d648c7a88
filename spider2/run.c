/* run.c -- a Spider 2.0 prediction folder (or predictions in memory)
 * scored through the engine: the tasks paired with their predictions as
 * the benchmark's evaluate.py pairs them, one record each (the spider2
 * metric), and the summary by engine.
 *
 * Pairing, as the scripts do it: the prediction files ending in .csv (result
 * mode) or .sql (SQL mode), each named by its instance_id (lite: the name
 * without its last suffix; snow: up to its first '.'), those that name a
 * task of the eval file, sorted. A .sql file is read as text (universal
 * newlines) and its first ```sql block taken when it has one; it runs on
 * the task's database (the tasks file's "db" or "db_id"). The score is
 * given over the predicted tasks and over the benchmark's (the scripts
 * divide by 547). Entry points: sqlsim_spider2_run, sqlsim_spider2_free,
 * sqlsim_spider2_summary_json. */
#include "core.h"
#include "metrics/spider2.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <uthash.h>

void sqlsim_spider2_free(sqlsim_spider2 *s) {
  if (!s) return;
  for (size_t k = 0; k < s->n; k++) {
    free(s->ids[k]);
    if (s->records) sqlsim_record_clear(&s->records[k]);
  }
  free(s->ids);
  free(s->records);
  free(s);
}

/* The engine a task runs on, by its instance_id's prefix (group index). */
static int group_of(const char *id) {
  if (!strncmp(id, "bq", 2) || !strncmp(id, "ga", 2)) return 0;
  if (!strncmp(id, "sf", 2)) return 1;
  if (!strncmp(id, "local", 5)) return 2;
  return 3;
}
static const char *const group_names[] = {"BigQuery", "Snowflake", "SQLite", "other"};

typedef struct entry {
  char *id;
  char *pred;              /* the SQL, or the CSV's path or text */
  int unreadable;          /* a .sql file that is not text: its message in pred */
} entry;

static int entry_cmp(const void *a, const void *b) { return strcmp(((const entry *)a)->id, ((const entry *)b)->id); }

/* The folder's prediction files of the mode's suffix, as the flavor's
 * script names them, those of the gold's tasks, each once. */
static int list_folder(const char *dir, int flavor, int *mode, const s2_gold_set *g, entry **out, size_t *n,
                       int *ignored, sqlsim_error *err) {
  DIR *d = opendir(dir);
  if (!d) return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: not a folder that can be read", dir);
  size_t ncsv = 0, nsql = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t l = strlen(e->d_name);
    if (l >= 4 && !strcmp(e->d_name + l - 4, ".csv")) ncsv++;
    if (l >= 4 && !strcmp(e->d_name + l - 4, ".sql")) nsql++;
  }
  if (*mode < 0) {
    if (ncsv && nsql) {
      closedir(d);
      return sqlsim_error_set(err, SQLSIM_ECONFIG, -1,
                              "%s holds both .csv and .sql predictions: say which to score (--mode result or sql)",
                              dir);
    }
    *mode = nsql ? SQLSIM_SPIDER2_SQL : SQLSIM_SPIDER2_CSV;
  }
  const char *ext = *mode == SQLSIM_SPIDER2_SQL ? ".sql" : ".csv";
  rewinddir(d);
  entry *v = NULL;
  size_t k = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d)) && !rc;) {
    size_t l = strlen(e->d_name);
    if (l < 4 || strcmp(e->d_name + l - 4, ext)) continue;
    char *id = strdup(e->d_name);
    if (!id) {
      rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
      break;
    }
    if (flavor == SQLSIM_SPIDER2_SNOW) *strchr(id, '.') = '\0'; /* file.split(".")[0] */
    else id[l - 4] = '\0';                                      /* Path(file).stem */
    if (!s2_gold_has(g, id)) {
      (*ignored)++;
      free(id);
      continue;
    }
    if (k == cap) {
      cap = cap ? cap * 2 : 256;
      entry *w = realloc(v, sizeof *w * cap);
      if (!w) {
        free(id);
        rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
        break;
      }
      v = w;
    }
    v[k++] = (entry){.id = id};
  }
  closedir(d);
  if (k > 1) qsort(v, k, sizeof *v, entry_cmp);
  size_t m = 0; /* snow may name two files one task: the set of ids */
  for (size_t i = 0; i < k; i++) {
    if (m && !strcmp(v[m - 1].id, v[i].id)) {
      free(v[i].id);
      continue;
    }
    v[m++] = v[i];
  }
  *out = v;
  *n = m;
  return rc;
}

typedef struct task_db {
  char *id, *db;
  UT_hash_handle hh;
} task_db;

/* The tasks file: each task's database. */
static int load_tasks(const char *path, task_db **out, sqlsim_error *err) {
  char *text;
  size_t len;
  if (core_file_read(path, &text, &len, err)) return err ? err->code : -1;
  sqlsim_arena *a = sqlsim_arena_new();
  int lineno = 0;
  for (char *p = text, *end = text + len; p < end;) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
    lineno++;
    size_t off;
    cJSON *j = n ? core_json_parse(a, p, n, &off) : NULL;
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "instance_id");
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(j, "db");
    if (!cJSON_IsString(db)) db = cJSON_GetObjectItemCaseSensitive(j, "db_id");
    if (cJSON_IsString(id) && cJSON_IsString(db)) {
      task_db *t = calloc(1, sizeof *t);
      if (t && (t->id = strdup(id->valuestring)) && (t->db = strdup(db->valuestring))) {
        task_db *old;
        HASH_FIND_STR(*out, t->id, old);
        if (old) {
          HASH_DEL(*out, old);
          free(old->id), free(old->db), free(old);
        }
        HASH_ADD_KEYPTR(hh, *out, t->id, strlen(t->id), t);
      } else if (t) {
        free(t->id), free(t);
      }
    }
    p = nl ? nl + 1 : end;
  }
  sqlsim_arena_free(a);
  free(text);
  return 0;
}

static void tasks_free(task_db *t) {
  task_db *x, *y;
  HASH_ITER(hh, t, x, y) {
    HASH_DEL(t, x);
    free(x->id), free(x->db), free(x);
  }
}

/* The tasks file beside the gold directory, as the scripts find it
 * (evaluation_suite/../spider2-lite.jsonl), or one level up. */
static char *default_tasks(const char *gold, int flavor) {
  const char *name = flavor == SQLSIM_SPIDER2_SNOW ? "spider2-snow.jsonl" : "spider2-lite.jsonl";
  static const char *const up[] = {"..", "../.."};
  for (int k = 0; k < 2; k++) {
    size_t n = strlen(gold) + strlen(name) + 16;
    char *p = malloc(n);
    if (!p) return NULL;
    snprintf(p, n, "%s/%s/%s", gold, up[k], name);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) return p;
    free(p);
  }
  return NULL;
}

/* A .sql prediction's SQL as lite's script runs it (read_text: UTF-8). */
static void read_sql(const char *dir, entry *e) {
  size_t n = strlen(dir) + strlen(e->id) + 8;
  char *path = malloc(n), *text;
  size_t len;
  sqlsim_error err = {0};
  if (!path) return;
  snprintf(path, n, "%s/%s.sql", dir, e->id);
  if (core_file_read(path, &text, &len, &err)) {
    e->unreadable = 1;
    e->pred = strdup(err.message);
  } else if (memchr(text, '\0', len) || s2_utf8_bad((const unsigned char *)text, len) >= 0) {
    e->unreadable = 1;
    e->pred = strdup("the SQL file is not UTF-8 text (the script's read_text raises UnicodeDecodeError)");
    free(text);
  } else {
    e->pred = s2_sql_from_file(text, len);
    free(text);
  }
  free(path);
}

typedef struct batch_ctx {
  const sqlsim_spider2_opts *o;
  char **ids;
  const entry *v;
  sqlsim_record *recs;
} batch_ctx;

static void progress(void *ctx, const char *phase, size_t done, size_t total) {
  const batch_ctx *b = ctx;
  if (b->o->on_progress) b->o->on_progress(b->o->ctx, phase, done, total);
}

/* A finished record: a prediction file that could not be read says why
 * (it was scored as the empty text). */
static void finished(void *ctx, size_t k, const sqlsim_record *r) {
  const batch_ctx *b = ctx;
  if (b->v[k].unreadable) snprintf(b->recs[k].input_err, sizeof b->recs[k].input_err, "%.180s", b->v[k].pred);
  if (b->o->on_record) b->o->on_record(b->o->ctx, b->ids[k], r);
}

int sqlsim_spider2_run(const sqlsim_spider2_opts *o, const char *pred_dir, const char *const *ids,
                       const char *const *preds, size_t n, sqlsim_spider2 **out, sqlsim_error *err) {
  *out = NULL;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (!o->gold) return sqlsim_error_set(err, SQLSIM_ECONFIG, -1, "give the gold directory");
  s2_gold_set *g;
  int rc = s2_gold_open(o->gold, o->flavor, &g, err);
  if (rc) return rc;
  sqlsim_spider2 *s = calloc(1, sizeof *s);
  entry *v = NULL;
  size_t m = 0;
  task_db *tasks = NULL;
  sqlsim_evaluator *ev = NULL;
  sqlsim_pair *pairs = NULL;
  if (!s) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  s->flavor = s2_gold_flavor(g);
  s->mode = o->mode;
  if (pred_dir) {
    if ((rc = list_folder(pred_dir, s->flavor, &s->mode, g, &v, &m, &s->ignored, err))) goto done;
  } else {
    if (s->mode < 0) s->mode = SQLSIM_SPIDER2_CSV;
    v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
      rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
      goto done;
    }
    for (size_t k = 0; k < n; k++) {
      if (!ids[k] || !preds[k] || !s2_gold_has(g, ids[k])) {
        s->ignored++;
        continue;
      }
      v[m].id = strdup(ids[k]);
      /* SQL as a file would hold it: a model's answer with a ```sql block is that block */
      v[m].pred = s->mode == SQLSIM_SPIDER2_SQL ? s2_sql_from_file(preds[k], strlen(preds[k])) : strdup(preds[k]);
      m++;
    }
    if (m > 1) qsort(v, m, sizeof *v, entry_cmp);
    size_t u = 0;
    for (size_t k = 0; k < m; k++) { /* one prediction per task: the last given */
      if (u && !strcmp(v[u - 1].id, v[k].id)) {
        free(v[u - 1].id), free(v[u - 1].pred);
        v[u - 1] = v[k];
        continue;
      }
      v[u++] = v[k];
    }
    m = u;
  }
  if (s->mode == SQLSIM_SPIDER2_SQL) {
    char *tp = o->tasks ? strdup(o->tasks) : default_tasks(o->gold, s->flavor);
    if (!tp) {
      rc = sqlsim_error_set(err, SQLSIM_ENOTFOUND, -1,
                            "SQL predictions run on each task's database: give the tasks file (--tasks "
                            "spider2-lite.jsonl), none is beside %s", o->gold);
      goto done;
    }
    rc = load_tasks(tp, &tasks, err);
    free(tp);
    if (rc) goto done;
  }
  sqlsim_config c = {.metrics = SQLSIM_M_SPIDER2, .spider2 = o->gold, .spider2_flavor = s->flavor,
                     .spider2_rows = o->rows, .db_dir = o->db_dir, .sqlite = o->sqlite, .engine = o->engine,
                     .timeout_s = o->timeout_s ? o->timeout_s : 60};
  c.spider2_pred = s->mode == SQLSIM_SPIDER2_SQL ? SQLSIM_SPIDER2_SQL
                   : pred_dir                      ? SQLSIM_SPIDER2_CSV_FILE
                                                   : SQLSIM_SPIDER2_CSV;
  if ((rc = sqlsim_evaluator_new(&c, &ev, err))) goto done;
  s->ids = calloc(m ? m : 1, sizeof *s->ids);
  s->records = calloc(m ? m : 1, sizeof *s->records);
  pairs = calloc(m ? m : 1, sizeof *pairs);
  if (!s->ids || !s->records || !pairs) {
    rc = sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (size_t k = 0; k < m; k++) {
    entry *e = &v[k];
    if (pred_dir && s->mode == SQLSIM_SPIDER2_CSV) {
      size_t l = strlen(pred_dir) + strlen(e->id) + 8;
      if ((e->pred = malloc(l))) snprintf(e->pred, l, "%s/%s.csv", pred_dir, e->id);
    } else if (pred_dir) {
      read_sql(pred_dir, e);
    }
    task_db *t = NULL;
    if (tasks) HASH_FIND_STR(tasks, e->id, t);
    pairs[k] = (sqlsim_pair){.gold = e->id, .pred = e->pred && !e->unreadable ? e->pred : "",
                             .db_id = t ? t->db : NULL};
    s->ids[k] = strdup(e->id);
  }
  batch_ctx bc = {o, s->ids, v, s->records};
  sqlsim_batch_opts bo = {.jobs = o->jobs, .cancel = o->cancel, .on_progress = progress, .on_record = finished,
                          .ctx = &bc};
  s->done = sqlsim_evaluate_batch(ev, pairs, m, s->records, &bo);
  s->n = m;
  /* the summary */
  s->ngroups = 4;
  for (int k = 0; k < 4; k++) s->groups[k].name = group_names[k];
  const char *const *all;
  s->tasks = s2_gold_ids(g, &all);
  for (int k = 0; k < s->tasks; k++) s->groups[group_of(all[k])].tasks++;
  s->rows_asked = o->rows;
  for (size_t k = 0; k < s->done; k++) {
    sqlsim_spider2_group *gr = &s->groups[group_of(s->ids[k])];
    const sqlsim_spider2_part *p = &s->records[k].spider2;
    gr->submitted++;
    gr->correct += p->has && p->score;
    gr->rows_correct += p->has && p->rows == 1;
    s->correct += p->has && p->score;
    s->rows_correct += p->has && p->rows == 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  s->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  *out = s;
  s = NULL;
done:
  for (size_t k = 0; k < m; k++) free(v[k].id), free(v[k].pred);
  free(v);
  free(pairs);
  tasks_free(tasks);
  sqlsim_evaluator_free(ev);
  s2_gold_close(g);
  sqlsim_spider2_free(s);
  return rc;
}

/* ---------------------------------------------------------------- the summary */

static double share(int a, int b) { return b ? (double)a / b : 0; }

char *sqlsim_spider2_summary_json(const sqlsim_spider2 *s) {
  strbuf sb = {0};
  sb_printf(&sb, "{\"flavor\":\"%s\",\"mode\":\"%s\",\"submitted\":%zu,\"correct\":%d,\"score\":",
            s->flavor == SQLSIM_SPIDER2_SNOW ? "snow" : "lite", s->mode == SQLSIM_SPIDER2_SQL ? "sql" : "result",
            s->done, s->correct);
  sb_json_real(&sb, share(s->correct, (int)s->done));
  sb_printf(&sb, ",\"tasks\":%d,\"score_all\":", s->tasks);
  sb_json_real(&sb, share(s->correct, s->tasks));
  if (s->rows_asked) {
    sb_printf(&sb, ",\"rows_correct\":%d,\"rows_score\":", s->rows_correct);
    sb_json_real(&sb, share(s->rows_correct, (int)s->done));
    sb_puts(&sb, ",\"rows_fail_share\":");
    sb_json_real(&sb, share(s->correct - s->rows_correct, s->correct));
  }
  sb_printf(&sb, ",\"ignored\":%d,\"seconds\":", s->ignored);
  sb_json_real(&sb, s->seconds);
  sb_puts(&sb, ",\"groups\":[");
  int first = 1;
  for (int k = 0; k < s->ngroups; k++) {
    const sqlsim_spider2_group *g = &s->groups[k];
    if (!g->tasks && !g->submitted) continue;
    sb_printf(&sb, "%s{\"name\":\"%s\",\"tasks\":%d,\"submitted\":%d,\"correct\":%d", first ? "" : ",", g->name,
              g->tasks, g->submitted, g->correct);
    if (s->rows_asked) sb_printf(&sb, ",\"rows_correct\":%d", g->rows_correct);
    sb_putc(&sb, '}');
    first = 0;
  }
  sb_puts(&sb, "]}");
  return sb_take(&sb);
}
