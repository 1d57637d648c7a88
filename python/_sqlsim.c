/* _sqlsim.c -- the Python face of the library: argument conversion and
 * results as Python objects, nothing more. The engine (engine/) does the
 * work; python/sqlsim/__init__.py holds the documented API over this module.
 *
 * The GIL is released around every call into the engine, so Python threads
 * score in parallel, and score_many runs the engine's own worker threads. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <string.h>

#include "sqlsim.h"

static PyObject *Error, *ParseError, *ConfigError;

/* Raises the exception for a library error: ParseError for SQL that does not
 * parse or is not modelled, ConfigError for configuration, Error otherwise;
 * with .code and .offset. */
static PyObject *raise_err(const sqlsim_error *e, PyObject *type) {
  if (!type) type = (e->code == SQLSIM_ESYNTAX || e->code == SQLSIM_EUNSUPPORTED) ? ParseError : Error;
  PyObject *exc = PyObject_CallFunction(type, "s", e->message);
  if (!exc) return NULL;
  PyObject *code = PyLong_FromLong(e->code), *off = e->offset >= 0 ? PyLong_FromLong(e->offset) : Py_NewRef(Py_None);
  PyObject_SetAttrString(exc, "code", code);
  PyObject_SetAttrString(exc, "offset", off);
  Py_XDECREF(code);
  Py_XDECREF(off);
  PyErr_SetObject(type, exc);
  Py_DECREF(exc);
  return NULL;
}

/* ---------------------------------------------------------------- records as dicts */

static PyObject *str_or_none(const char *s) {
  return s ? PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace") : Py_NewRef(Py_None);
}

static PyObject *num_or_none(double v) { return isnan(v) || isinf(v) ? Py_NewRef(Py_None) : PyFloat_FromDouble(v); }

/* A JSON text sqlsim wrote (a witness's rows) as Python objects. */
static PyObject *from_json(const char *text) {
  static PyObject *loads;
  if (!loads) {
    PyObject *json = PyImport_ImportModule("json");
    if (!json) return NULL;
    loads = PyObject_GetAttrString(json, "loads");
    Py_DECREF(json);
    if (!loads) return NULL;
  }
  return PyObject_CallFunction(loads, "s", text ? text : "[]");
}

/* The library's sink of a record's fields (sqlsim_record_write) building
 * Python objects: the same keys and values as the per-item JSON, by the same
 * walk, with numbers as Python floats (not rounded as the JSON text's). */
#define DICT_DEPTH 8
typedef struct dict_sink {
  PyObject *stack[DICT_DEPTH]; /* the open containers: a dict, or a list */
  int depth, bad;
  const char *key;             /* the next value's key, in a dict */
} dict_sink;

/* Puts v (a new reference, NULL: failure) into the innermost container. */
static void put(dict_sink *d, PyObject *v) {
  if (!v || d->depth < 1) {
    Py_XDECREF(v);
    d->bad = 1;
    return;
  }
  PyObject *c = d->stack[d->depth - 1];
  if (PyList_Check(c) ? PyList_Append(c, v) : PyDict_SetItemString(c, d->key ? d->key : "", v)) d->bad = 1;
  Py_DECREF(v);
}

static void ds_key(void *ctx, const char *key) { ((dict_sink *)ctx)->key = key; }
static void ds_null(void *ctx) { put(ctx, Py_NewRef(Py_None)); }
static void ds_bool(void *ctx, int v) { put(ctx, PyBool_FromLong(v)); }
static void ds_int(void *ctx, long long v) { put(ctx, PyLong_FromLongLong(v)); }
static void ds_num(void *ctx, double v) { put(ctx, num_or_none(v)); }
static void ds_str(void *ctx, const char *s) { put(ctx, str_or_none(s)); }
static void ds_json(void *ctx, const char *text) { put(ctx, from_json(text)); }

static void ds_begin(void *ctx, int array) {
  dict_sink *d = ctx;
  PyObject *c = array ? PyList_New(0) : PyDict_New();
  if (!c || d->depth >= DICT_DEPTH) {
    Py_XDECREF(c);
    d->bad = 1;
    return;
  }
  put(d, Py_NewRef(c));
  d->stack[d->depth++] = c;
  Py_DECREF(c); /* the container holds it */
}

static void ds_end(void *ctx, int array) {
  dict_sink *d = ctx;
  if (d->depth > 1) d->depth--;
}

static const sqlsim_sink dict_sink_fns = {ds_key, ds_null, ds_bool, ds_int, ds_num, ds_str, ds_json, ds_begin, ds_end};

/* The record's fields as a dict (the same keys and values as
 * sqlsim_record_to_json, from the same walk), or NULL with an exception. */
static PyObject *record_dict(const sqlsim_record *r) {
  PyObject *top = PyDict_New();
  if (!top) return NULL;
  dict_sink d = {.stack = {top}, .depth = 1};
  sqlsim_record_write(r, &dict_sink_fns, &d);
  if (d.bad || PyErr_Occurred()) {
    Py_DECREF(top);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return NULL;
  }
  return top;
}

/* ---------------------------------------------------------------- Evaluator */

typedef struct {
  PyObject_HEAD sqlsim_evaluator *ev;
} EvaluatorObject;

static const char *opt_str(PyObject *o) {
  if (!o || o == Py_None) return NULL;
  if (PyUnicode_Check(o)) return PyUnicode_AsUTF8(o);
  PyErr_SetString(PyExc_TypeError, "expected a str or None");
  return NULL;
}

