/* engine.h -- the evaluator's insides, shared by engine/ files and the faces
 * that write records (the command line, the Python package). */
#ifndef SQLSIM_ENGINE_H
#define SQLSIM_ENGINE_H

#include <pthread.h>

#include "core.h"

typedef struct worker worker;

struct sqlsim_evaluator {
  sqlsim_config cfg;         /* strings point at the copies below */
  char *tables, *db_dir, *sqlite, *now;
  sqlsim_catalog *catalog;
  int spider;                /* Spider matching and hardness are possible (tables.json, per db_id) */
  pthread_mutex_t mu;
  worker *free_workers;      /* the pool: workers not lent to a call */
};

/* The fields of a record, without braces, after what is already in sb (so a
 * face can put its own keys first: model, index, db_id). engine/record.c */
void record_json_fields(strbuf *sb, const sqlsim_record *r);

#endif
