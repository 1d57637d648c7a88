/* cmd_diff.c -- `sqlsim diff`: the edit script between a gold and a predicted query.
 *
 *   sqlsim diff [--tables FILE --db ID | --sqlite FILE] [--witness [--bird | --keep-distinct]]
 *               [--format text|json] GOLD PRED
 *
 * Prints what was kept, moved, changed, added and removed (with the SQL of
 * each), the BIS similarity with its counts, then the calibrated score with
 * the weight of each edit that counts. With --witness, the two queries are
 * also run on databases generated from the schema: the synth and strict
 * verdicts, the gold's distilled suite (its coverage, the neighbors it does
 * not tell apart) and, when they differ, the witness: the smallest database
 * found on which they answer differently, with both answers. */
#include "cli.h"
#include "engine/fields.h"

#include <stdlib.h>
#include <string.h>

static const char *clause_name(int c) {
  static const char *names[] = {"WITH", "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY",
                                "LIMIT", "OFFSET", "left of set op", "right of set op", "WINDOW", "VALUES"};
  return c >= 0 && c < 13 ? names[c] : "query";
}

static const char *action_name(int a) {
  static const char *n[] = {"kept", "moved", "changed", "added", "removed"};
  return n[a];
}

static char *node_sql(const sqlsim_node *n, int clause) {
  if (!n) {
    char *s = malloc(64);
    snprintf(s, 64, "[%s clause]", clause_name(clause));
    return s;
  }
  return sqlsim_print_sql(n, SQLSIM_PRINT_QUALIFY);
}

/* The edits worth showing: not keeps, not the inner nodes of added/removed subtrees. */
static int shown(const sqlsim_edit *e) {
  if (e->action == SQLSIM_EDIT_KEEP) return 0;
  if ((e->action == SQLSIM_EDIT_INSERT || e->action == SQLSIM_EDIT_DELETE) && !e->root) return 0;
  return 1;
}

static void print_text(const sqlsim_diff *plain, const sqlsim_diff *cal) {
  printf("BIS similarity %.3f  (%d edits: %d kept, %d moved, %d changed, %d added, %d removed%s)\n",
         plain->bis, plain->nedits, plain->nkeep, plain->nmove, plain->nupdate, plain->ninsert,
         plain->ndelete, plain->table_changed ? "; a table changed, so 0" : "");
  for (int k = 0; k < plain->nedits; k++) {
    const sqlsim_edit *e = &plain->edits[k];
    if (!shown(e)) continue;
    char *g = e->gold || e->action != SQLSIM_EDIT_INSERT ? node_sql(e->gold, e->clause) : NULL;
    char *p = e->pred || e->action != SQLSIM_EDIT_DELETE ? node_sql(e->pred, e->clause) : NULL;
    printf("  %-8s %-10s ", action_name(e->action), clause_name(e->clause));
    if (e->action == SQLSIM_EDIT_UPDATE) printf("%s  ->  %s", g, p);
    else if (e->action == SQLSIM_EDIT_INSERT) printf("%s", p);
    else if (e->action == SQLSIM_EDIT_DELETE) printf("%s", g);
    else printf("%s", g);
    printf("\n");
    free(g);
    free(p);
  }
  if (!cal) return;
  printf("calibrated score %.3f  (penalty %.2f; equivalent forms made one first)\n", cal->score, cal->penalty);
  for (int k = 0; k < cal->nedits; k++) {
    const sqlsim_edit *e = &cal->edits[k];
    if (e->weight <= 0) continue;
    char *g = e->gold ? node_sql(e->gold, e->clause) : NULL;
    char *p = e->pred ? node_sql(e->pred, e->clause) : NULL;
    printf("  %4.2f %-22s %-8s %s%s%s\n", e->weight, e->why ? e->why : "", action_name(e->action),
           g ? g : "", g && p ? "  ->  " : "", p ? p : "");
    free(g);
    free(p);
  }
}