static int Evaluator_init(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"tables", "db_dir", "sqlite", "metrics", "mode", "semantics", "timeout",
                           "iterations", "alternate", "now", "max_memory", "keep_distinct", "plug_value",
                           "synth_databases", "auto_width", "noise_every", "connection", "witness", "extract", "repair",
                           "assume_not_null", "engine", "dialect", "spider2", "spider2_pred", "spider2_rows",
                           "no_solver", "solver_budget", "reward_bound", NULL};
  PyObject *tables = Py_None, *db_dir = Py_None, *sqlite = Py_None, *now = Py_None, *engine = Py_None,
           *spider2 = Py_None;
  const char *spider2_pred = "sql";
  int spider2_rows = 0;
  const char *dialect = "engine";
  const char *metrics = "bis", *mode = "compatible", *semantics = "spider";
  double timeout = 30;
  int iterations = 100, alternate = 0, keep_distinct = 0, plug_value = 0, synth_databases = 0, noise_every = 0,
      witness = 0, extract = 0, repair = 0, assume_not_null = 0, no_solver = 0, reward_bound = 0;
  double solver_budget = 0;
  const char *connection = "fresh";
  unsigned long long max_memory = 0;
  double auto_width = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOOsssdipOKppidisppppOsOsppdi", kwlist, &tables, &db_dir, &sqlite,
                                   &metrics, &mode, &semantics, &timeout, &iterations, &alternate, &now, &max_memory,
                                   &keep_distinct, &plug_value, &synth_databases, &auto_width, &noise_every,
                                   &connection, &witness, &extract, &repair, &assume_not_null, &engine, &dialect,
                                   &spider2, &spider2_pred, &spider2_rows, &no_solver, &solver_budget, &reward_bound))
    return -1;
  if (strcmp(connection, "fresh") && strcmp(connection, "reuse")) {
    PyErr_Format(ConfigError, "connection must be 'fresh' or 'reuse', not '%s'", connection);
    return -1;
  }
  sqlsim_config cfg = {.timeout_s = timeout, .iterations = iterations, .alternate = alternate, .auto_width = auto_width,
                       .max_memory = (size_t)max_memory, .keep_distinct = keep_distinct, .plug_value = plug_value,
                       .synth_databases = synth_databases, .noise_every = noise_every,
                       .reuse_connection = !strcmp(connection, "reuse"), .witness = witness, .extract = extract,
                       .repair = repair, .assume_not_null = assume_not_null, .no_solver = no_solver,
                       .solver_budget = solver_budget, .reward_bound = reward_bound};
  if (solver_budget < 0 || reward_bound < 0 || reward_bound > 6) {
    PyErr_SetString(ConfigError, "solver_budget must be >= 0 and reward_bound 0..6");
    return -1;
  }
  cfg.tables = opt_str(tables);
  cfg.db_dir = opt_str(db_dir);
  cfg.sqlite = opt_str(sqlite);
  cfg.now = opt_str(now);
  cfg.engine = opt_str(engine);
  cfg.spider2 = opt_str(spider2);
  cfg.spider2_rows = spider2_rows;
  if (PyErr_Occurred()) return -1;
  if (!strcmp(spider2_pred, "sql")) cfg.spider2_pred = SQLSIM_SPIDER2_SQL;
  else if (!strcmp(spider2_pred, "csv")) cfg.spider2_pred = SQLSIM_SPIDER2_CSV;
  else {
    PyErr_Format(ConfigError, "spider2_pred must be 'sql' or 'csv', not '%s'", spider2_pred);
    return -1;
  }
  sqlsim_error err = {0};
  if (sqlsim_dialect_parse(dialect, &cfg.dialect, &err)) {
    raise_err(&err, ConfigError);
    return -1;
  }
  if (sqlsim_metrics_parse(metrics, &cfg.metrics, &err)) {
    raise_err(&err, ConfigError);
    return -1;
  }
  if (!strcmp(mode, "compatible")) cfg.mode = SQLSIM_SPIDER_COMPATIBLE;
  else if (!strcmp(mode, "corrected")) cfg.mode = SQLSIM_SPIDER_CORRECTED;
  else {
    PyErr_Format(ConfigError, "mode must be 'compatible' or 'corrected', not '%s'", mode);
    return -1;
  }
  if (!strcmp(semantics, "bird")) cfg.bird_semantics = 1;
  else if (strcmp(semantics, "spider")) {
    PyErr_Format(ConfigError, "semantics must be 'spider' or 'bird', not '%s'", semantics);
    return -1;
  }
  if (timeout <= 0 || iterations <= 0) {
    PyErr_SetString(ConfigError, "timeout and iterations must be positive");
    return -1;
  }
  sqlsim_evaluator *ev = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_evaluator_new(&cfg, &ev, &err);
  Py_END_ALLOW_THREADS if (rc) {
    raise_err(&err, ConfigError);
    return -1;
  }
  sqlsim_evaluator_free(self->ev);
  self->ev = ev;
  return 0;
}

