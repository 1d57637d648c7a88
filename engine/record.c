/* record.c -- what one pair scored: a record as JSON, the per-item fields
 * every face writes (`sqlsim eval --per-item`, `analyze --per-item`,
 * `stream`, Python's dicts; docs/per-item.md lists them), its first error,
 * its report group, and its memory (an arena for evidence and spans, copied
 * whole when a batch gives one prediction's record to the same text again). */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

const char *sqlsim_record_error(const sqlsim_record *r, const char **side, int *offset) {
  *offset = -1;
  *side = "gold";
  if (r->gold_err[0]) return r->gold_err;
  if (r->match_err[0]) return r->match_err;
  *side = "pred";
  if (r->input_err[0]) return r->input_err;
  if (r->answer_from == SQLSIM_FROM_NONE) return "no SQL found in the answer";
  if (r->has_match && r->match.error.code) {
    *offset = r->match.error.offset;
    return r->match.error.message;
  }
  if (r->ex_err[0]) return r->ex_err;
  if (r->bis_err[0]) return r->bis_err;
  if (r->diff_err[0]) return r->diff_err;
  if (r->synth_err[0]) return r->synth_err;
  if (r->has_timing && !r->timing.ok) return r->timing.reason;
  return NULL;
}

/* ,"NAME_ratio":r,"NAME_interval":[lo,hi] of a timing. */
static void ratio_json(strbuf *sb, const char *name, const sqlsim_timing *t) {
  sb_printf(sb, ",\"%s_ratio\":", name);
  sb_json_num(sb, t->ratio);
  sb_printf(sb, ",\"%s_interval\":[", name);
  sb_json_num(sb, t->ci_low);
  sb_putc(sb, ',');
  sb_json_num(sb, t->ci_high);
  sb_putc(sb, ']');
}

/* A witness as JSON: the database as SQL text (null on a real database),
 * both answers' first rows (JSON arrays, as they are) and counts. */
void engine_witness_json(strbuf *sb, const sqlsim_witness *w) {
  if (!w) {
    sb_puts(sb, "null");
    return;
  }
  sb_printf(sb, "{\"verdict\":\"%s\",\"database\":", w->verdict);
  if (w->database) sb_json_str(sb, w->database);
  else sb_puts(sb, "null");
  sb_printf(sb, ",\"rows\":%ld,\"gold_sql\":", w->rows);
  sb_json_str(sb, w->gold_sql ? w->gold_sql : "");
  sb_puts(sb, ",\"pred_sql\":");
  sb_json_str(sb, w->pred_sql ? w->pred_sql : "");
  sb_printf(sb, ",\"gold_rows\":%s,\"pred_rows\":%s", w->gold_rows ? w->gold_rows : "[]",
            w->pred_rows ? w->pred_rows : "[]");
  if (w->gold_count >= 0) sb_printf(sb, ",\"gold_count\":%ld", w->gold_count);
  else sb_puts(sb, ",\"gold_count\":null");
  if (w->pred_count >= 0) sb_printf(sb, ",\"pred_count\":%ld", w->pred_count);
  else sb_puts(sb, ",\"pred_count\":null");
  sb_puts(sb, ",\"pred_error\":");
  if (w->pred_error) sb_json_str(sb, w->pred_error);
  else sb_puts(sb, "null");
  sb_putc(sb, '}');
}

/* "category", "categories" (ranked) and "evidence" (per category). */
static void categories_fields(strbuf *sb, const sqlsim_categories *k) {
  sb_puts(sb, "\"category\":");
  if (k->main >= 0) sb_printf(sb, "\"%s\"", sqlsim_category_names[k->main]);
  else sb_puts(sb, "null");
  sb_puts(sb, ",\"categories\":[");
  for (int i = 0; i < k->nranked; i++) sb_printf(sb, "%s\"%s\"", i ? "," : "", sqlsim_category_names[k->ranked[i]]);
  sb_puts(sb, "],\"evidence\":{");
  int first = 1;
  for (int i = 0; i < k->nranked; i++) {
    int c = k->ranked[i];
    if (!k->evidence[c]) continue;
    sb_printf(sb, "%s\"%s\":", first ? "" : ",", sqlsim_category_names[c]);
    sb_json_str(sb, k->evidence[c]);
    first = 0;
  }
  sb_puts(sb, "}");
}

/* config.repair: null for a pair that is not wrong (or was not judged); the
 * repair found; or why none was. */
