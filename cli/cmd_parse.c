/* cmd_parse.c -- `sqlsim parse`: one query, or a stream of them, to the tree.
 *
 * With SQL on the command line it prints the canonical SQL, the tree, or its
 * JSON. With "-" it reads lines "SQL" or "SQL<TAB>db_id" from stdin and writes
 * one JSON object per line; a line that fails is reported in its object and the
 * run goes on. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

enum { FMT_SQL, FMT_TREE, FMT_JSON };

static void print_result(strbuf *sb, int index, const sqlsim_query *q, const sqlsim_error *err,
                         int fmt) {
  sb_printf(sb, "{\"index\":%d,\"ok\":%s", index, q ? "true" : "false");
  if (q) {
    char *sql = sqlsim_print_sql(q->root, 0);
    sb_puts(sb, ",\"sql\":");
    sb_json_str(sb, sql);
    free(sql);
    sb_printf(sb, ",\"unresolved\":%d,\"dialect\":%d", q->nunresolved, q->ndialect);
    if (fmt == FMT_JSON) {
      char *tree = sqlsim_print_json(q->root);
      sb_printf(sb, ",\"tree\":%s", tree);
      free(tree);
    }
    sb_puts(sb, ",\"error\":null}");
  } else {
    sb_puts(sb, ",\"sql\":null,\"error\":{\"message\":");
    sb_json_str(sb, err->message);
    sb_printf(sb, ",\"offset\":%d}}", err->offset);
  }
  sb_putc(sb, '\n');
}

static int parse_stream(cli_schema_opts *so, int fmt, unsigned popts) {
  cli_lines in;
  if (cli_read_lines("-", &in)) return -1;
  strbuf sb = {0};
  int failed = 0;
  for (int i = 0; i < in.n; i++) {
    char *sql = in.lines[i].text;
    char *tab = strrchr(sql, '\t');
    const char *db_id = NULL;
    if (tab) {
      *tab = '\0';
      db_id = tab + 1;
    }
    const sqlsim_schema *schema = cli_schema_for(so, db_id);
    sqlsim_query *q = NULL;
    sqlsim_error err = {0};
    if (so->catalog && db_id && *db_id && !schema && !so->sqlite) {
      sqlsim_error_set(&err, SQLSIM_ENOTFOUND, -1, "line %d: unknown db_id '%s'", i + 1, db_id);
    } else if (sqlsim_parse(sql, strlen(sql), schema, popts, &q, &err)) {
      q = NULL;
    }
    failed += q == NULL;
    print_result(&sb, i, q, &err, fmt);
    sqlsim_query_free(q);
    if (sb.len > 1 << 16) {
      fwrite(sb.buf, 1, sb.len, stdout);
      sb.len = 0;
    }
  }
  fwrite(sb.buf ? sb.buf : "", 1, sb.len, stdout);
  sb_free(&sb);
  fprintf(stderr, "%d parsed, %d failed\n", in.n - failed, failed);
  cli_lines_free(&in);
  return 0;
}

static const cli_opt options[] = {
    CLI_SCHEMA_OPTS,
    {"format", 0, "FORMAT", "sql (the canonical SQL; default), tree, or json"},
    {"dialect", 0, "D", "the SQL's dialect: " CLI_DIALECTS " (default: sqlite)"},
    {NULL, 0, NULL, NULL},
};

static int cmd_parse(int argc, char **argv);

const cli_command cmd_parse_spec = {
    .name = "parse",
    .fn = cmd_parse,
    .summary = "one query to sqlsim's normalized tree (canonical SQL, tree or JSON), or a stream of\n"
               "them from stdin",
    .synopsis = "[--tables FILE [--db ID] | --sqlite FILE] [--format sql|tree|json] [--dialect D] SQL|-",
    .opts = options,
    .details = "With -, lines \"SQL\" or \"SQL<TAB>db_id\" are read from stdin and one JSON object is written\n"
               "per line; a line that fails says why in its object and the rest go on.\n",
};

static int cmd_parse(int argc, char **argv) {
  cli_schema_opts so = {0};
  int fmt = FMT_SQL, k, dialect = SQLSIM_DIALECT_SQLITE;
  const char *sql = NULL, *v;
  cli_parser ps = {.cmd = &cmd_parse_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    int bad = 0;
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) bad = 1;
    else if (k == CLI_ARG) {
      if (sql) bad = (error("parse: one SQL argument (quote it), or - for stdin; got a second: '%.40s'", v), 1);
      sql = v;
    } else if (!strcmp(options[k].name, "dialect")) {
      sqlsim_error e = {0};
      if (sqlsim_dialect_parse(v, &dialect, &e)) bad = (error("parse: --dialect: %s", e.message), 1);
    } else if (!cli_schema_opt(&so, options[k].name, v)) { /* --format */
      if (!strcmp(v, "sql")) fmt = FMT_SQL;
      else if (!strcmp(v, "tree")) fmt = FMT_TREE;
      else if (!strcmp(v, "json")) fmt = FMT_JSON;
      else bad = (error("parse: --format must be sql, tree or json, not '%s'", v), 1);
    }
    if (bad) return cli_parser_free(&ps), CLI_EUSAGE;
  }
  cli_parser_free(&ps);
  if (!sql) return error("parse: no SQL given (use - to read lines from stdin)"), CLI_EUSAGE;
  if (cli_schema_load(&so)) return -1;
  int rc = 0;
  unsigned popts = sqlsim_dialect_parse_options(dialect);
  if (!strcmp(sql, "-")) {
    rc = parse_stream(&so, fmt, popts);
  } else {
    sqlsim_query *q;
    sqlsim_error err = {0};
    if (sqlsim_parse(sql, strlen(sql), cli_schema_for(&so, NULL), popts, &q, &err)) {
      rc = error("at offset %d: %s", err.offset, err.message);
    } else {
      char *out = fmt == FMT_SQL    ? sqlsim_print_sql(q->root, 0)
                  : fmt == FMT_TREE ? sqlsim_print_tree(q->root)
                                    : sqlsim_print_json(q->root);
      fputs(out, stdout);
      if (fmt != FMT_TREE) fputc('\n', stdout);
      free(out);
      sqlsim_query_free(q);
    }
  }
  sqlsim_catalog_free(so.catalog);
  return rc;
}