static void Evaluator_dealloc(EvaluatorObject *self) {
  sqlsim_evaluator_free(self->ev);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(EvaluatorObject *self) {
  if (self->ev) return 1;
  PyErr_SetString(Error, "the Evaluator was not initialized");
  return 0;
}

/* ---------------------------------------------------------------- model text */

/* A text argument as UTF-8. Model text is untrusted: a NUL character or a
 * lone surrogate is no exception but a reason (why) and the empty text in its
 * place, so the pair is scored as failing and its record says why. With chat,
 * a chat completion (a list of {"role", "content"} messages) stands for the
 * content of its last assistant message (else of its last message). 0, or -1
 * with a Python error for what is no text at all. */
typedef struct pytext {
  const char *s;
  char why[160];
} pytext;

static int text_arg(PyObject *o, const char *what, int chat, pytext *t) {
  t->s = "";
  t->why[0] = '\0';
  if (chat && (PyList_Check(o) || PyTuple_Check(o))) {
    Py_ssize_t n = PySequence_Size(o);
    PyObject *assistant = NULL, *last = NULL; /* borrowed from o's items, which o keeps */
    for (Py_ssize_t k = 0; k < n; k++) {
      PyObject *m = PySequence_GetItem(o, k);
      if (!m) return -1;
      Py_DECREF(m); /* o holds it */
      if (!PyDict_Check(m)) continue;
      last = m;
      PyObject *role = PyDict_GetItemString(m, "role");
      if (role && PyUnicode_Check(role) && !PyUnicode_CompareWithASCIIString(role, "assistant")) assistant = m;
    }
    PyObject *pick = assistant ? assistant : last;
    PyObject *content = pick ? PyDict_GetItemString(pick, "content") : NULL;
    if (content && PyUnicode_Check(content)) return text_arg(content, what, 0, t);
    snprintf(t->why, sizeof t->why, "the %s is a chat completion %s", what,
             pick ? "whose message has no text content" : "without a message");
    return 0;
  }
  if (!PyUnicode_Check(o)) {
    PyErr_Format(PyExc_TypeError, "the %s must be a str%s, not %.80s", what, chat ? " or a chat completion" : "",
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  Py_ssize_t len;
  const char *u = PyUnicode_AsUTF8AndSize(o, &len);
  if (!u) { /* a lone surrogate: no UTF-8 for it */
    PyErr_Clear();
    Py_ssize_t n = PyUnicode_GetLength(o), at = 0;
    for (; at < n; at++) {
      Py_UCS4 c = PyUnicode_ReadChar(o, at);
      if (c >= 0xD800 && c <= 0xDFFF) break;
    }
    snprintf(t->why, sizeof t->why, "the %s is not valid Unicode: a lone surrogate at character %zd", what, at);
    return 0;
  }
  if ((Py_ssize_t)strlen(u) != len) {
    Py_ssize_t at = PyUnicode_FindChar(o, 0, 0, PyUnicode_GetLength(o), 1);
    snprintf(t->why, sizeof t->why, "the %s holds a NUL character at character %zd", what, at);
    return 0;
  }
  t->s = u;
  return 0;
}

/* What could not be scored as it came goes into the record. */
static void mark_inputs(sqlsim_record *r, const pytext *g, const pytext *p) {
  if (g->why[0]) snprintf(r->gold_err, sizeof r->gold_err, "%s", g->why);
  if (p->why[0]) snprintf(r->input_err, sizeof r->input_err, "%s", p->why);
}

/* gold, pred, db_id (and partial) from positional/keyword arguments. */
static int pair_args(PyObject *args, PyObject *kw, pytext *g, pytext *p, const char **db, double *partial) {
  static char *kwlist[] = {"gold", "pred", "db_id", "partial", NULL};
  PyObject *go, *po;
  *db = NULL;
  double ignored = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|zd", kwlist, &go, &po, db, partial ? partial : &ignored)) return 0;
  return text_arg(go, "gold", 0, g) == 0 && text_arg(po, "prediction", 1, p) == 0;
}

/* One pair scored into r; 0, or -1 with a Python error. */
static int score_one(EvaluatorObject *self, PyObject *args, PyObject *kw, sqlsim_record *r, double *partial) {
  pytext g, p;
  const char *db;
  if (!ready(self) || !pair_args(args, kw, &g, &p, &db, partial)) return -1;
  sqlsim_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_evaluate(self->ev, g.s, p.s, db, r, &err);
  Py_END_ALLOW_THREADS if (rc) {
    raise_err(&err, NULL);
    return -1;
  }
  mark_inputs(r, &g, &p);
  return 0;
}

static PyObject *Evaluator_score(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  sqlsim_record r;
  if (score_one(self, args, kw, &r, NULL)) return NULL;
  PyObject *d = record_dict(&r);
  sqlsim_record_clear(&r);
  return d;
}

static PyObject *Evaluator_score_json(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  sqlsim_record r;
  if (score_one(self, args, kw, &r, NULL)) return NULL;
  char *js = sqlsim_record_to_json(&r);
  sqlsim_record_clear(&r);
  PyObject *s = js ? PyUnicode_FromString(js) : PyErr_NoMemory();
  free(js);
  return s;
}

static PyObject *reward_value(double v) { return isnan(v) ? Py_NewRef(Py_None) : PyFloat_FromDouble(v); }

/* A reward of None (the pair cannot be scored: its gold, its database) is
 * dropped by trainers; it is never silent: a RuntimeWarning says why. */
static int warn_unscored(const sqlsim_record *r) {
  const char *side;
  int offset;
  const char *msg = sqlsim_record_error(r, &side, &offset);
  return PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "sqlsim: no reward for this pair (%s: %.300s)", side,
                          msg ? msg : "not scored");
}

static PyObject *Evaluator_reward(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  double partial = -1;
  sqlsim_record r;
  if (score_one(self, args, kw, &r, &partial)) return NULL;
  double v = sqlsim_reward(self->ev, &r, partial);
  int bad = isnan(v) ? warn_unscored(&r) : 0;
  sqlsim_record_clear(&r);
  return bad ? NULL : reward_value(v);
}

/* The pairs of an iterable: (gold, pred) or (gold, pred, db_id) sequences.
 * Fills pairs[] with UTF-8 pointers into the str objects, kept alive in refs,
 * and texts[] with what could not be read as it came (pytext). */
static Py_ssize_t read_pairs(PyObject *seq, sqlsim_pair **out, PyObject ***refs, pytext **texts) {
  PyObject *fast = PySequence_Fast(seq, "pairs must be a sequence of (gold, pred[, db_id]) tuples");
  if (!fast) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  sqlsim_pair *pairs = PyMem_Calloc((size_t)(n ? n : 1), sizeof *pairs);
  PyObject **keep = PyMem_Calloc((size_t)(n ? n : 1), sizeof *keep);
  pytext *tx = PyMem_Calloc((size_t)(n ? n : 1) * 2, sizeof *tx);
  if (!pairs || !keep || !tx) {
    PyMem_Free(pairs);
    PyMem_Free(keep);
    PyMem_Free(tx);
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *t = PySequence_Fast_GET_ITEM(fast, k);
    keep[k] = Py_NewRef(t);
    PyObject *tf = PySequence_Fast(t, "each pair must be a (gold, pred[, db_id]) tuple");
    Py_ssize_t m = tf ? PySequence_Fast_GET_SIZE(tf) : 0;
    if (tf && (m < 2 || m > 3)) PyErr_Format(PyExc_ValueError, "pair %zd: give (gold, pred) or (gold, pred, db_id)", k);
    if (!PyErr_Occurred()) {
      PyObject **it = PySequence_Fast_ITEMS(tf);
      if (text_arg(it[0], "gold", 0, &tx[2 * k]) == 0 && text_arg(it[1], "prediction", 1, &tx[2 * k + 1]) == 0) {
        pairs[k].gold = tx[2 * k].s;
        pairs[k].pred = tx[2 * k + 1].s;
        pairs[k].db_id = m == 3 && it[2] != Py_None ? (PyUnicode_Check(it[2]) ? PyUnicode_AsUTF8(it[2]) : NULL) : NULL;
        if (!PyErr_Occurred() && m == 3 && it[2] != Py_None && !pairs[k].db_id)
          PyErr_Format(PyExc_TypeError, "pair %zd: db_id must be a str or None", k);
      } else if (PyErr_Occurred() && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyObject *type, *value, *tb; /* say which pair */
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_TypeError, "pair %zd: %S", k, value ? value : Py_None);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
      }
    }
    Py_XDECREF(tf);
    if (PyErr_Occurred()) {
      for (Py_ssize_t j = 0; j <= k; j++) Py_DECREF(keep[j]);
      PyMem_Free(keep);
      PyMem_Free(pairs);
      PyMem_Free(tx);
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  *out = pairs;
  *refs = keep;
  *texts = tx;
  return n;
}

#define MANY_CHUNK 4096 /* pairs scored per engine batch (records are a few KiB each) */

/* kind 0: dicts, 1: rewards. */
static PyObject *many(EvaluatorObject *self, PyObject *args, PyObject *kw, int kind) {
  static char *kwlist[] = {"pairs", "jobs", "partial", NULL};
  PyObject *seq;
  int jobs = 0;
  double partial = -1;
  if (!ready(self) || !PyArg_ParseTupleAndKeywords(args, kw, "O|id", kwlist, &seq, &jobs, &partial)) return NULL;
  if (jobs <= 0) jobs = 1;
  sqlsim_pair *pairs;
  PyObject **refs;
  pytext *tx;
  Py_ssize_t n = read_pairs(seq, &pairs, &refs, &tx);
  if (n < 0) return NULL;
  PyObject *list = PyList_New(n);
  sqlsim_record *recs = PyMem_Calloc(n < MANY_CHUNK ? (size_t)(n ? n : 1) : MANY_CHUNK, sizeof *recs);
  Py_ssize_t unscored = 0;
  char first_why[320] = "";
  for (Py_ssize_t lo = 0; list && recs && lo < n; lo += MANY_CHUNK) {
    size_t m = (size_t)(n - lo < MANY_CHUNK ? n - lo : MANY_CHUNK);
    sqlsim_batch_opts o = {.jobs = jobs};
    Py_BEGIN_ALLOW_THREADS sqlsim_evaluate_batch(self->ev, pairs + lo, m, recs, &o);
    Py_END_ALLOW_THREADS for (size_t k = 0; k < m; k++) {
      mark_inputs(&recs[k], &tx[2 * (lo + (Py_ssize_t)k)], &tx[2 * (lo + (Py_ssize_t)k) + 1]);
      PyObject *v = NULL;
      if (list && kind) {
        double x = sqlsim_reward(self->ev, &recs[k], partial);
        if (isnan(x) && !unscored++) {
          const char *side;
          int offset;
          const char *msg = sqlsim_record_error(&recs[k], &side, &offset);
          snprintf(first_why, sizeof first_why, "pair %zd, %s: %.280s", lo + (Py_ssize_t)k, side, msg ? msg : "not scored");
        }
        v = reward_value(x);
      } else if (list) {
        v = record_dict(&recs[k]);
      }
      sqlsim_record_clear(&recs[k]);
      if (!list) continue;
      if (!v) Py_CLEAR(list);
      else PyList_SET_ITEM(list, lo + (Py_ssize_t)k, v);
    }
  }
  if (!recs) {
    PyErr_NoMemory();
    Py_CLEAR(list);
  }
  PyMem_Free(recs);
  for (Py_ssize_t k = 0; k < n; k++) Py_DECREF(refs[k]);
  PyMem_Free(refs);
  PyMem_Free(pairs);
  PyMem_Free(tx);
  if (list && unscored &&
      PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "sqlsim: no reward for %zd of %zd pairs (first: %s)", unscored, n,
                       first_why))
    Py_CLEAR(list);
  return list;
}

static PyObject *Evaluator_score_many(EvaluatorObject *self, PyObject *args, PyObject *kw) { return many(self, args, kw, 0); }
static PyObject *Evaluator_reward_many(EvaluatorObject *self, PyObject *args, PyObject *kw) { return many(self, args, kw, 1); }

/* ---------------------------------------------------------------- parse, diff */

static const sqlsim_schema *schema_for(EvaluatorObject *self, const char *db_id) {
  return self && self->ev ? sqlsim_evaluator_schema(self->ev, db_id) : NULL;
}

/* The parse options: the evaluator's (its dialect), or dialect's name. */
static int parse_options(EvaluatorObject *self, const char *dialect, unsigned *out) {
  if (self) {
    *out = sqlsim_evaluator_parse_options(self->ev);
    return 0;
  }
  int d;
  sqlsim_error err = {0};
  if (sqlsim_dialect_parse(dialect, &d, &err)) {
    PyErr_SetString(PyExc_ValueError, err.message);
    return -1;
  }
  *out = sqlsim_dialect_parse_options(d);
  return 0;
}

static PyObject *do_parse(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"sql", "db_id", "format", "dialect", NULL};
  const char *sql, *db = NULL, *format = "sql", *dialect = "sqlite";
  Py_ssize_t len;
  unsigned popts;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|zss", kwlist, &sql, &len, &db, &format, &dialect)) return NULL;
  if (parse_options(self, dialect, &popts)) return NULL;
  int f = !strcmp(format, "sql") ? 0 : !strcmp(format, "tree") ? 1 : !strcmp(format, "json") ? 2 : -1;
  if (f < 0) return PyErr_Format(PyExc_ValueError, "format must be 'sql', 'tree' or 'json', not '%s'", format);
  const sqlsim_schema *schema = schema_for(self, db);
  sqlsim_query *q = NULL;
  sqlsim_error err = {0};
  char *out = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_parse(sql, (size_t)len, schema, popts, &q, &err);
  if (!rc) out = f == 0 ? sqlsim_print_sql(q->root, 0) : f == 1 ? sqlsim_print_tree(q->root) : sqlsim_print_json(q->root);
  sqlsim_query_free(q);
  Py_END_ALLOW_THREADS if (rc) return raise_err(&err, NULL);
  PyObject *s = PyUnicode_DecodeUTF8(out, (Py_ssize_t)strlen(out), "replace");
  free(out);
  return s;
}

static PyObject *Evaluator_parse(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  return ready(self) ? do_parse(self, args, kw) : NULL;
}
static PyObject *mod_parse(PyObject *m, PyObject *args, PyObject *kw) { return do_parse(NULL, args, kw); }

static PyObject *mod_redacted(PyObject *m, PyObject *args) {
  const char *url;
  if (!PyArg_ParseTuple(args, "s", &url)) return NULL;
  char *r = sqlsim_engine_redacted(url);
  PyObject *o = str_or_none(r);
  free(r);
  return o;
}

static const char *const action_names[] = {"keep", "move", "update", "insert", "delete"};

static PyObject *node_sql(const sqlsim_node *n) {
  if (!n) return Py_NewRef(Py_None);
  char *s = sqlsim_print_sql(n, 0);
  PyObject *o = str_or_none(s);
  free(s);
  return o;
}

static PyObject *do_diff(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"gold", "pred", "db_id", "dialect", NULL};
  const char *g, *p, *db = NULL, *dialect = "sqlite";
  unsigned popts;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "ss|zs", kwlist, &g, &p, &db, &dialect)) return NULL;
  if (parse_options(self, dialect, &popts)) return NULL;
  const sqlsim_schema *schema = schema_for(self, db);
  sqlsim_query *gq = NULL, *pq = NULL;
  sqlsim_diff *plain = NULL, *d = NULL;
  sqlsim_error err = {0};
  int rc, which = 0;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_parse(g, strlen(g), schema, popts, &gq, &err);
  if (!rc) {
    which = 1;
    rc = sqlsim_parse(p, strlen(p), schema, popts, &pq, &err);
  }
  if (!rc) {
    which = 2;
    /* BIS on the trees as parsed, the score and its edits on the forms made one */
    rc = sqlsim_diff_pair(gq, pq, 0, &plain, &d, &err);
  }
  Py_END_ALLOW_THREADS PyObject *res = NULL;
  if (rc) {
    if (which < 2) {
      char msg[512];
      snprintf(msg, sizeof msg, "the %s query: %.480s", which ? "predicted" : "gold", err.message);
      snprintf(err.message, sizeof err.message, "%.500s", msg);
    }
    raise_err(&err, NULL);
    goto out;
  }
  /* no calibrated diff (the normalized copies past the size bound): BIS
   * alone, score None, and why */
  PyObject *edits = PyList_New(0);
  for (int k = 0; edits && d && k < d->nedits; k++) {
    const sqlsim_edit *e = &d->edits[k];
    /* what changed: the first edit of an inserted or deleted subtree stands for it */
    if (e->action == SQLSIM_EDIT_KEEP || (!e->root && e->weight <= 0 && e->action != SQLSIM_EDIT_MOVE)) continue;
    PyObject *ed = Py_BuildValue("{s:s,s:d,s:s,s:N,s:N}", "action", action_names[e->action], "weight", e->weight, "why",
                                 e->why ? e->why : "", "gold", node_sql(e->gold), "pred", node_sql(e->pred));
    if (!ed || PyList_Append(edits, ed)) Py_CLEAR(edits);
    Py_XDECREF(ed);
  }
  if (edits)
    res = Py_BuildValue("{s:d,s:N,s:O,s:N,s:N}", "bis", plain->bis, "score",
                        d ? PyFloat_FromDouble(d->score) : Py_NewRef(Py_None), "table_changed",
                        plain->table_changed ? Py_True : Py_False, "edits", edits, "error",
                        d ? Py_NewRef(Py_None) : PyUnicode_FromString(err.message));
