/* record.h -- the engine's declared interface to the faces that write
 * records with keys of their own first (report/run.c, engine/stream.c):
 * the per-item JSON fields (docs/per-item.md). */
#ifndef SQLSIM_RECORD_H
#define SQLSIM_RECORD_H

#include "core.h"

/* The fields of a record, without braces, after what is already in sb (so a
 * face can put its own keys first: model, index, db_id). engine/record.c */
void engine_record_json(strbuf *sb, const sqlsim_record *r);
/* A witness as its per-item field: an object, or null. */
void engine_witness_json(strbuf *sb, const sqlsim_witness *w);

#endif
