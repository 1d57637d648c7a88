/* opts.c -- reading a subcommand's options from its table (opts.h). */
#include "opts.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define LONG_BASE 256 /* getopt_long's value for option k is LONG_BASE + k */

static int nopts(const cli_command *c) {
  int n = 0;
  while (c->opts && c->opts[n].name) n++;
  return n;
}

static void start(cli_parser *p) {
  int n = nopts(p->cmd);
  struct option *lo = calloc((size_t)n + 2, sizeof *lo);
  char *s = p->shorts;
  /* "-": arguments come back in order as option 1; ":": a missing value is ':' */
  *s++ = '-';
  *s++ = ':';
  *s++ = 'h';
  for (int k = 0; k < n; k++) {
    const cli_opt *o = &p->cmd->opts[k];
    lo[k] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, LONG_BASE + k};
    if (o->short_name && s < p->shorts + sizeof p->shorts - 3) {
      *s++ = o->short_name;
      if (o->arg) *s++ = ':';
    }
  }
  *s = '\0';
  lo[n] = (struct option){"help", no_argument, NULL, 'h'};
  p->longopts = lo;
  optind = 0; /* glibc: start over, whatever was parsed before */
  opterr = 0;
  p->started = 1;
}

int cli_next(cli_parser *p, const char **val) {
  if (!p->started) start(p);
  *val = NULL;
  int idx = -1;
  int c = getopt_long(p->argc, p->argv, p->shorts, p->longopts, &idx);
  const char *cmd = p->cmd->name;
  const char *seen = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
  if (c == -1) {
    if (optind < p->argc) { /* after "--": the rest are arguments */
      *val = p->argv[optind++];
      return CLI_ARG;
    }
    return CLI_END;
  }
  if (c == 1) {
    *val = optarg;
    return CLI_ARG;
  }
  if (c == 'h') {
    cli_print_help(stdout, p->cmd);
    return CLI_HELP;
  }
  if (c == ':') {
    error("%s: %s needs a value (see sqlsim help %s)", cmd, optopt ? (char[]){'-', (char)optopt, 0} : seen, cmd);
    return CLI_ERROR;
  }
  if (c == '?') {
    if (optopt && optopt < LONG_BASE)
      error("%s: unknown option '-%c' (see sqlsim help %s)", cmd, optopt, cmd);
    else if (optopt >= LONG_BASE) /* a flag given a value: --flag=x */
      error("%s: %s takes no value (see sqlsim help %s)", cmd, seen, cmd);
    else
      error("%s: unknown or ambiguous option '%s' (see sqlsim help %s)", cmd, seen, cmd);
    return CLI_ERROR;
  }
  int k = c - LONG_BASE;
  if (k < 0 || k >= nopts(p->cmd)) { /* a short option: find its entry */
    for (k = 0; k < nopts(p->cmd) && p->cmd->opts[k].short_name != c; k++) {
    }
  }
  *val = optarg;
  return k;
}

void cli_parser_free(cli_parser *p) {
  free(p->longopts);
  p->longopts = NULL;
}

/* Writes text indented by ind on every line after the first. */
static void indented(FILE *f, const char *text, int ind) {
  for (const char *t = text; *t; t++) {
    fputc(*t, f);
    if (*t == '\n' && t[1]) fprintf(f, "%*s", ind, "");
  }
}

void cli_print_help(FILE *f, const cli_command *c) {
  fprintf(f, "usage: sqlsim %s ", c->name);
  indented(f, c->synopsis, 7);
  fprintf(f, "\n\n");
  indented(f, c->summary, 0);
  fprintf(f, "\n\noptions:\n");
  for (int k = 0; k < nopts(c); k++) {
    const cli_opt *o = &c->opts[k];
    char head[80];
    if (o->short_name) snprintf(head, sizeof head, "-%c, --%s%s%s", o->short_name, o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    else snprintf(head, sizeof head, "    --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    if (strlen(head) > 24) fprintf(f, "  %s\n%28s", head, "");
    else fprintf(f, "  %-24s  ", head);
    indented(f, o->help, 28);
    fputc('\n', f);
  }
  fprintf(f, "  %-24s  %s\n", "-h, --help", "this help");
  for (int k = 0; k < nopts(c); k++)
    if (!strcmp(c->opts[k].name, "metrics")) fprintf(f, "\nmetrics (the library's table):\n%s", sqlsim_metrics_help());
  for (int k = 0; k < nopts(c); k++)
    if (!strcmp(c->opts[k].name, "engine") || !strcmp(c->opts[k].name, "into"))
      fprintf(f, "\nengines (the library's table; SQLite: a file path):\n%s", sqlsim_engines_help());
  if (c->details) {
    fputc('\n', f);
    indented(f, c->details, 0);
    fputc('\n', f);
  }
}