static void json_edits(strbuf *sb, const sqlsim_diff *d, int weights) {
  sb_puts(sb, "[");
  int first = 1;
  for (int k = 0; k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    if (weights ? e->weight <= 0 : !shown(e)) continue;
    sb_puts(sb, first ? "{" : ",{");
    first = 0;
    sb_printf(sb, "\"action\":\"%s\",\"clause\":", action_name(e->action));
    sb_json_str(sb, clause_name(e->clause));
    if (e->gold || e->action == SQLSIM_EDIT_DELETE || e->action == SQLSIM_EDIT_UPDATE ||
        e->action == SQLSIM_EDIT_MOVE) {
      char *g = node_sql(e->gold, e->clause);
      sb_puts(sb, ",\"gold\":");
      sb_json_str(sb, g);
      free(g);
    }
    if (e->pred || e->action == SQLSIM_EDIT_INSERT || e->action == SQLSIM_EDIT_UPDATE) {
      char *p = node_sql(e->pred, e->clause);
      sb_puts(sb, ",\"pred\":");
      sb_json_str(sb, p);
      free(p);
    }
    if (weights) {
      sb_printf(sb, ",\"weight\":%g,\"category\":", e->weight);
      sb_json_str(sb, e->why ? e->why : "");
    }
    sb_puts(sb, "}");
  }
  sb_puts(sb, "]");
}

static const cli_opt options[] = {
    CLI_SCHEMA_OPTS,
    {"witness", 0, NULL, "also run both on databases generated from the schema: the synth and strict\n"
                         "verdicts, the gold's distilled suite, and the smallest database on which\n"
                         "they answer differently (SQL text sqlite3 loads) with both answers"},
    {"bird", 0, NULL, "--witness: compare answers as BIRD's evaluator does (sets of rows)"},
    {"keep-distinct", 0, NULL, "--witness: keep DISTINCT (Spider's comparison, the default, removes it)"},
    {"assume-not-null", 0, NULL, "--witness: judge as if every column were NOT NULL (no generated database\n"
                                 "holds a NULL)"},
    {"format", 0, "FORMAT", "text (default) or json"},
    {NULL, 0, NULL, NULL},
};

static int cmd_diff(int argc, char **argv);

const cli_command cmd_diff_spec = {
    .name = "diff",
    .fn = cmd_diff,
    .summary = "the tree diff of two queries: BIS similarity, the calibrated score and every edit",
    .synopsis = "[--tables FILE --db ID | --sqlite FILE] [--witness [--bird | --keep-distinct]]\n"
                "[--format text|json] GOLD PRED",
    .opts = options,
    .details = NULL,
};

/* ---------------------------------------------------------------- --witness */

/* The pair judged on generated databases, and the gold's suite. */
typedef struct judged {
  sqlsim_synth s;
  sqlsim_suite_report suite;
} judged;

static int judge(const sqlsim_schema *schema, const char *gold, const char *pred, int bird, int keep_distinct,
                 int not_null, judged *j) {
  sqlsim_synth_opts o = {.strict = 1, .witness = 1, .bird = bird, .keep_distinct = keep_distinct,
                         .assume_not_null = not_null};
  sqlsim_synth_runner *x = sqlsim_synth_runner_new(&o);
  sqlsim_error err = {0};
  int rc = x ? 0 : error("diff: out of memory");
  if (!rc && sqlsim_synth_pair(x, schema, gold, pred, &j->s, &err)) rc = error("diff: --witness: %s", err.message);
  if (!rc && sqlsim_synth_suite(x, schema, gold, &j->suite, &err)) rc = error("diff: --witness: %s", err.message);
  sqlsim_synth_runner_free(x);
  return rc;
}

static const char *verdict(int v) { return v > 0 ? "pass" : v == 0 ? "fail" : "no verdict"; }

/* A JSON array of rows, one per line, indented. */
static void print_rows(const char *json_rows) {
  cJSON *a = json_rows ? cJSON_Parse(json_rows) : NULL;
  for (const cJSON *r = a ? a->child : NULL; r; r = r->next) {
    char *t = cJSON_PrintUnformatted(r);
    printf("    %s\n", t ? t : "?");
    free(t);
  }
  cJSON_Delete(a);
}

static void print_answer(const char *who, long count, const char *rows) {
  printf("  %s returns %ld row%s%s\n", who, count, count == 1 ? "" : "s", count > 20 ? " (the first 20)" : "");
  print_rows(rows);
}

