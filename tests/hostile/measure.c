/* measure.c -- runs a command and prints "wall_seconds max_rss_kb exit_code
 * cpu_seconds" as the last line on stderr: the hostile-input suite's stopwatch
 * (no /usr/bin/time needed). The CPU time (user + system, all threads) is what
 * sqlsim's time limits count, so it is the figure to check against them; the
 * wall time grows with the machine's load. With -t S the command is killed after S seconds
 * (exit code 137), so a regression that hangs cannot hang the suite.
 *
 *   measure [-t SECONDS] CMD [ARG...] */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t child;
static void on_alarm(int sig) {
  (void)sig;
  if (child > 0) kill(child, SIGKILL);
}

int main(int argc, char **argv) {
  int first = 1;
  unsigned limit = 0;
  if (argc > 2 && !strcmp(argv[1], "-t")) {
    limit = (unsigned)atoi(argv[2]);
    first = 3;
  }
  if (argc <= first) {
    fputs("usage: measure [-t SECONDS] CMD [ARG...]\n", stderr);
    return 2;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  child = fork();
  if (child < 0) return 2;
  if (child == 0) {
    execvp(argv[first], argv + first);
    _exit(127);
  }
  signal(SIGALRM, on_alarm);
  if (limit) alarm(limit);
  int status = 0;
  struct rusage ru;
  while (wait4(child, &status, 0, &ru) < 0)
    ;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  fprintf(stderr, "%.3f %ld %d %.3f\n", wall, ru.ru_maxrss, code, cpu);
  return 0;
}
