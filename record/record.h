/* record.h -- the record module's declared interface: a pair's record
 * (sqlsim_record, sqlsim.h) and its memory, below the error analysis and the
 * engine, which both write parts of it.
 *
 * Ownership, as sqlsim.h states it: every string and array of a record is
 * in its arena (record_arena), but its witness (malloc'd, record_take_witness
 * hands it over). A stage allocates its part's strings in the record's arena
 * and returns the part; the record takes it by assignment. record_copy is a
 * deep copy; sqlsim_record_clear frees. The JSON sink writes a record's
 * fields (the walk over them is the engine's metric table). */
#ifndef SQLSIM_RECORD_H
#define SQLSIM_RECORD_H

#include "core.h"

/* The record's arena, made on first use (aborts only when out of memory,
 * as every arena allocation). */
sqlsim_arena *record_arena(sqlsim_record *r);
/* dst becomes a deep copy of src, in an arena of its own, with its own
 * witness: either can be cleared first. dst is overwritten (not cleared). */
void record_copy(sqlsim_record *dst, const sqlsim_record *src);
/* The record owns w now (NULL: none); a witness it held is freed. */
void record_take_witness(sqlsim_record *r, sqlsim_witness *w);

/* A sqlsim_sink that writes JSON into sb: values, with commas between an
 * object's members and an array's items. */
typedef struct record_json {
  strbuf *sb;
  int depth;
  unsigned char more[32]; /* per depth: a value was written at that level */
} record_json;
extern const sqlsim_sink record_json_sink;
/* Starts writing members into sb; after_member: sb already holds a member
 * of the same object (a face's own keys), so the first member gets a comma. */
void record_json_init(record_json *j, strbuf *sb, int after_member);

#endif
