/* cmd_stream.c -- `sqlsim stream`: JSON Lines requests on stdin, one JSON line
 * answered per request on stdout, in order, flushed per line (the protocol:
 * engine/stream.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_opt options[] = {
    {"metrics", 0, "LIST", CLI_METRICS_HELP "; default bis"},
    CLI_ENGINE_OPTS,
    {"semantics", 0, "NAME", "which EX decides \"correct\" for categories and the reward: spider (default)\n"
                             "or bird"},
    {"reward", 0, NULL, "add a \"reward\" to each answer: 1 for a correct execution, partial credit by\n"
                        "the calibrated score otherwise, 0 when the prediction does not parse or fails"},
    {NULL, 0, NULL, NULL},
};

static int cmd_stream(int argc, char **argv);

const cli_command cmd_stream_spec = {
    .name = "stream",
    .fn = cmd_stream,
    .summary = "a scoring service on stdin/stdout: one JSON request per line, one answer per line",
    .synopsis = "[--metrics LIST] [--tables FILE] [--db-dir DIR | --sqlite FILE] [--reward] [options]",
    .opts = options,
    .details = "requests: {\"gold\": SQL, \"pred\": SQL, \"db_id\": ID, \"id\": anything}, one per line;\n"
               "answers come in request order, flushed per line (docs/per-item.md has the fields).\n",
};

static int cmd_stream(int argc, char **argv) {
  cli_engine_opts eo = {.cfg = {.mode = SQLSIM_SPIDER_COMPATIBLE}, .metrics = "bis", .jobs = 1};
  int reward = 0, k;
  const char *v;
  cli_parser ps = {.cmd = &cmd_stream_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    int bad = 0;
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) bad = 1;
    else if (k == CLI_ARG) bad = (error("stream: unexpected argument '%s': requests come on stdin", v), 1);
    else {
      const char *name = options[k].name;
      int taken = cli_engine_opt("stream", &eo, name, v);
      if (taken < 0) bad = 1;
      else if (!taken && !strcmp(name, "reward")) reward = 1;
      else if (!taken) { /* --semantics */
        if (!strcmp(v, "bird")) eo.cfg.bird_semantics = 1;
        else if (strcmp(v, "spider")) bad = (error("stream: --semantics must be spider or bird, not '%s'", v), 1);
      }
    }
    if (bad) return cli_parser_free(&ps), CLI_EUSAGE;
  }
  cli_parser_free(&ps);
  if (cli_engine_metrics("stream", &eo)) return CLI_EUSAGE;
  sqlsim_error err = {0};
  sqlsim_evaluator *ev;
  int made = sqlsim_evaluator_new(&eo.cfg, &ev, &err);
  if (made) return error("stream: %s", err.message), made == SQLSIM_ECONFIG ? CLI_EUSAGE : -1;
  int rc = sqlsim_serve_jsonl(ev, 0, stdout, eo.jobs, reward);
  sqlsim_evaluator_free(ev);
  if (rc) return error("stream: cannot write the answers (%s)", strerror(errno));
  return 0;
}
