/* term.c -- what a long command-line run owes its user: outputs that may be
 * standard output, a clean end on SIGINT/SIGTERM, and progress. */
#include "cli.h"
#include "report/run.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- outputs */

FILE *cli_open_out(const char *path) {
  if (!strcmp(path, "-")) return stdout;
  FILE *f = fopen(path, "w");
  if (!f) error("%s: cannot write: %s", path, strerror(errno));
  return f;
}

int cli_close_out(FILE *f, const char *path) {
  if (!f) return 0;
  int bad = fflush(f) != 0 || ferror(f);
  if (f != stdout) bad |= fclose(f) != 0;
  if (bad) return error("%s: could not write it all: %s", path, strerror(errno ? errno : EIO));
  return 0;
}

/* ---------------------------------------------------------------- interrupts */

volatile int cli_cancel;
static volatile sig_atomic_t signo;

static void on_signal(int s) {
  signo = s;
  cli_cancel = 1;
  signal(s, SIG_DFL); /* a second one ends the process */
}

void cli_catch_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

int cli_signal_status(void) { return signo ? 128 + signo : 0; }

/* ---------------------------------------------------------------- progress */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_init(cli_progress *p, const char *cmd, int quiet) {
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->quiet = quiet;
  p->tty = isatty(2);
  p->start = p->last = now_s();
}

void cli_progress_update(cli_progress *p, const char *phase, size_t done, size_t total, const char *unit) {
  if (p->quiet) return;
  double t = now_s();
  if (!p->phase || strcmp(p->phase, phase)) { /* a new phase times from here */
    cli_progress_end(p);
    p->phase = phase;
    p->start = p->last = t;
  }
  double el = t - p->start;
  char left[64] = "";
  if (done > 0 && done < total && el > 1)
    snprintf(left, sizeof left, ", about %.0f s left", el / (double)done * (double)(total - done));
  if (p->tty) {
    if (done < total && t - p->last < 0.2 && p->drawn) return;
    p->last = t;
    int w = 30, filled = total ? (int)((double)done * w / (double)total) : w;
    fprintf(stderr, "\r%s: %s [", p->cmd, phase);
    for (int k = 0; k < w; k++) fputc(k < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %zu/%zu %s, %.0f s%s\033[K", done, total, unit, el, left);
    p->drawn = 1;
  } else {
    if (t - p->last < 10 && !(done == total && el >= 10)) return;
    p->last = t;
    fprintf(stderr, "%s: %s %zu/%zu %s, %.0f s%s\n", p->cmd, phase, done, total, unit, el, left);
  }
  fflush(stderr);
}

void cli_progress_end(cli_progress *p) {
  if (p->tty && p->drawn) fputc('\n', stderr);
  p->drawn = 0;
}

/* ---------------------------------------------------------------- a run's sink */

void cli_sink_record(void *sink, size_t k, const sqlsim_record *rec) {
  cli_sink *o = sink;
  if (!o->per_item) return;
  o->sb.len = 0;
  run_item_json(&o->sb, o->r, k, rec);
  fwrite(o->sb.buf, 1, o->sb.len, o->per_item);
  fflush(o->per_item);
}

void cli_sink_progress(void *sink, const char *phase, size_t done, size_t total) {
  cli_sink *o = sink;
  cli_progress_update(&o->prog, phase, done, total, "pairs");
}
