/* spider2_report.c -- a Spider 2.0 run's summary as text (sqlsim spider2):
 * by engine, the score over the predicted tasks and over the benchmark's. */
#include "report.h"

static double share(int a, int b) { return b ? (double)a / b : 0; }

void spider2_text(FILE *f, const sqlsim_spider2 *s) {
  fprintf(f, "Spider 2.0 (%s's evaluate.py), %s mode: %zu predicted of the benchmark's %d tasks\n\n",
          s->flavor == SQLSIM_SPIDER2_SNOW ? "snow" : "lite", s->mode == SQLSIM_SPIDER2_SQL ? "SQL" : "result",
          s->done, s->tasks);
  fprintf(f, "%-10s %7s %10s %8s %9s %12s%s\n", "engine", "tasks", "predicted", "correct", "score", "score (all)",
          s->rows_asked ? "    rows" : "");
  for (int k = 0; k < s->ngroups; k++) {
    const sqlsim_spider2_group *g = &s->groups[k];
    if (!g->tasks && !g->submitted) continue;
    fprintf(f, "%-10s %7d %10d %8d %9.4f %12.4f", g->name, g->tasks, g->submitted, g->correct,
            share(g->correct, g->submitted), share(g->correct, g->tasks));
    if (s->rows_asked) fprintf(f, " %7d", g->rows_correct);
    fputc('\n', f);
  }
  fprintf(f, "%-10s %7d %10zu %8d %9.4f %12.4f", "all", s->tasks, s->done, s->correct, share(s->correct, (int)s->done),
          share(s->correct, s->tasks));
  if (s->rows_asked) fprintf(f, " %7d", s->rows_correct);
  fputc('\n', f);
  if (s->rows_asked)
    fprintf(f, "\nrow by row (--rows): %d of the %d passing tasks (%.1f%%) do not hold the gold's values in the same "
               "rows\n",
            s->correct - s->rows_correct, s->correct, 100 * share(s->correct - s->rows_correct, s->correct));
  if (s->ignored) fprintf(f, "\n%d prediction(s) name no task of the gold: not scored\n", s->ignored);
}
