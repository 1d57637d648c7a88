/* fields.h -- the engine's declared interface to the faces that write a
 * record's fields after keys of their own (report/run.c's per-item lines,
 * engine/stream.c's answers): the per-item JSON fields (docs/per-item.md),
 * written by the metric table's walk (engine/metrics.c). */
#ifndef SQLSIM_FIELDS_H
#define SQLSIM_FIELDS_H

#include "core.h"

/* The fields of a record, without braces, after what is already in sb (so a
 * face can put its own keys first: model, index, db_id; sb then ends with
 * the comma after them). */
void engine_record_json(strbuf *sb, const sqlsim_record *r);
/* A witness as its per-item field: an object, or null. */
void engine_witness_json(strbuf *sb, const sqlsim_witness *w);

#endif
