/* audit_report.c -- the audit's text table (sqlsim audit, and analyze
 * --audit's summary) and its section of the analyze HTML report, read from
 * the library's per-item records (sqlsim_audit). */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static void print_what(FILE *f, const cJSON *ev) {
  for (const cJSON *e = ev ? ev->child : NULL; e; e = e->next) {
    const cJSON *kind = cJSON_GetObjectItem(e, "kind"), *what = cJSON_GetObjectItem(e, "what");
    const cJSON *w = cJSON_GetObjectItem(e, "weight");
    fprintf(f, "    - %s (%.2f): %s\n", cJSON_IsString(kind) ? kind->valuestring : "?", cJSON_IsNumber(w) ? w->valuedouble : 0,
           cJSON_IsString(what) ? what->valuestring : "");
    const cJSON *rep = cJSON_GetObjectItem(e, "representative");
    if (rep) {
      const cJSON *sys = cJSON_GetObjectItem(rep, "system"), *sql = cJSON_GetObjectItem(rep, "sql");
      fprintf(f, "      %s: %s\n", cJSON_IsString(sys) ? sys->valuestring : "?", cJSON_IsString(sql) ? sql->valuestring : "");
    }
    const cJSON *wit = cJSON_GetObjectItem(e, "witness");
    if (wit && !cJSON_IsNull(wit)) {
      const cJSON *gr = cJSON_GetObjectItem(wit, "gold_rows"), *pr = cJSON_GetObjectItem(wit, "pred_rows");
      const cJSON *rows = cJSON_GetObjectItem(wit, "rows");
      char *g = gr ? cJSON_PrintUnformatted(gr) : NULL, *p = pr ? cJSON_PrintUnformatted(pr) : NULL;
      if (cJSON_IsNumber(rows) && rows->valuedouble > 0)
        fprintf(f, "      on a generated database of %.0f rows (sqlsim diff --witness shows it):\n", rows->valuedouble);
      fprintf(f, "      gold's rows: %.200s\n      its rows:    %.200s\n", g ? g : "[]", p ? p : "[]");
      free(g);
      free(p);
    }
    const cJSON *rows = cJSON_GetObjectItem(e, "rows");
    if (cJSON_IsArray(rows)) {
      char *r = cJSON_PrintUnformatted(rows);
      fprintf(f, "      rows: %.300s\n", r ? r : "[]");
      free(r);
    }
  }
}

void audit_text(FILE *f, const sqlsim_audit *a, int top_n, double min_score) {
  fprintf(f, "audit: %d items, %d systems, answers compared %s; %d flagged (score >= %.2f) in %.1f s\n\n",
         a->nitems, a->nsystems, a->with_db ? "on the items' databases" : "on databases generated from the schema",
         a->flagged, min_score > 0 ? min_score : 0.5, a->seconds);
  int top = top_n > 0 ? top_n : 20;
  fprintf(f, "%-5s %-6s %-6s %-24s %s\n", "rank", "index", "score", "db_id", "evidence");
  for (int r = 0; r < a->nitems && r < top && a->items[r].score > 0; r++) {
    const sqlsim_audit_item *it = &a->items[r];
    char kinds[200] = "";
    for (int k = 0; k < SQLSIM_AUDIT_NKINDS; k++)
      if (it->kinds & (1u << k)) {
        size_t l = strlen(kinds);
        if (k == 0) snprintf(kinds + l, sizeof kinds - l, "%sconsensus %d/%d", l ? ", " : "", it->group, a->nsystems);
        else snprintf(kinds + l, sizeof kinds - l, "%s%s", l ? ", " : "", sqlsim_audit_kind_names[k]);
      }
    cJSON *j = cJSON_Parse(it->json);
    const cJSON *db = j ? cJSON_GetObjectItem(j, "db_id") : NULL;
    fprintf(f, "%-5d %-6d %-6.3f %-24.24s %s\n", r + 1, it->index, it->score, cJSON_IsString(db) ? db->valuestring : "",
           kinds);
    cJSON_Delete(j);
  }
  fprintf(f, "\n");
  for (int r = 0; r < a->nitems && r < top && a->items[r].score > 0; r++) {
    const sqlsim_audit_item *it = &a->items[r];
    cJSON *j = cJSON_Parse(it->json);
    if (!j) continue;
    const cJSON *q = cJSON_GetObjectItem(j, "question"), *g = cJSON_GetObjectItem(j, "gold");
    fprintf(f, "#%d  item %d  score %.3f\n", r + 1, it->index, it->score);
    if (cJSON_IsString(q)) fprintf(f, "    question: %s\n", q->valuestring);
    fprintf(f, "    gold: %s\n", cJSON_IsString(g) ? g->valuestring : "");
    print_what(f, cJSON_GetObjectItem(j, "evidence"));
    fprintf(f, "\n");
    cJSON_Delete(j);
  }
  fprintf(f, "%-40s %-7s %-7s %s\n", "system", "weight", "EX", "EX without the flagged items");
  for (int p = 0; p < a->nsystems; p++)
    fprintf(f, "%-40.40s %-7.3f %-7.3f %.3f\n", a->systems[p], a->weight[p], a->ex[p], a->ex_kept[p]);
}