static void repair_json(strbuf *sb, const sqlsim_record *r) {
  sb_puts(sb, ",\"repair\":");
  if (r->repair_sql) {
    sb_puts(sb, "{\"sql\":");
    sb_json_str(sb, r->repair_sql);
    sb_putc(sb, ',');
    categories_fields(sb, &r->repair_cats);
    sb_puts(sb, ",\"no_effect\":");
    if (r->repair_no_effect) sb_json_str(sb, r->repair_no_effect);
    else sb_puts(sb, "null");
    sb_printf(sb, ",\"checks\":%d}", r->repair_checks);
  } else if (r->repair_note) {
    sb_puts(sb, "{\"sql\":null,\"note\":");
    sb_json_str(sb, r->repair_note);
    sb_printf(sb, ",\"checks\":%d}", r->repair_checks);
  } else {
    sb_puts(sb, "null");
  }
}

void engine_record_json(strbuf *sb, const sqlsim_record *r) {
  unsigned m = r->metrics;
  if (r->hardness >= 0 && r->hardness < SQLSIM_HARD_UNKNOWN)
    sb_printf(sb, "\"hardness\":\"%s\"", sqlsim_hardness_names[r->hardness]);
  else
    sb_puts(sb, "\"hardness\":null");
  if (m & SQLSIM_M_MATCH) {
    if (r->has_match) {
      sb_printf(sb, ",\"exact\":%d,\"partial\":{", r->match.exact);
      for (int k = 0; k < SQLSIM_SPIDER_NPARTIAL; k++)
        sb_printf(sb, "%s\"%s\":%d", k ? "," : "", sqlsim_spider_partial_names[k], r->match.f1[k]);
      sb_puts(sb, "}");
    } else {
      sb_puts(sb, ",\"exact\":null,\"partial\":null");
    }
  }
  if (m & SQLSIM_M_DB) {
    if (r->ex_bird >= 0)
      sb_printf(sb, ",\"ex\":{\"spider\":%d,\"bird\":%d},\"databases\":%d", r->ex_spider, r->ex_bird, r->databases);
    else sb_puts(sb, ",\"ex\":null");
  }
  if (m & SQLSIM_M_TIMING) {
    if (r->has_timing && r->timing.ok) {
      ratio_json(sb, "ves", &r->timing);
      sb_puts(sb, ",\"first_row_ratio\":");
      sb_json_num(sb, r->timing.first_row_ratio);
      sb_printf(sb, ",\"iterations\":%d,\"kept\":%d,\"rves_reward\":%g", r->timing.n, r->timing.kept,
                sqlsim_rves_reward(r->timing.ratio));
      /* this item's gold also timed against itself: the noise floor */
      if (r->has_self_timing) ratio_json(sb, "self", &r->self_timing);
    } else {
      sb_puts(sb, ",\"ves_ratio\":null,\"ves_interval\":null,\"rves_reward\":0");
    }
  }
  if (m & SQLSIM_M_BIS) {
    if (r->has_bis) sb_printf(sb, ",\"bis\":%.6g,\"score\":%.6g", r->bis, r->score);
    else sb_puts(sb, ",\"bis\":null,\"score\":null");
  }
  if (m & SQLSIM_M_SYNTH) {
    sb_puts(sb, ",\"score_structure\":");
    if (r->has_bis) sb_json_num(sb, r->score_structure);
    else sb_puts(sb, "null");
    if (r->has_synth) {
      const sqlsim_synth *x = &r->synth;
      sb_puts(sb, ",\"synth\":");
      sb_json_num(sb, x->graded);
      sb_printf(sb, ",\"synth_pass\":%s,\"synth_informative\":%d,\"synth_databases\":%d,\"synth_ties\":%d",
                x->pass < 0 ? "null" : x->pass ? "true" : "false", x->informative, x->databases, x->ties);
      sb_printf(sb, ",\"synth_gold_empty\":%s,\"synth_why\":", x->gold_empty ? "true" : "false");
      if (x->why[0]) sb_json_str(sb, x->why);
      else sb_puts(sb, "null");
    } else {
      sb_puts(sb, ",\"synth\":null,\"synth_pass\":null,\"synth_informative\":0");
    }
  }
  if (m & SQLSIM_M_STRICT) {
    const sqlsim_synth *x = &r->synth;
    if (r->has_synth && x->strict >= 0) {
      sb_printf(sb, ",\"strict\":%s,\"strict_databases\":%d,\"suite\":%d,\"neighbors\":%d,\"coverage\":",
                x->strict ? "true" : "false", x->strict_databases, x->suite, x->neighbors);
      if (x->neighbors) sb_json_num(sb, (double)x->told / x->neighbors);
      else sb_puts(sb, "null");
      sb_puts(sb, ",\"strict_why\":");
      if (x->strict_why[0]) sb_json_str(sb, x->strict_why);
      else sb_puts(sb, "null");
    } else {
      sb_puts(sb, ",\"strict\":null,\"strict_databases\":0,\"suite\":null,\"neighbors\":null,\"coverage\":null");
      sb_puts(sb, ",\"strict_why\":");
      if (r->has_synth && x->strict_why[0]) sb_json_str(sb, x->strict_why);
      else sb_puts(sb, "null");
    }
  }
  if (m & SQLSIM_M_RESULT) {
    if (r->has_rsim)
      sb_printf(sb, ",\"result_p\":%.6g,\"result_r\":%.6g,\"result_f1\":%.6g", r->rsim.p, r->rsim.r, r->rsim.f1);
    else
      sb_puts(sb, ",\"result_p\":null,\"result_r\":null,\"result_f1\":null");
  }
  if (r->answer_sql || r->answer_from == SQLSIM_FROM_NONE) { /* config.extract */
    sb_printf(sb, ",\"answer\":{\"from\":\"%s\",\"sql\":", sqlsim_extract_names[r->answer_from]);
    if (r->answer_sql) sb_json_str(sb, r->answer_sql);
    else sb_puts(sb, "null");
    sb_putc(sb, '}');
  }
  if (r->witness_asked) {
    sb_puts(sb, ",\"witness\":");
    engine_witness_json(sb, r->witness);
  }
  if (m & SQLSIM_M_CATEGORIES) {
    sb_putc(sb, ',');
    categories_fields(sb, &r->cats);
    if (r->repair_asked) repair_json(sb, r);
    sb_printf(sb, ",\"structure_only\":%s", r->ex_bird >= 0 ? "false" : "true");
  }
  const char *side;
  int offset;
  const char *msg = sqlsim_record_error(r, &side, &offset);
  sb_puts(sb, ",\"error\":");
  if (!msg) {
    sb_puts(sb, "null");
    return;
  }
  sb_puts(sb, "{\"message\":");
  sb_json_str(sb, msg);
  if (offset >= 0) sb_printf(sb, ",\"offset\":%d", offset);
  else sb_puts(sb, ",\"offset\":null");
  sb_printf(sb, ",\"side\":\"%s\"}", side);
}

