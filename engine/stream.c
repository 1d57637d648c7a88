/* stream.c -- the JSON Lines protocol of `sqlsim stream`: requests on a
 * descriptor, one answer line per request on a stream, in order, flushed per
 * line (docs/python.md).
 *
 * A request is {"gold": SQL, "pred": SQL, "db_id": ID, "id": ANY} (db_id and
 * id optional); the answer is {"id": ANY, "line": N, ...the record's fields}
 * (docs/per-item.md), with "reward" when asked. A line that is not such a
 * request is answered {"id": ..., "line": N, "error": {"message", "side":
 * "request"}} and the stream goes on.
 *
 * Requests are read with a buffer of our own, so the server sees whether more
 * input is already waiting: lines that are there are scored together as one
 * engine batch on worker threads; when the writer waits for an answer before
 * sending the next request (a co-process), each line is scored as soon as it
 * arrives. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"

#define MAX_LINE (16u << 20) /* a request line: two queries of at most 1 MB each, with room */
#define MAX_BATCH 512        /* requests scored together at most */

/* ---------------------------------------------------------------- line reader */

typedef struct reader {
  int fd;
  char *buf;
  size_t start, end, cap;
  int eof;
  long lineno;
} reader;

/* Whether a whole line is buffered, or the descriptor has bytes waiting. */
static int more_ready(reader *r) {
  if (memchr(r->buf + r->start, '\n', r->end - r->start)) return 1;
  if (r->eof) return r->end > r->start;
  struct pollfd p = {.fd = r->fd, .events = POLLIN};
  return poll(&p, 1, 0) > 0;
}

/* The next line (without its end; NUL-terminated in the buffer, valid until
 * the next call), or NULL at the end of input. *too_long: the line passed
 * MAX_LINE and was skipped. */
static char *next_line(reader *r, size_t *len, int *too_long) {
  *too_long = 0;
  int skipping = 0;
  for (;;) {
    char *nl = memchr(r->buf + r->start, '\n', r->end - r->start);
    if (nl || (r->eof && r->end > r->start)) {
      char *line = r->buf + r->start;
      size_t n = nl ? (size_t)(nl - line) : r->end - r->start;
      r->start += n + (nl != NULL);
      r->lineno++;
      if (skipping) {
        *too_long = 1;
        *len = 0;
        line[0] = '\0';
        return line;
      }
      if (n && line[n - 1] == '\r') n--;
      line[n] = '\0';
      *len = n;
      return line;
    }
    if (r->eof) return NULL;
    if (r->start > 0) { /* keep the partial line at the front */
      memmove(r->buf, r->buf + r->start, r->end - r->start);
      r->end -= r->start;
      r->start = 0;
    }
    if (r->end > MAX_LINE) { /* drop what there is of an oversized line, keep reading to its end */
      skipping = 1;
      r->end = 0;
    }
    if (r->cap - r->end < 65536) {
      r->cap *= 2;
      r->buf = realloc(r->buf, r->cap);
      if (!r->buf) {
        fputs("sqlsim: out of memory\n", stderr);
        abort();
      }
    }
    ssize_t got = read(r->fd, r->buf + r->end, r->cap - r->end - 1);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) r->eof = 1;
    else r->end += (size_t)got;
  }
}

/* ---------------------------------------------------------------- requests */

typedef struct request {
  long line;
  char *id;            /* the id as JSON text, or NULL */
  char *error;         /* why this is not a request, or NULL */
  char *gold, *pred, *db_id;
  char *pred_error;    /* why the prediction is scored as the empty text (a NUL character in it) */
} request;

/* The byte offset in the line of a \u0000 escape in the string value of the
 * top-level member key, or -1: JSON can carry a NUL character, which SQL
 * text cannot, and a C string would end there (a prediction cut at it could
 * score as right). */