out:
  sqlsim_diff_free(plain);
  sqlsim_diff_free(d);
  sqlsim_query_free(gq);
  sqlsim_query_free(pq);
  return res;
}

static PyObject *Evaluator_diff(EvaluatorObject *self, PyObject *args, PyObject *kw) {
  return ready(self) ? do_diff(self, args, kw) : NULL;
}
static PyObject *mod_diff(PyObject *m, PyObject *args, PyObject *kw) { return do_diff(NULL, args, kw); }

/* ---------------------------------------------------------------- noise floor */

static PyObject *mod_noise_floor(PyObject *m, PyObject *args) {
  PyObject *seq;
  if (!PyArg_ParseTuple(args, "O", &seq)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "noise_floor() takes a sequence of self-ratios");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  double *x = PyMem_Malloc(sizeof *x * (size_t)(n + 1));
  if (!x) {
    Py_DECREF(fast);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    x[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    if (PyErr_Occurred() || !(x[i] > 0) || x[i] != x[i] || x[i] > 1e300) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "self-ratio %zd is not a positive number", i);
      PyMem_Free(x);
      Py_DECREF(fast);
      return NULL;
    }
  }
  Py_DECREF(fast);
  sqlsim_noise_floor nf;
  sqlsim_noise_floor_of(x, (int)n, &nf);
  PyMem_Free(x);
  return Py_BuildValue("{s:i,s:N,s:N,s:N,s:N,s:N}", "items", nf.n, "median", num_or_none(nf.median), "p05",
                       num_or_none(nf.p05), "p95", num_or_none(nf.p95), "ves", num_or_none(nf.ves), "rves",
                       num_or_none(nf.rves));
}

