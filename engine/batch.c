/* batch.c -- many pairs scored on worker threads.
 *
 * Workers take runs of consecutive pairs that share a gold query (up to
 * CHUNK), so each gold is prepared once per run; a prediction written as one
 * a little earlier in the run copies its record. The calling thread delivers
 * finished records in pair order and reports progress. Everything but timing
 * runs in parallel; then the timing metrics one pair at a time, on the
 * calling thread, since a timing taken while other threads run measures them
 * too. With one job, or one pair, everything runs on the calling thread: a
 * thread started for a batch pays for the parser's and the sandbox's
 * per-thread state (about 0.5 ms), more than a small batch costs (RL scores
 * a question's 8 samples at a time). A cancel flag stops the batch between
 * pairs; what is delivered is always a prefix. */
#include "engine.h"
#include "record/record.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHUNK 64      /* most pairs a batch worker takes at once */
#define DEDUP_BACK 16 /* earlier predictions of the same gold looked at for the same text */

typedef struct batch {
  sqlsim_evaluator *ev;
  const sqlsim_pair *pairs;
  size_t n;
  sqlsim_record *out;
  const sqlsim_batch_opts *o;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  size_t next;      /* first pair no worker has taken */
  unsigned char *done;
  int stop;         /* cancelled: take nothing more */
  int exited;       /* worker threads that have finished */
} batch;

static int cancelled(const batch *b) { return b->o && b->o->cancel && *b->o->cancel; }

static int same_gold(const sqlsim_pair *a, const sqlsim_pair *b) {
  return (a->gold == b->gold || !strcmp(a->gold, b->gold)) && engine_same_db_id(a->db_id, b->db_id);
}

/* Scores pair k of a run that starts at lo and shares its gold query: a
 * prediction written exactly as one a little earlier copies its record. */
static void score_one(batch *b, worker *w, size_t lo, size_t k) {
  const sqlsim_pair *p = &b->pairs[k];
  size_t same = k;
  for (size_t j = k > lo + DEDUP_BACK ? k - DEDUP_BACK : lo; j < k && same == k; j++)
    if (!strcmp(b->pairs[j].pred, p->pred)) same = j;
  if (same < k) record_copy(&b->out[k], &b->out[same]);
  else engine_score_pair(b->ev, w, p, &b->out[k]);
}

/* The end of the run of pairs from lo that share its gold (at most CHUNK). */
static size_t run_end(const batch *b, size_t lo) {
  size_t hi = lo + 1;
  while (hi < b->n && hi - lo < CHUNK && same_gold(&b->pairs[lo], &b->pairs[hi])) hi++;
  return hi;
}

/* Scores pairs [lo, hi), one run. */
static size_t score_run(batch *b, worker *w, size_t lo, size_t hi) {
  for (size_t k = lo; k < hi; k++) {
    if (k > lo && cancelled(b)) return k; /* the rest stay unfinished */
    score_one(b, w, lo, k);
  }
  return hi;
}

static void *batch_worker(void *arg) {
  batch *b = arg;
  worker *w = engine_worker_get(b->ev);
  for (;;) {
    pthread_mutex_lock(&b->mu);
    if (cancelled(b)) b->stop = 1;
    size_t lo = b->next, hi = lo;
    if (!b->stop && lo < b->n) b->next = hi = run_end(b, lo);
    pthread_mutex_unlock(&b->mu);
    if (lo == hi) break;
    size_t end = score_run(b, w, lo, hi);
    pthread_mutex_lock(&b->mu);
    for (size_t k = lo; k < end; k++) b->done[k] = 1;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
  }
  engine_worker_put(b->ev, w);
  sqlsim_thread_cleanup();
  pthread_mutex_lock(&b->mu);
  b->exited++;
  pthread_cond_broadcast(&b->cv);
  pthread_mutex_unlock(&b->mu);
  return NULL;
}

/* The batch on the calling thread: each pair scored and delivered in turn.
 * Returns how many are finished (a prefix). */