static long member_nul(const char *t, size_t n, const char *key) {
  int depth = 0, expect_key = 0;
  size_t klen = strlen(key), mark = 0;
  int is_key = 0, last_key_match = 0;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (c == '{' || c == '[') {
      depth++;
      expect_key = c == '{';
    } else if (c == '}' || c == ']') {
      depth--;
    } else if (c == ',') {
      expect_key = depth == 1;
    } else if (c == ':') {
      expect_key = 0;
    } else if (c == '"') {
      is_key = expect_key && depth == 1;
      mark = i + 1;
      long nul = -1;
      for (i++; i < n && t[i] != '"'; i++)
        if (t[i] == '\\' && i + 1 < n) {
          if (t[i + 1] == 'u' && i + 5 < n && !strncmp(t + i + 2, "0000", 4) && nul < 0) nul = (long)i;
          i++;
        }
      if (depth != 1) continue;
      if (is_key) last_key_match = i - mark == klen && !strncmp(t + mark, key, klen);
      else if (last_key_match && nul >= 0) return nul;
    }
  }
  return -1;
}

static char *dup_str(const char *s) { return s ? strdup(s) : NULL; }

static void read_request(request *q, const char *text, size_t len, int too_long, sqlsim_arena *a) {
  memset(q, 0, sizeof *q);
  if (too_long) {
    q->error = strdup("the line is longer than 16 MiB");
    return;
  }
  size_t off = 0;
  cJSON *doc = core_json_parse(a, text, len, &off);
  if (!doc || !cJSON_IsObject(doc)) {
    char msg[128];
    if (!doc) snprintf(msg, sizeof msg, "not JSON (at byte %zu)", off);
    else snprintf(msg, sizeof msg, "not a JSON object");
    q->error = strdup(msg);
    return;
  }
  cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");
  if (id) {
    strbuf sb = {0};
    if (cJSON_IsString(id)) sb_json_str(&sb, id->valuestring);
    else if (cJSON_IsNumber(id)) sb_printf(&sb, "%.17g", id->valuedouble);
    else sb_puts(&sb, "null"); /* ids are strings or numbers */
    q->id = sb_take(&sb);
  }
  cJSON *g = cJSON_GetObjectItemCaseSensitive(doc, "gold"), *p = cJSON_GetObjectItemCaseSensitive(doc, "pred");
  cJSON *d = cJSON_GetObjectItemCaseSensitive(doc, "db_id");
  if (!cJSON_IsString(g) || !cJSON_IsString(p)) {
    q->error = strdup("a request needs \"gold\" and \"pred\" strings");
    return;
  }
  if (d && !cJSON_IsString(d) && !cJSON_IsNull(d)) {
    q->error = strdup("\"db_id\" must be a string");
    return;
  }
  long gnul = member_nul(text, len, "gold"), pnul = member_nul(text, len, "pred");
  if (gnul >= 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "the gold holds a NUL character (\\u0000 at byte %ld of the line)", gnul);
    q->error = strdup(msg);
    return;
  }
  if (pnul >= 0) {
    char msg[128];
    snprintf(msg, sizeof msg, "the prediction holds a NUL character (\\u0000 at byte %ld of the line)", pnul);
    q->pred_error = strdup(msg);
  }
  q->gold = dup_str(g->valuestring);
  q->pred = dup_str(pnul >= 0 ? "" : p->valuestring);
  q->db_id = cJSON_IsString(d) ? dup_str(d->valuestring) : NULL;
}

static void request_free(request *q) {
  free(q->pred_error);
  free(q->id);
  free(q->error);
  free(q->gold);
  free(q->pred);
  free(q->db_id);
}

/* ---------------------------------------------------------------- answers */

typedef struct stream {
  sqlsim_evaluator *ev;
  int reward;
  request *reqs;
  int nreqs, written;
  int *pair_req;       /* request index of each pair of the batch */
  strbuf sb;
  FILE *out;
  int out_failed;
} stream;

static void answer_head(stream *s, const request *q) {
  s->sb.len = 0;
  sb_puts(&s->sb, "{\"id\":");
  sb_puts(&s->sb, q->id ? q->id : "null");
  sb_printf(&s->sb, ",\"line\":%ld,", q->line);
}