static void print_judged(const judged *j) {
  const sqlsim_synth *s = &j->s;
  printf("synth %s  (%d of %d databases agree where the gold returned rows%s%s)\n", verdict(s->pass), s->agree,
         s->informative, s->why[0] ? "; " : "", s->why);
  printf("strict %s  (%d databases judged%s%s)\n", verdict(s->strict), s->strict_databases,
         s->strict_why[0] ? "; " : "", s->strict_why);
  if (s->strict == 0 && s->needs_null == 1)
    printf("  the difference needs a NULL: no database without one that tells them apart was found (on data with "
           "no NULL there, --assume-not-null judges them)\n");
  else if (s->strict == 0 && s->needs_null == 0)
    printf("  the difference needs no NULL: the witness holds none\n");
  const sqlsim_suite_report *u = &j->suite;
  printf("the gold's suite: %d databases; they tell apart %d of its %d neighbors", u->databases, u->told, u->neighbors);
  if (u->neighbors) printf(" (coverage %.3f)", (double)u->told / u->neighbors);
  printf("; %d found equivalent\n", u->equivalent);
  if (u->nsurvivors) {
    printf("  neighbors no database tells apart (equivalent to the gold, or a gap in the suite):\n");
    for (int i = 0; i < u->nsurvivors; i++) printf("    %s\n", u->survivors[i]);
  }
  const sqlsim_witness *w = s->witness;
  if (!w) return;
  printf("witness (%s): a database of %ld row%s on which they answer differently\n", w->verdict, w->rows,
         w->rows == 1 ? "" : "s");
  for (const char *line = w->database; line && *line;) {
    const char *end = strchr(line, '\n');
    int len = end ? (int)(end - line) : (int)strlen(line);
    printf("  %.*s\n", len, line);
    line += len + (end != NULL);
  }
  print_answer("the gold", w->gold_count, w->gold_rows);
  if (w->pred_count < 0) printf("  the prediction fails: %s\n", w->pred_error ? w->pred_error : "");
  else print_answer("the prediction", w->pred_count, w->pred_rows);
}

static void json_judged(strbuf *sb, const judged *j) {
  const sqlsim_synth *s = &j->s;
  sb_puts(sb, ",\"synth\":{\"pass\":");
  sb_puts(sb, s->pass < 0 ? "null" : s->pass ? "true" : "false");
  sb_printf(sb, ",\"agree\":%d,\"informative\":%d,\"why\":", s->agree, s->informative);
  if (s->why[0]) sb_json_str(sb, s->why);
  else sb_puts(sb, "null");
  sb_puts(sb, "},\"strict\":{\"pass\":");
  sb_puts(sb, s->strict < 0 ? "null" : s->strict ? "true" : "false");
  sb_puts(sb, ",\"needs_null\":");
  sb_puts(sb, s->strict == 0 && s->needs_null >= 0 ? (s->needs_null ? "true" : "false") : "null");
  sb_printf(sb, ",\"databases\":%d,\"why\":", s->strict_databases);
  if (s->strict_why[0]) sb_json_str(sb, s->strict_why);
  else sb_puts(sb, "null");
  const sqlsim_suite_report *u = &j->suite;
  sb_printf(sb, "},\"suite\":{\"databases\":%d,\"neighbors\":%d,\"told\":%d,\"equivalent\":%d,\"coverage\":",
            u->databases, u->neighbors, u->told, u->equivalent);
  if (u->neighbors) sb_json_num(sb, (double)u->told / u->neighbors);
  else sb_puts(sb, "null");
  sb_puts(sb, ",\"survivors\":[");
  for (int i = 0; i < u->nsurvivors; i++) {
    if (i) sb_putc(sb, ',');
    sb_json_str(sb, u->survivors[i]);
  }
  sb_puts(sb, "]},\"witness\":");
  engine_witness_json(sb, s->witness);
}

