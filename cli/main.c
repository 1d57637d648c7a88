/* main.c -- the sqlsim command: a table of subcommands, as in git.c. */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct cmd {
  const char *name;
  int (*fn)(int argc, char **argv);
  const char *usage;
} commands[] = {
    {"analyze", cmd_analyze,
     "sqlsim analyze --gold FILE [--tables FILE] [--db-dir DIR | --sqlite FILE] --pred FILE [--pred ...]\n"
     "              [--gold FILE ... --pred ...] [-j N] [--no-exec] [--per-item FILE] [--csv FILE]\n"
     "              [--html FILE] [--format text|json]"},
    {"eval", cmd_eval,
     "sqlsim eval --metrics match,bis,exec,ves,rves,result --gold FILE --pred FILE [--pred FILE...]\n"
     "              [--tables FILE] [--db-dir DIR | --sqlite FILE] [--mode compatible|corrected]\n"
     "              [-j N] [--iterations N] [--timeout S] [--now DATETIME] [--alternate]\n"
     "              [--per-item FILE] [--format text|json]"},
    {"stream", cmd_stream,
     "sqlsim stream [--metrics LIST] [--tables FILE] [--db-dir DIR | --sqlite FILE] [--reward]\n"
     "              [--mode compatible|corrected] [--semantics spider|bird] [-j N] [--timeout S] [--now DATETIME]\n"
     "              (JSON Lines on stdin: {\"gold\", \"pred\", \"db_id\", \"id\"}; one answer line per request on stdout)"},
    {"rewrite", cmd_rewrite,
     "sqlsim rewrite --sqlite DB [--rules LIST] [--iterations N] [--timeout S] [--format text|json] SQL|-\n"
     "              sqlsim rewrite (--db-dir DIR | --sqlite DB) --pred FILE [--gold FILE] [--rules LIST] [--format text|json]\n"
     "              (with --gold: VES and R-VES of the predictions before and after the offered rewrites)\n"
     "              rules: count_star, date_range, distinct_group, in_join, in_exists, decorrelate, max_top1,\n"
     "              join_in, in_plus, subquery_order (the default), and the BIRD paper's forward forms top1_max,\n"
     "              count_pk when listed"},
    {"diff", cmd_diff,
     "sqlsim diff [--tables FILE --db ID | --sqlite FILE] [--format text|json] GOLD PRED"},
    {"parse", cmd_parse,
     "sqlsim parse [--tables FILE [--db ID] | --sqlite FILE] [--format sql|tree|json] SQL|-"},
};

int error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return -1;
}

static void usage(FILE *f) {
  fputs("usage:\n", f);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %s\n", commands[i].usage);
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) {
      if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
        printf("usage: %s\n", commands[i].usage);
        return 0;
      }
      int rc = commands[i].fn(argc - 1, argv + 1);
      sqlsim_thread_cleanup();
      return rc < 0 ? 1 : rc;
    }
  error("unknown command '%s'", argv[1]);
  usage(stderr);
  return 2;
}