static size_t score_here(batch *b, int timing) {
  worker *w = engine_worker_get(b->ev);
  size_t k = 0;
  while (k < b->n) {
    size_t lo = k, hi = run_end(b, lo);
    for (; k < hi; k++) {
      if (k > 0 && cancelled(b)) goto out;
      score_one(b, w, lo, k);
      if (!timing && b->o->on_record) b->o->on_record(b->o->ctx, k, &b->out[k]);
      if (b->o->on_progress) b->o->on_progress(b->o->ctx, "scoring", k + 1, b->n);
    }
  }
out:
  engine_worker_put(b->ev, w);
  return k;
}

size_t sqlsim_evaluate_batch(sqlsim_evaluator *ev, const sqlsim_pair *pairs, size_t n, sqlsim_record *out,
                             const sqlsim_batch_opts *opts) {
  static const sqlsim_batch_opts none = {0};
  const sqlsim_batch_opts *o = opts ? opts : &none;
  if (n == 0) return 0;
  memset(out, 0, n * sizeof *out);
  batch b = {.ev = ev, .pairs = pairs, .n = n, .out = out, .o = o};
  int jobs = o->jobs > 0 ? o->jobs : 1;
  if ((size_t)jobs > n) jobs = (int)n;
  int timing = (ev->cfg.metrics & SQLSIM_M_TIMING) != 0;
  size_t ready;
  if (jobs == 1) {
    ready = score_here(&b, timing);
    goto timed;
  }
  b.done = calloc(n, 1);
  if (!b.done) return 0;
  pthread_mutex_init(&b.mu, NULL);
  pthread_cond_init(&b.cv, NULL);
  pthread_t *th = calloc((size_t)jobs, sizeof *th);
  int started = 0;
  for (int t = 0; t < jobs; t++)
    if (pthread_create(&th[t], NULL, batch_worker, &b) == 0) started++;
    else break;
  if (!started) batch_worker(&b); /* no thread to be had: score here */
  /* Deliver finished records in order (without timing) and report progress,
   * here on the calling thread. */
  ready = 0;
  pthread_mutex_lock(&b.mu);
  for (;;) {
    size_t was = ready;
    while (ready < n && b.done[ready]) ready++;
    if (ready > was) {
      pthread_mutex_unlock(&b.mu);
      for (size_t k = was; k < ready; k++) {
        if (!timing && o->on_record) o->on_record(o->ctx, k, &out[k]);
        if (o->on_progress) o->on_progress(o->ctx, "scoring", k + 1, n);
      }
      pthread_mutex_lock(&b.mu);
      continue;
    }
    if (ready == n) break;
    if (cancelled(&b)) b.stop = 1;
    if (b.stop && (b.next <= ready || b.exited == started)) break; /* nothing more can finish */
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 200 * 1000000L; /* wake to see a cancel set by a signal handler */
    if (ts.tv_nsec >= 1000000000L) ts.tv_sec++, ts.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&b.cv, &b.mu, &ts);
  }
  b.stop = 1;
  pthread_mutex_unlock(&b.mu);
  for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
  free(th);
  /* Pairs finished past the first unfinished one are dropped: the result is a prefix. */
  for (size_t k = ready; k < n; k++)
    if (b.done[k]) sqlsim_record_clear(&out[k]);
  free(b.done);
  pthread_cond_destroy(&b.cv);
  pthread_mutex_destroy(&b.mu);
timed:
  if (timing) {
    size_t total = 0, t = 0;
    for (size_t k = 0; k < ready; k++) total += out[k].exec.bird == 1;
    for (size_t k = 0; k < ready; k++) {
      if (o->cancel && *o->cancel) {
        for (size_t j = k; j < ready; j++) sqlsim_record_clear(&out[j]);
        return k;
      }
      engine_time_pair(ev, &pairs[k], &out[k], o->cancel);
      if (o->cancel && *o->cancel) { /* stopped inside this pair's timing: it is not finished */
        for (size_t j = k; j < ready; j++) sqlsim_record_clear(&out[j]);
        return k;
      }
      if (o->on_record) o->on_record(o->ctx, k, &out[k]);
      if (out[k].has_timing && o->on_progress) o->on_progress(o->ctx, "timing", ++t, total);
    }
  }
  return ready;
}