char *sqlsim_record_to_json(const sqlsim_record *r) {
  strbuf sb = {0};
  sb_putc(&sb, '{');
  engine_record_json(&sb, r);
  sb_putc(&sb, '}');
  return sb_take(&sb);
}

/* ---------------------------------------------------------------- records */

sqlsim_arena *engine_record_arena(sqlsim_record *r) {
  if (!r->arena) r->arena = arena_new_sized(1024);
  return r->arena;
}

void engine_record_copy(sqlsim_record *dst, const sqlsim_record *src) {
  *dst = *src;
  dst->witness = sqlsim_witness_copy(src->witness);
  dst->arena = NULL;
  if (!src->arena) return;
  sqlsim_arena *a = engine_record_arena(dst);
  for (int k = 0; k < SQLSIM_NCAT; k++)
    if (src->cats.evidence[k]) dst->cats.evidence[k] = sqlsim_arena_strdup(a, src->cats.evidence[k]);
  if (src->dialect) dst->dialect = sqlsim_arena_strdup(a, src->dialect);
  if (src->answer_sql) dst->answer_sql = sqlsim_arena_strdup(a, src->answer_sql);
  if (src->dialect && src->cats.evidence[SQLSIM_CAT_DIALECT] == src->dialect)
    dst->cats.evidence[SQLSIM_CAT_DIALECT] = dst->dialect;
  if (src->gspans) {
    dst->gspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * src->ngspans + 1));
    memcpy(dst->gspans, src->gspans, sizeof(int) * (size_t)(2 * src->ngspans));
  }
  if (src->pspans) {
    dst->pspans = sqlsim_arena_alloc(a, sizeof(int) * (size_t)(2 * src->npspans + 1));
    memcpy(dst->pspans, src->pspans, sizeof(int) * (size_t)(2 * src->npspans));
  }
}

void sqlsim_record_clear(sqlsim_record *r) {
  if (!r) return;
  sqlsim_witness_free(r->witness);
  sqlsim_arena_free(r->arena);
  memset(r, 0, sizeof *r);
}

const char *sqlsim_group_of(const sqlsim_item *gold, const sqlsim_record *r) {
  if (gold && gold->difficulty) return gold->difficulty;
  if (gold && gold->case_type) return gold->case_type;
  if (r && r->hardness >= 0 && r->hardness < SQLSIM_HARD_UNKNOWN) return sqlsim_hardness_names[r->hardness];
  return NULL;
}