/* ---------------------------------------------------------------- rewrite */

static PyObject *mod_rewrite(PyObject *m, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"sql", "db", "rules", "iterations", "timeout", "min_speedup", "now", "time_budget", "fixed",
                           NULL};
  const char *sql, *db, *rules = NULL, *now = NULL;
  int iterations = 20, fixed = 0;
  double timeout = 30, min_speedup = 1.1, time_budget = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "ss|ziddzdp", kwlist, &sql, &db, &rules, &iterations, &timeout,
                                   &min_speedup, &now, &time_budget, &fixed))
    return NULL;
  if (iterations <= 0 || timeout <= 0 || min_speedup <= 0 || time_budget < 0)
    return PyErr_Format(ConfigError, "iterations, timeout and min_speedup must be positive, time_budget not negative");
  sqlsim_rewrite_opts o = {.iterations = iterations, .timeout_s = timeout, .min_speedup = min_speedup, .fixed_now = now,
                           .time_budget_s = time_budget, .fixed = fixed};
  sqlsim_error perr = {0};
  if (rules && sqlsim_rules_parse(rules, &o.rules, &perr)) return PyErr_Format(ConfigError, "%s", perr.message);
  sqlsim_rewrite_result r;
  memset(&r, 0, sizeof r);
  sqlsim_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_rewrite(db, sql, &o, &r, &err);
  Py_END_ALLOW_THREADS if (rc) return raise_err(&err, NULL);
  static const char *const verdicts[] = {"no_rule", "offered", "changes_result", "not_faster", "unchecked"};
  PyObject *names = PyList_New(0);
  for (int k = 0; names && k < SQLSIM_NRULES; k++)
    if (r.rules & (1u << k)) {
      PyObject *s = PyUnicode_FromString(sqlsim_rule_names[k]);
      PyList_Append(names, s);
      Py_XDECREF(s);
    }
  int timed = r.timing.ok && r.timing.n;
  PyObject *res = Py_BuildValue(
      "{s:O,s:s,s:N,s:N,s:i,s:N,s:N,s:N,s:N,s:N,s:N,s:d}", "offered", r.offered ? Py_True : Py_False, "verdict",
      verdicts[r.verdict], "sql", str_or_none(r.sql), "rules", names, "candidates", r.candidates, "checks",
      str_or_none(r.checks), "reason", str_or_none(r.reason), "notes", str_or_none(r.notes ? r.notes : ""), "speedup",
      timed ? PyFloat_FromDouble(r.timing.ratio) : Py_NewRef(Py_None), "interval",
      timed ? Py_BuildValue("[NN]", num_or_none(r.timing.ci_low), num_or_none(r.timing.ci_high)) : Py_NewRef(Py_None),
      "runs", timed ? Py_BuildValue("[ii]", fixed ? r.timing.n : r.race.na, fixed ? r.timing.n : r.race.nb)
                    : Py_NewRef(Py_None),
      "timing_s", r.timing_s);
  sqlsim_rewrite_result_free(&r);
  return res;
}

/* ---------------------------------------------------------------- audit */

/* The systems' SQL per gold item: a prediction file paired with the gold
 * (sqlsim_items_pair), or a list of str (None: no prediction), one per item. */