static int cmd_diff(int argc, char **argv) {
  cli_schema_opts so = {0};
  int json = 0, k, witness = 0, bird = 0, keep_distinct = 0, not_null = 0;
  const char *sql[2] = {NULL, NULL}, *v;
  int nsql = 0;
  cli_parser ps = {.cmd = &cmd_diff_spec, .argc = argc, .argv = argv};
  while ((k = cli_next(&ps, &v)) != CLI_END) {
    int bad = 0;
    if (k == CLI_HELP) return cli_parser_free(&ps), 0;
    if (k == CLI_ERROR) bad = 1;
    else if (k == CLI_ARG) {
      if (nsql == 2) bad = (error("diff: two queries, GOLD then PRED; got a third: '%.40s'", v), 1);
      else sql[nsql++] = v;
    } else if (!strcmp(options[k].name, "witness")) {
      witness = 1;
    } else if (!strcmp(options[k].name, "bird")) {
      bird = 1;
    } else if (!strcmp(options[k].name, "keep-distinct")) {
      keep_distinct = 1;
    } else if (!strcmp(options[k].name, "assume-not-null")) {
      not_null = 1;
    } else if (!cli_schema_opt(&so, options[k].name, v)) { /* --format */
      if (!strcmp(v, "json")) json = 1;
      else if (strcmp(v, "text")) bad = (error("diff: --format must be text or json, not '%s'", v), 1);
    }
    if (bad) return cli_parser_free(&ps), CLI_EUSAGE;
  }
  cli_parser_free(&ps);
  if (nsql != 2) return error("diff: give two queries, GOLD then PRED (see sqlsim help diff)"), CLI_EUSAGE;
  if ((bird || keep_distinct || not_null) && !witness)
    return error("diff: --%s goes with --witness", bird ? "bird" : keep_distinct ? "keep-distinct" : "assume-not-null"),
           CLI_EUSAGE;
  if (bird && keep_distinct) return error("diff: --bird and --keep-distinct: choose one"), CLI_EUSAGE;
  if (cli_schema_load(&so)) return -1;
  const sqlsim_schema *schema = cli_schema_for(&so, NULL);
  if (witness && !schema) {
    sqlsim_catalog_free(so.catalog);
    return error("diff: --witness needs a schema: --tables FILE (with --db ID) or --sqlite FILE"), CLI_EUSAGE;
  }
  int rc = 0;
  judged j = {0};
  sqlsim_query *g = NULL, *p = NULL;
  sqlsim_diff *plain = NULL, *cal = NULL;
  sqlsim_error err = {0};
  if (sqlsim_parse(sql[0], strlen(sql[0]), schema, 0, &g, &err)) {
    rc = error("gold, at offset %d: %s", err.offset, err.message);
    goto out;
  }
  /* the generated databases run the prediction as written, parsed or not */
  if (witness && (rc = judge(schema, sql[0], sql[1], bird, keep_distinct, not_null, &j))) goto out;
  if (sqlsim_parse(sql[1], strlen(sql[1]), schema, 0, &p, &err)) {
    /* an unparseable prediction scores 0, with the reason */
    if (json) {
      strbuf sb = {0};
      sb_puts(&sb, "{\"bis\":0,\"score\":0,\"error\":{\"message\":");
      sb_json_str(&sb, err.message);
      sb_printf(&sb, ",\"offset\":%d,\"side\":\"pred\"}", err.offset);
      if (witness) json_judged(&sb, &j);
      sb_puts(&sb, "}\n");
      fputs(sb.buf, stdout);
      sb_free(&sb);
    } else {
      printf("BIS similarity 0.000 and calibrated score 0.000: the prediction does not parse\n"
             "  at offset %d: %s\n", err.offset, err.message);
      if (witness) print_judged(&j);
    }
    goto out;
  }
  if (sqlsim_diff_pair(g, p, 0, &plain, &cal, &err)) {
    rc = error("%s", err.message);
    goto out;
  }
  if (json) {
    strbuf sb = {0};
    sb_printf(&sb, "{\"bis\":%.6g,\"score\":", plain->bis);
    if (cal) sb_printf(&sb, "%.6g", cal->score);
    else sb_puts(&sb, "null");
    sb_printf(&sb, ",\"counts\":{\"keep\":%d,\"move\":%d,\"update\":%d,\"insert\":%d,\"delete\":%d},"
                   "\"table_changed\":%s,\"edits\":",
              plain->nkeep, plain->nmove, plain->nupdate, plain->ninsert, plain->ndelete,
              plain->table_changed ? "true" : "false");
    json_edits(&sb, plain, 0);
    if (cal) {
      sb_printf(&sb, ",\"penalty\":%.6g,\"weighted\":", cal->penalty);
      json_edits(&sb, cal, 1);
      sb_puts(&sb, ",\"error\":null");
    } else { /* the normalized copies grew past the diff's bound: no score, and why */
      sb_puts(&sb, ",\"error\":{\"message\":");
      sb_json_str(&sb, err.message);
      sb_puts(&sb, ",\"offset\":null,\"side\":\"pred\"}");
    }
    if (witness) json_judged(&sb, &j);
    sb_puts(&sb, "}\n");
    fputs(sb.buf, stdout);
    sb_free(&sb);
  } else {
    print_text(plain, cal);
    if (!cal) printf("%s\n", err.message);
    if (witness) print_judged(&j);
  }
out:
  sqlsim_witness_free(j.s.witness);
  sqlsim_suite_report_free(&j.suite);
  sqlsim_diff_free(plain);
  sqlsim_diff_free(cal);
  sqlsim_query_free(g);
  sqlsim_query_free(p);
  sqlsim_catalog_free(so.catalog);
  return rc;
}