/* text as HTML element content or attribute value */
static void html_text(FILE *f, const char *s) {
  for (; s && *s; s++) switch (*s) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
}

#define HTML_MAX_ITEMS 100

void audit_html(FILE *f, const run *r) {
  const sqlsim_audit *a = r->audit;
  if (!a) return;
  fputs("<section class=\"audit\"><h2>The benchmark audited: ", f);
  html_text(f, r->gold_path);
  fprintf(f, "</h2>\n<p>%d of %d gold items flagged as likely wrong or underdetermined (score &ge; 0.5), answers "
             "compared %s; each system weighed by its agreement with the gold on the other items "
             "(docs/audit.md).</p>\n<table><thead><tr><th>rank</th><th>#</th><th>database</th><th>score</th>"
             "<th>gold</th><th>evidence</th></tr></thead><tbody>\n",
          a->flagged, a->nitems, a->with_db ? "on the items' databases" : "on databases generated from the schema");
  for (int k = 0; k < a->nitems && k < HTML_MAX_ITEMS && a->items[k].flagged; k++) {
    cJSON *j = cJSON_Parse(a->items[k].json);
    if (!j) continue;
    const cJSON *db = cJSON_GetObjectItem(j, "db_id"), *g = cJSON_GetObjectItem(j, "gold");
    fprintf(f, "<tr><td>%d</td><td>%d</td><td>", k + 1, a->items[k].index);
    html_text(f, cJSON_IsString(db) ? db->valuestring : "");
    fprintf(f, "</td><td>%.3f</td><td><code>", a->items[k].score);
    html_text(f, cJSON_IsString(g) ? g->valuestring : "");
    fputs("</code></td><td><ul>", f);
    for (const cJSON *e = cJSON_GetObjectItem(j, "evidence")->child; e; e = e->next) {
      const cJSON *kind = cJSON_GetObjectItem(e, "kind"), *what = cJSON_GetObjectItem(e, "what");
      const cJSON *rep = cJSON_GetObjectItem(e, "representative"), *rows = cJSON_GetObjectItem(e, "rows");
      fputs("<li><b>", f);
      html_text(f, cJSON_IsString(kind) ? kind->valuestring : "");
      fputs("</b>: ", f);
      html_text(f, cJSON_IsString(what) ? what->valuestring : "");
      if (rep) {
        const cJSON *sys = cJSON_GetObjectItem(rep, "system"), *sql = cJSON_GetObjectItem(rep, "sql");
        fputs("<br>", f);
        html_text(f, cJSON_IsString(sys) ? sys->valuestring : "");
        fputs(": <code>", f);
        html_text(f, cJSON_IsString(sql) ? sql->valuestring : "");
        fputs("</code>", f);
      }
      const cJSON *wit = cJSON_GetObjectItem(e, "witness");
      if (wit && !cJSON_IsNull(wit)) {
        char *gr = cJSON_PrintUnformatted(cJSON_GetObjectItem(wit, "gold_rows"));
        char *pr = cJSON_PrintUnformatted(cJSON_GetObjectItem(wit, "pred_rows"));
        fputs("<br>gold's rows: <code>", f);
        html_text(f, gr ? gr : "[]");
        fputs("</code>; the group's: <code>", f);
        html_text(f, pr ? pr : "[]");
        fputs("</code>", f);
        free(gr);
        free(pr);
      }
      if (cJSON_IsArray(rows)) {
        char *t = cJSON_PrintUnformatted(rows);
        fputs("<br>rows: <code>", f);
        html_text(f, t ? t : "[]");
        fputs("</code>", f);
        free(t);
      }
      fputs("</li>", f);
    }
    fputs("</ul></td></tr>\n", f);
    cJSON_Delete(j);
  }
  fputs("</tbody></table>\n<table><thead><tr><th>system</th><th>weight</th><th>EX</th><th>EX without the flagged "
        "items</th></tr></thead><tbody>\n", f);
  for (int p = 0; p < a->nsystems; p++) {
    fputs("<tr><td>", f);
    html_text(f, a->systems[p]);
    fprintf(f, "</td><td>%.3f</td><td>%.3f</td><td>%.3f</td></tr>\n", a->weight[p], a->ex[p], a->ex_kept[p]);
  }
  fputs("</tbody></table></section>\n", f);
}