static const char **system_sqls(PyObject *spec, const sqlsim_itemset *gold, sqlsim_itemset **loaded, PyObject **keep) {
  int n = gold->n;
  const char **sqls = calloc((size_t)(n > 0 ? n : 1), sizeof *sqls);
  if (!sqls) return (const char **)PyErr_NoMemory();
  if (PyUnicode_Check(spec)) {
    sqlsim_error err = {0};
    int *slot = malloc(sizeof *slot * (size_t)(n > 0 ? n : 1));
    if (!slot || sqlsim_items_load(PyUnicode_AsUTF8(spec), loaded, &err) || sqlsim_items_pair(gold, *loaded, slot, &err)) {
      free(slot);
      free(sqls);
      if (!err.code) return (const char **)PyErr_NoMemory();
      raise_err(&err, NULL);
      return NULL;
    }
    for (int i = 0; i < n; i++) sqls[i] = slot[i] >= 0 ? (*loaded)->items[slot[i]].sql : NULL;
    free(slot);
    return sqls;
  }
  PyObject *seq = PySequence_Fast(spec, "a system's predictions are a file path or a list of SQL strings");
  if (!seq) return free(sqls), NULL;
  if (PySequence_Fast_GET_SIZE(seq) != n) {
    PyErr_Format(ConfigError, "a system's list has %zd predictions, the gold %d items", PySequence_Fast_GET_SIZE(seq), n);
    Py_DECREF(seq);
    free(sqls);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
    if (o == Py_None) continue;
    if (!PyUnicode_Check(o) || !(sqls[i] = PyUnicode_AsUTF8(o))) {
      PyErr_Format(ConfigError, "prediction %d is neither a str nor None", i);
      Py_DECREF(seq);
      free(sqls);
      return NULL;
    }
  }
  *keep = seq; /* the strings live as long as it does */
  return sqls;
}

/* audit(gold, is_text, systems [(name, path or list)], tables, sqlite, db_dir, engine, dialect, jobs, min_score,
 * witness, timeout, now) -> (summary, [items ranked]) */
static PyObject *mod_audit(PyObject *m, PyObject *args, PyObject *kw) {
  (void)m;
  static char *kwlist[] = {"gold", "is_text", "systems", "tables", "sqlite", "db_dir", "engine", "dialect", "jobs",
                           "min_score", "witness", "timeout", "now", NULL};
  const char *gold_arg, *tables = NULL, *sqlite = NULL, *db_dir = NULL, *engine = NULL, *dialect = NULL, *now = NULL;
  int is_text = 0, jobs = 1, witness = 1;
  double min_score = 0.5, timeout = 30;
  PyObject *systems;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "spO|zzzzzidpdz", kwlist, &gold_arg, &is_text, &systems, &tables, &sqlite,
                                   &db_dir, &engine, &dialect, &jobs, &min_score, &witness, &timeout, &now))
    return NULL;
  sqlsim_error err = {0};
  sqlsim_audit_opts o = {.db_dir = db_dir, .sqlite = sqlite, .engine = engine, .jobs = jobs, .min_score = min_score,
                         .witness = witness ? 0 : -1, .timeout_s = timeout, .fixed_now = now};
  if (jobs < 1 || min_score <= 0 || min_score > 1 || timeout <= 0)
    return PyErr_Format(ConfigError, "jobs must be positive, min_score in (0, 1], timeout positive");
  if (dialect && sqlsim_dialect_parse(dialect, &o.dialect, &err)) return raise_err(&err, ConfigError);
  if (!PyList_Check(systems) || PyList_GET_SIZE(systems) < 1 || PyList_GET_SIZE(systems) > 64)
    return PyErr_Format(ConfigError, "give 1 to 64 systems' predictions");
  if (!tables && !sqlite) return PyErr_Format(ConfigError, "the schemas are needed: tables= or sqlite=");
  o.tables = tables;
  sqlsim_itemset *gold = NULL;
  if (is_text ? sqlsim_items_parse(gold_arg, strlen(gold_arg), "gold", &gold, &err) : sqlsim_items_load(gold_arg, &gold, &err))
    return raise_err(&err, NULL);
  int n = (int)PyList_GET_SIZE(systems);
  const char **sqls[64] = {0}, *names[64] = {0};
  sqlsim_itemset *loaded[64] = {0};
  PyObject *keep[64] = {0}, *res = NULL;
  int ok = 1;
  for (int p = 0; p < n && ok; p++) {
    PyObject *t = PyList_GET_ITEM(systems, p);
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(t, 0))) {
      PyErr_Format(ConfigError, "each system is a (name, predictions) pair");
      ok = 0;
    } else {
      names[p] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
      ok = (sqls[p] = system_sqls(PyTuple_GET_ITEM(t, 1), gold, &loaded[p], &keep[p])) != NULL;
    }
  }
  sqlsim_audit *a = NULL;
  if (ok) {
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = sqlsim_audit_run(gold, (const char *const *const *)sqls, names, n, &o, &a, &err);
    Py_END_ALLOW_THREADS if (rc) raise_err(&err, rc == SQLSIM_ECONFIG ? ConfigError : NULL);
  }
  if (a) {
    char *summary = sqlsim_audit_summary_json(a);
    PyObject *items = PyList_New(a->nitems);
    for (int r = 0; items && r < a->nitems; r++) {
      PyObject *d = from_json(a->items[r].json);
      if (!d) {
        Py_CLEAR(items);
        break;
      }
      PyList_SET_ITEM(items, r, d);
    }
    PyObject *sum = items ? from_json(summary) : NULL;
    if (sum) res = Py_BuildValue("(NN)", sum, items);
    else Py_XDECREF(items);
    free(summary);
    sqlsim_audit_free(a);
  }
  for (int p = 0; p < n; p++) {
    free(sqls[p]);
    sqlsim_items_free(loaded[p]);
    Py_XDECREF(keep[p]);
  }
  sqlsim_items_free(gold);
  return res;
}

/* spider2(gold, pred_dir, ids, texts, mode, flavor, rows, db_dir, sqlite, engine, tasks, jobs, timeout)
 * -> (summary, [items]): a folder (pred_dir), or texts[k] for ids[k]. */
