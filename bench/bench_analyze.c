/* bench_analyze.c -- how long a whole-corpus error analysis takes.
 *
 * Runs the sqlsim command itself (the path a user runs) over one gold file and
 * several prediction files, best of --rounds:
 *  1. `sqlsim analyze` with execution, at -j 1 and -j 2 (with --html and
 *     --per-item written, as a user would): wall time, pairs per second, peak
 *     memory of the process;
 *  2. `sqlsim eval --metrics exec` on the same files: the execution alone,
 *     so the ratio shows what parsing, diffing, categorizing and the reports add.
 *
 * usage: bench_analyze --sqlsim BIN --gold FILE --tables FILE --db-dir DIR [--rounds 3] PRED...
 */
#include "clock.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Runs argv with stdout to /dev/null; returns wall seconds, peak RSS in KiB, -1 on failure. */
static double run(char **argv, long *maxrss_kb) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  double t0 = now();
  if (posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)) {
    posix_spawn_file_actions_destroy(&fa);
    return -1;
  }
  int st;
  struct rusage ru;
  if (wait4(pid, &st, 0, &ru) < 0) return -1;
  double t = now() - t0;
  posix_spawn_file_actions_destroy(&fa);
  if (!WIFEXITED(st) || WEXITSTATUS(st)) {
    fprintf(stderr, "bench_analyze: %s %s failed (status %d)\n", argv[0], argv[1], st);
    return -1;
  }
  *maxrss_kb = ru.ru_maxrss;
  return t;
}

static double best(char **argv, int rounds, long *rss) {
  double b = 1e30;
  *rss = 0;
  for (int r = 0; r < rounds; r++) {
    long m = 0;
    double t = run(argv, &m);
    if (t < 0) return -1;
    if (t < b) b = t;
    if (m > *rss) *rss = m;
  }
  return b;
}

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0, c, last = '\n';
  while ((c = getc(f)) != EOF) {
    if (c == '\n') n++;
    last = c;
  }
  if (last != '\n') n++;
  fclose(f);
  return n;
}

int main(int argc, char **argv) {
  const char *bin = NULL, *gold = NULL, *tables = NULL, *dbdir = NULL;
  int rounds = 3;
  char *preds[64];
  int npreds = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--sqlsim") && i + 1 < argc) bin = argv[++i];
    else if (!strcmp(argv[i], "--gold") && i + 1 < argc) gold = argv[++i];
    else if (!strcmp(argv[i], "--tables") && i + 1 < argc) tables = argv[++i];
    else if (!strcmp(argv[i], "--db-dir") && i + 1 < argc) dbdir = argv[++i];
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (npreds < 64) preds[npreds++] = argv[i];
  }
  if (!bin || !gold || !tables || !dbdir || !npreds || rounds < 1) {
    fprintf(stderr, "usage: bench_analyze --sqlsim BIN --gold FILE --tables FILE --db-dir DIR [--rounds N] PRED...\n");
    return 2;
  }
  char tmpl[] = "/tmp/bench_analyze.XXXXXX";
  if (!mkdtemp(tmpl)) return 1;
  char html[300], items[300];
  snprintf(html, sizeof html, "%s/report.html", tmpl);
  snprintf(items, sizeof items, "%s/items.jsonl", tmpl);

  char *av[32 + 2 * 64];
  int n = 0;
  av[n++] = (char *)bin;
  av[n++] = "analyze";
  av[n++] = "--gold"; av[n++] = (char *)gold;
  av[n++] = "--tables"; av[n++] = (char *)tables;
  av[n++] = "--db-dir"; av[n++] = (char *)dbdir;
  for (int p = 0; p < npreds; p++) {
    av[n++] = "--pred";
    av[n++] = preds[p];
  }
  int common_end = n;
  av[n++] = "--html"; av[n++] = html;
  av[n++] = "--per-item"; av[n++] = items;
  av[n++] = "-j";
  int jpos = n;
  av[n++] = "1";
  av[n] = NULL;

  printf("bench_analyze: %d prediction files, best of %d rounds\n", npreds, rounds);
  long rss1, rss2, rsse;
  double t1 = best(av, rounds, &rss1);
  int pairs = count_lines(items);
  av[jpos] = "2";
  double t2 = best(av, rounds, &rss2);
  /* the execution alone: eval --metrics exec on the same inputs, -j 1 */
  av[1] = "eval";
  av[common_end] = "--metrics";
  av[common_end + 1] = "exec";
  av[common_end + 2] = "-j";
  av[common_end + 3] = "1";
  av[common_end + 4] = NULL;
  double te = best(av, rounds, &rsse);
  unlink(html);
  unlink(items);
  rmdir(tmpl);
  if (t1 < 0 || t2 < 0 || te < 0 || pairs <= 0) return 1;
  printf("  analyze -j 1: %6.2f s  %7.0f pairs/s  peak RSS %ld MiB  (%d pairs, with execution, HTML and JSONL)\n", t1,
         pairs / t1, rss1 / 1024, pairs);
  printf("  analyze -j 2: %6.2f s  %7.0f pairs/s  peak RSS %ld MiB  (x%.2f over -j 1)\n", t2, pairs / t2,
         rss2 / 1024, t1 / t2);
  printf("  eval --metrics exec -j 1 (execution alone): %6.2f s  -> analysis adds %.0f%% to the execution\n", te,
         100.0 * (t1 - te) / te);
  return 0;
}
