/* cmd_stream.c -- `sqlsim stream`: JSON Lines requests on stdin, one JSON line
 * answered per request on stdout, in order, flushed per line (the protocol:
 * engine/stream.c).
 *
 *   sqlsim stream [--metrics LIST] [--tables FILE] [--db-dir DIR | --sqlite FILE]
 *                 [--mode compatible|corrected] [--semantics spider|bird] [--reward]
 *                 [-j N] [--timeout S] [--iterations N] [--now DATETIME] */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_stream(int argc, char **argv) {
  cli_engine_opts eo = {.cfg = {.mode = SQLSIM_SPIDER_COMPATIBLE}, .metrics = "bis", .jobs = 1};
  int reward = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--reward")) {
      reward = 1;
      continue;
    }
    if (i + 1 >= argc) return error("stream: %s needs a value (or is unknown)", a);
    const char *v = argv[++i];
    int taken = cli_engine_opt("stream", &eo, a, v);
    if (taken < 0) return -1;
    if (taken) continue;
    if (!strcmp(a, "--semantics")) {
      if (!strcmp(v, "bird")) eo.cfg.bird_semantics = 1;
      else if (strcmp(v, "spider")) return error("stream: --semantics must be spider or bird, not '%s'", v);
    } else {
      return error("stream: unknown option '%s'", a);
    }
  }
  if (cli_engine_metrics("stream", &eo)) return -1;
  sqlsim_error err = {0};
  sqlsim_evaluator *ev;
  if (sqlsim_evaluator_new(&eo.cfg, &ev, &err)) return error("stream: %s", err.message);
  int rc = sqlsim_serve_jsonl(ev, 0, stdout, eo.jobs, reward);
  sqlsim_evaluator_free(ev);
  if (rc) return error("stream: cannot write the answers (%s)", strerror(errno));
  return 0;
}