static PyObject *mod_spider2(PyObject *m, PyObject *args, PyObject *kw) {
  (void)m;
  static char *kwlist[] = {"gold", "pred_dir", "ids", "texts", "mode", "flavor", "rows", "db_dir", "sqlite",
                           "engine", "tasks", "jobs", "timeout", NULL};
  const char *gold, *pred_dir = NULL, *db_dir = NULL, *sqlite = NULL, *engine = NULL, *tasks = NULL;
  PyObject *ids = Py_None, *texts = Py_None;
  int mode = -1, flavor = 0, rows = 0, jobs = 1;
  double timeout = 60;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "s|zOOiipzzzzid", kwlist, &gold, &pred_dir, &ids, &texts, &mode,
                                   &flavor, &rows, &db_dir, &sqlite, &engine, &tasks, &jobs, &timeout))
    return NULL;
  if (jobs < 1 || !(timeout > 0)) return PyErr_Format(ConfigError, "jobs must be positive and timeout above 0");
  size_t n = 0;
  const char **idv = NULL, **tv = NULL;
  if (!pred_dir) {
    if (!PyList_Check(ids) || !PyList_Check(texts) || PyList_GET_SIZE(ids) != PyList_GET_SIZE(texts))
      return PyErr_Format(ConfigError, "give a prediction folder, or instance ids with their texts");
    n = (size_t)PyList_GET_SIZE(ids);
    idv = calloc(n ? n : 1, sizeof *idv);
    tv = calloc(n ? n : 1, sizeof *tv);
    if (!idv || !tv) {
      free(idv), free(tv);
      return PyErr_NoMemory();
    }
    for (size_t k = 0; k < n; k++) {
      PyObject *a = PyList_GET_ITEM(ids, k), *b = PyList_GET_ITEM(texts, k);
      if (!PyUnicode_Check(a) || !PyUnicode_Check(b) || !(idv[k] = PyUnicode_AsUTF8(a)) ||
          !(tv[k] = PyUnicode_AsUTF8(b))) {
        free(idv), free(tv);
        if (!PyErr_Occurred()) PyErr_Format(ConfigError, "prediction %zd: an instance id and a str", (Py_ssize_t)k);
        return NULL;
      }
    }
  }
  sqlsim_spider2_opts o = {.gold = gold, .mode = mode, .flavor = flavor, .rows = rows, .db_dir = db_dir,
                           .sqlite = sqlite, .engine = engine, .tasks = tasks, .jobs = jobs, .timeout_s = timeout};
  sqlsim_spider2 *s = NULL;
  sqlsim_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS rc = sqlsim_spider2_run(&o, pred_dir, idv, tv, n, &s, &err);
  Py_END_ALLOW_THREADS free(idv);
  free(tv);
  if (rc) return raise_err(&err, rc == SQLSIM_ECONFIG ? ConfigError : NULL);
  char *summary = sqlsim_spider2_summary_json(s);
  PyObject *sum = from_json(summary), *items = sum ? PyList_New((Py_ssize_t)s->done) : NULL, *res = NULL;
  free(summary);
  for (size_t k = 0; items && k < s->done; k++) {
    PyObject *d = record_dict(&s->records[k]), *id = d ? PyUnicode_FromString(s->ids[k]) : NULL;
    PyObject *item = id ? PyDict_New() : NULL;
    if (!item || PyDict_SetItemString(item, "instance_id", id) || PyDict_Update(item, d)) {
      Py_XDECREF(item), Py_XDECREF(d), Py_XDECREF(id);
      Py_CLEAR(items);
      break;
    }
    Py_DECREF(d), Py_DECREF(id);
    PyList_SET_ITEM(items, (Py_ssize_t)k, item);
  }
  if (items) res = Py_BuildValue("(NN)", sum, items);
  else Py_XDECREF(sum);
  sqlsim_spider2_free(s);
  return res;
}

/* A Python value as a driver's (sqlsim_value); strs it needs kept in keep. */
static int to_value(PyObject *o, sqlsim_value *v, PyObject *keep) {
  memset(v, 0, sizeof *v);
  PyObject *str = NULL;
  if (o == Py_None) {
    v->type = SQLSIM_V_NULL;
    return 0;
  }
  if (PyBool_Check(o)) {
    v->type = SQLSIM_V_BOOL, v->i = o == Py_True;
    return 0;
  }
  if (PyLong_Check(o)) {
    int over = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &over);
    if (!over) {
      v->type = SQLSIM_V_INT, v->i = x;
      return 0;
    }
    str = PyObject_Str(o); /* past 64 bits: an object, its digits */
    v->type = SQLSIM_V_OBJECT;
  } else if (PyFloat_Check(o)) {
    v->type = SQLSIM_V_REAL, v->x = PyFloat_AS_DOUBLE(o);
    return 0;
  } else if (PyUnicode_Check(o)) {
    str = Py_NewRef(o);
    v->type = SQLSIM_V_TEXT;
  } else if (PyBytes_Check(o)) {
    v->type = SQLSIM_V_BLOB;
    v->p = PyBytes_AS_STRING(o), v->n = (size_t)PyBytes_GET_SIZE(o);
    return 0;
  } else {
    PyObject *t = PyObject_Type(o);
    PyObject *tn = t ? PyObject_GetAttrString(t, "__name__") : NULL;
    int dec = tn && PyUnicode_Check(tn) && !strcmp(PyUnicode_AsUTF8(tn), "Decimal");
    Py_XDECREF(tn), Py_XDECREF(t);
    PyErr_Clear();
    str = PyObject_Str(o);
    v->type = dec ? SQLSIM_V_DECIMAL : SQLSIM_V_OBJECT;
  }
  if (!str) return -1;
  Py_ssize_t len;
  const char *p = PyUnicode_AsUTF8AndSize(str, &len);
  if (!p || PyList_Append(keep, str)) {
    Py_DECREF(str);
    return -1;
  }
  Py_DECREF(str);
  v->p = p, v->n = (size_t)len;
  return 0;
}

/* spider2_rows_csv(rows, chunk=0) -> str: rows (a list of sequences, all as
 * long) as the CSV text the scripts would save. */