static void flush_answer(stream *s) {
  sb_puts(&s->sb, "}\n");
  if (fwrite(s->sb.buf, 1, s->sb.len, s->out) != s->sb.len || fflush(s->out)) s->out_failed = 1;
}

/* Answers the requests before request `upto` that were not requests. */
static void answer_errors(stream *s, int upto) {
  for (; s->written < upto; s->written++) {
    const request *q = &s->reqs[s->written];
    answer_head(s, q);
    sb_puts(&s->sb, "\"error\":{\"message\":");
    sb_json_str(&s->sb, q->error);
    sb_puts(&s->sb, ",\"offset\":null,\"side\":\"request\"}");
    flush_answer(s);
  }
}

static void on_record(void *ctx, size_t k, const sqlsim_record *r) {
  stream *s = ctx;
  int qi = s->pair_req[k];
  answer_errors(s, qi);
  answer_head(s, &s->reqs[qi]);
  sqlsim_record with_input; /* a prediction scored as the empty text says why */
  if (s->reqs[qi].pred_error) {
    with_input = *r;
    snprintf(with_input.input_err, sizeof with_input.input_err, "%s", s->reqs[qi].pred_error);
    r = &with_input;
  }
  engine_record_json(&s->sb, r);
  if (s->reward) {
    sb_puts(&s->sb, ",\"reward\":");
    sb_json_num(&s->sb, sqlsim_reward(s->ev, r, -1));
  }
  flush_answer(s);
  s->written = qi + 1;
}

static void score_batch(stream *s, int jobs) {
  sqlsim_pair *pairs = malloc(sizeof *pairs * (size_t)(s->nreqs ? s->nreqs : 1));
  sqlsim_record *recs = calloc((size_t)(s->nreqs ? s->nreqs : 1), sizeof *recs);
  s->pair_req = malloc(sizeof *s->pair_req * (size_t)(s->nreqs ? s->nreqs : 1));
  size_t n = 0;
  for (int i = 0; i < s->nreqs; i++)
    if (!s->reqs[i].error) {
      pairs[n] = (sqlsim_pair){s->reqs[i].gold, s->reqs[i].pred, s->reqs[i].db_id};
      s->pair_req[n++] = i;
    }
  s->written = 0;
  sqlsim_batch_opts o = {.jobs = jobs, .on_record = on_record, .ctx = s};
  sqlsim_evaluate_batch(s->ev, pairs, n, recs, &o);
  answer_errors(s, s->nreqs);
  for (size_t k = 0; k < n; k++) sqlsim_record_clear(&recs[k]);
  free(recs);
  free(pairs);
  free(s->pair_req);
  for (int i = 0; i < s->nreqs; i++) request_free(&s->reqs[i]);
  s->nreqs = 0;
}

int sqlsim_serve_jsonl(sqlsim_evaluator *ev, int in_fd, FILE *out, int jobs, int reward) {
  stream s = {.ev = ev, .reward = reward, .out = out};
  s.reqs = calloc(MAX_BATCH, sizeof *s.reqs);
  reader rd = {.fd = in_fd, .cap = 1 << 20};
  rd.buf = malloc(rd.cap);
  if (!s.reqs || !rd.buf) {
    fputs("sqlsim: out of memory\n", stderr);
    abort();
  }
  sqlsim_arena *a = sqlsim_arena_new();
  char *line;
  size_t len;
  int too_long;
  while (!s.out_failed && (line = next_line(&rd, &len, &too_long))) {
    if (too_long || len > 0) { /* blank lines are not requests */
      request *q = &s.reqs[s.nreqs++];
      read_request(q, line, len, too_long, a);
      q->line = rd.lineno;
      arena_reset(a);
    }
    if (s.nreqs && (s.nreqs == MAX_BATCH || !more_ready(&rd))) score_batch(&s, jobs);
  }
  if (s.nreqs && !s.out_failed) score_batch(&s, jobs);
  for (int i = 0; i < s.nreqs; i++) request_free(&s.reqs[i]);
  sqlsim_arena_free(a);
  free(s.reqs);
  free(rd.buf);
  sb_free(&s.sb);
  return s.out_failed ? -1 : 0;
}