static PyObject *mod_spider2_rows_csv(PyObject *m, PyObject *args, PyObject *kw) {
  (void)m;
  static char *kwlist[] = {"rows", "ncols", "chunk", NULL};
  PyObject *rows;
  int ncols = 0;
  long chunk = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|il", kwlist, &rows, &ncols, &chunk)) return NULL;
  PyObject *seq = PySequence_Fast(rows, "rows must be a sequence of rows");
  if (!seq) return NULL;
  Py_ssize_t nr = PySequence_Fast_GET_SIZE(seq);
  PyObject *keep = PyList_New(0), *res = NULL;
  sqlsim_value *cells = NULL;
  if (!keep) goto done;
  for (Py_ssize_t r = 0; r < nr; r++) {
    PyObject *row = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, r), "each row must be a sequence of values");
    if (!row) goto done;
    Py_ssize_t nc = PySequence_Fast_GET_SIZE(row);
    if (r == 0 && !ncols) ncols = (int)nc;
    if (nc != ncols || (r == 0 && !(cells = calloc((size_t)(nr * ncols), sizeof *cells)))) {
      Py_DECREF(row);
      if (!PyErr_Occurred()) PyErr_Format(ConfigError, "row %zd has %zd values, not %d", r, nc, ncols);
      goto done;
    }
    for (Py_ssize_t c = 0; c < nc; c++)
      if (to_value(PySequence_Fast_GET_ITEM(row, c), &cells[r * ncols + c], keep)) {
        Py_DECREF(row);
        goto done;
      }
    Py_DECREF(row);
  }
  if (ncols < 1) {
    PyErr_Format(ConfigError, "a result needs at least one column (give ncols= for no rows)");
    goto done;
  }
  char *out;
  size_t len;
  sqlsim_error err = {0};
  if (sqlsim_spider2_rows_csv(cells, (long)nr, ncols, chunk, &out, &len, &err)) {
    raise_err(&err, ConfigError);
    goto done;
  }
  res = PyUnicode_DecodeUTF8(out, (Py_ssize_t)len, "surrogateescape");
  free(out);
done:
  free(cells);
  Py_XDECREF(keep);
  Py_DECREF(seq);
  return res;
}

/* ---------------------------------------------------------------- module */

static PyMethodDef Evaluator_methods[] = {
    {"score", (PyCFunction)(void (*)(void))Evaluator_score, METH_VARARGS | METH_KEYWORDS, "score(gold, pred, db_id=None) -> dict"},
    {"score_json", (PyCFunction)(void (*)(void))Evaluator_score_json, METH_VARARGS | METH_KEYWORDS, "score_json(gold, pred, db_id=None) -> str"},
    {"score_many", (PyCFunction)(void (*)(void))Evaluator_score_many, METH_VARARGS | METH_KEYWORDS, "score_many(pairs, jobs=1) -> list"},
    {"reward", (PyCFunction)(void (*)(void))Evaluator_reward, METH_VARARGS | METH_KEYWORDS, "reward(gold, pred, db_id=None, partial=0.2) -> float"},
    {"reward_many", (PyCFunction)(void (*)(void))Evaluator_reward_many, METH_VARARGS | METH_KEYWORDS, "reward_many(pairs, jobs=1, partial=0.2) -> list"},
    {"parse", (PyCFunction)(void (*)(void))Evaluator_parse, METH_VARARGS | METH_KEYWORDS, "parse(sql, db_id=None, format='sql') -> str"},
    {"diff", (PyCFunction)(void (*)(void))Evaluator_diff, METH_VARARGS | METH_KEYWORDS, "diff(gold, pred, db_id=None) -> dict"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject EvaluatorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sqlsim._sqlsim.Evaluator",
    .tp_basicsize = sizeof(EvaluatorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The engine's evaluator (see sqlsim.Evaluator).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Evaluator_init,
    .tp_dealloc = (destructor)Evaluator_dealloc,
    .tp_methods = Evaluator_methods,
};

/* extract_sql(text) -> (sql or None, where): sqlsim_extract_sql on a str or
 * a chat completion; text that is not Unicode or holds a NUL has no SQL. */
static PyObject *mod_extract_sql(PyObject *mod, PyObject *arg) {
  (void)mod;
  pytext t;
  if (text_arg(arg, "answer", 1, &t)) return NULL;
  sqlsim_extract x;
  if (t.why[0] || sqlsim_extract_sql(t.s, strlen(t.s), &x)) return Py_BuildValue("(Os)", Py_None, "none");
  return Py_BuildValue("(s#s)", t.s + x.start, (Py_ssize_t)x.len, sqlsim_extract_names[x.from]);
}

static PyMethodDef module_methods[] = {
    {"extract_sql", (PyCFunction)mod_extract_sql, METH_O, "extract_sql(answer) -> (sql or None, where)"},
    {"parse", (PyCFunction)(void (*)(void))mod_parse, METH_VARARGS | METH_KEYWORDS, "parse(sql, format='sql', dialect='sqlite') -> str"},
    {"diff", (PyCFunction)(void (*)(void))mod_diff, METH_VARARGS | METH_KEYWORDS, "diff(gold, pred, dialect='sqlite') -> dict"},
    {"rewrite", (PyCFunction)(void (*)(void))mod_rewrite, METH_VARARGS | METH_KEYWORDS, "rewrite(sql, db, ...) -> dict"},
    {"noise_floor", (PyCFunction)mod_noise_floor, METH_VARARGS, "noise_floor(self_ratios) -> dict"},
    {"redacted", (PyCFunction)mod_redacted, METH_VARARGS, "redacted(url) -> str: the URL without its password"},
    {"audit", (PyCFunction)(void (*)(void))mod_audit, METH_VARARGS | METH_KEYWORDS, "audit(gold, is_text, systems, ...) -> (summary, items)"},
    {"spider2", (PyCFunction)(void (*)(void))mod_spider2, METH_VARARGS | METH_KEYWORDS, "spider2(gold, pred_dir, ids, texts, ...) -> (summary, items)"},
    {"spider2_rows_csv", (PyCFunction)(void (*)(void))mod_spider2_rows_csv, METH_VARARGS | METH_KEYWORDS, "spider2_rows_csv(rows, ncols=0, chunk=0) -> str"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_sqlsim", "sqlsim's C engine (use the sqlsim package).", -1,
                                       module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__sqlsim(void) {
  if (PyType_Ready(&EvaluatorType) < 0) return NULL;
  PyObject *m = PyModule_Create(&moduledef);
  if (!m) return NULL;
  Error = PyErr_NewExceptionWithDoc("sqlsim.Error", "An error from sqlsim (.code, .offset: byte offset or None).", NULL, NULL);
  ParseError = PyErr_NewExceptionWithDoc("sqlsim.ParseError", "SQL that does not parse, with .offset.", Error, NULL);
  ConfigError = PyErr_NewExceptionWithDoc("sqlsim.ConfigError", "A configuration sqlsim cannot use.", Error, NULL);
  PyModule_AddObjectRef(m, "Error", Error);
  PyModule_AddObjectRef(m, "ParseError", ParseError);
  PyModule_AddObjectRef(m, "ConfigError", ConfigError);
  PyModule_AddObjectRef(m, "Evaluator", (PyObject *)&EvaluatorType);
  PyModule_AddStringConstant(m, "version", SQLSIM_VERSION);
  PyModule_AddObject(m, "AUTO_WIDTH", PyFloat_FromDouble(SQLSIM_AUTO_WIDTH));
  return m;
}
