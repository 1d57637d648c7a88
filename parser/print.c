/* print.c -- the tree back to SQLite SQL, and two dumps (S-expression, JSON).
 *
 * sqlsim_print_sql() writes SQL that SQLite runs with the same result as the
 * original: identifiers quoted only when SQLite needs it, parentheses from
 * SQLite's operator precedence, compound members that SQLite cannot take as
 * they are (one with its own ORDER BY/LIMIT) wrapped in a subquery. */
#include "core.h"

#include <sqlite3.h>
#include <string.h>

typedef struct printer {
  strbuf sb;
  unsigned options;
} printer;

static void p_node(printer *p, const sqlsim_node *n);
static void p_select(printer *p, const sqlsim_node *n);

/* ---------------------------------------------------------------- atoms */

/* Bytes past ASCII are identifier characters to SQLite (and PostgreSQL). */
static int ident_start(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80; }

static int needs_quotes(const char *s) {
  if (!*s) return 1;
  if (!ident_start((unsigned char)*s)) return 1;
  for (const char *c = s; *c; c++)
    if (!ident_start((unsigned char)*c) && !(*c >= '0' && *c <= '9')) return 1;
  return sqlite3_keyword_check(s, (int)strlen(s));
}

/* Writes a name, quoted when SQLite needs it: with "..", or with `..` where
 * a "..." that names nothing would read as a string (an unresolved column). */
static void p_ident_q(printer *p, const char *s, char q) {
  if (!s) s = "";
  if (!needs_quotes(s)) {
    sb_puts(&p->sb, s);
    return;
  }
  sb_putc(&p->sb, q);
  for (; *s; s++) {
    if (*s == q) sb_putc(&p->sb, q);
    sb_putc(&p->sb, *s);
  }
  sb_putc(&p->sb, q);
}

static void p_ident(printer *p, const char *s) { p_ident_q(p, s, '"'); }

static void p_string(printer *p, const char *s) {
  sb_putc(&p->sb, '\'');
  for (; s && *s; s++) {
    if (*s == '\'') sb_putc(&p->sb, '\'');
    sb_putc(&p->sb, *s);
  }
  sb_putc(&p->sb, '\'');
}

static const char *name_of(const sqlsim_node *n) { return n->raw ? n->raw : n->text; }

/* ---------------------------------------------------------------- precedence */

enum { PR_OR = 1, PR_AND, PR_NOT, PR_EQ, PR_REL, PR_BIT, PR_ADD, PR_MUL, PR_CONCAT, PR_COLLATE,
       PR_UNARY, PR_ATOM };

static int op_prec(int op) {
  switch (op) {
  case SQLSIM_OP_LT: case SQLSIM_OP_LE: case SQLSIM_OP_GT: case SQLSIM_OP_GE: return PR_REL;
  case SQLSIM_OP_ADD: case SQLSIM_OP_SUB: return PR_ADD;
  case SQLSIM_OP_MUL: case SQLSIM_OP_DIV: case SQLSIM_OP_MOD: return PR_MUL;
  case SQLSIM_OP_CONCAT: case SQLSIM_OP_OTHER: return PR_CONCAT;
  case SQLSIM_OP_BITAND: case SQLSIM_OP_BITOR: case SQLSIM_OP_SHL: case SQLSIM_OP_SHR:
    return PR_BIT;
  default: return PR_EQ; /* = <> IS LIKE GLOB REGEXP */
  }
}

/* A binary operator SQLite does not have (PostgreSQL's !, ^, # ...): it has no
 * place in SQLite's precedence and PostgreSQL puts all of them on one level,
 * so it is printed fully parenthesized: its operands as atoms, itself in
 * parentheses wherever it is an operand. */
static int foreign_op(const sqlsim_node *n) {
  return n->kind == SQLSIM_N_BINOP && n->op == SQLSIM_OP_OTHER &&
         !(n->text && (!strcmp(n->text, "->") || !strcmp(n->text, "->>")));
}

static int prec(const sqlsim_node *n) {
  if (foreign_op(n)) return 0;
  switch (n->kind) {
  case SQLSIM_N_OR: return n->nkids > 1 ? PR_OR : PR_ATOM;
  case SQLSIM_N_AND: return n->nkids > 1 ? PR_AND : PR_ATOM;
  case SQLSIM_N_NOT: return PR_NOT;
  case SQLSIM_N_BINOP: return op_prec(n->op);
  case SQLSIM_N_ISNULL: case SQLSIM_N_BOOLTEST: case SQLSIM_N_BETWEEN: case SQLSIM_N_IN:
    return PR_EQ;
  case SQLSIM_N_SUBLINK:
    return (n->op == SQLSIM_SUB_IN || n->op == SQLSIM_SUB_ANY || n->op == SQLSIM_SUB_ALL) ? PR_EQ
                                                                                          : PR_ATOM;
  case SQLSIM_N_COLLATE: return PR_COLLATE;
  case SQLSIM_N_UNOP: return PR_UNARY;
  case SQLSIM_N_CONST: return (n->text && n->text[0] == '-') ? PR_UNARY : PR_ATOM;
  default: return PR_ATOM;
  }
}

static void p_operand(printer *p, const sqlsim_node *n, int min) {
  if (n && prec(n) < min) {
    sb_putc(&p->sb, '(');
    p_node(p, n);
    sb_putc(&p->sb, ')');
  } else {
    p_node(p, n);
  }
}

static const char *op_text(const sqlsim_node *n) {
  switch (n->op) {
  case SQLSIM_OP_EQ: return "=";
  case SQLSIM_OP_NE: return "<>";
  case SQLSIM_OP_LT: return "<";
  case SQLSIM_OP_LE: return "<=";
  case SQLSIM_OP_GT: return ">";
  case SQLSIM_OP_GE: return ">=";
  case SQLSIM_OP_IS: return "IS";
  case SQLSIM_OP_ISNOT: return "IS NOT";
  case SQLSIM_OP_ADD: return "+";
  case SQLSIM_OP_SUB: return "-";
  case SQLSIM_OP_MUL: return "*";
  case SQLSIM_OP_DIV: return "/";
  case SQLSIM_OP_MOD: return "%";
  case SQLSIM_OP_CONCAT: return "||";
  case SQLSIM_OP_BITAND: return "&";
  case SQLSIM_OP_BITOR: return "|";
  case SQLSIM_OP_SHL: return "<<";
  case SQLSIM_OP_SHR: return ">>";
  case SQLSIM_OP_LIKE: return "LIKE";
  case SQLSIM_OP_NOTLIKE: return "NOT LIKE";
  case SQLSIM_OP_GLOB: return "GLOB";
  case SQLSIM_OP_NOTGLOB: return "NOT GLOB";
  case SQLSIM_OP_REGEXP: return "REGEXP";
  case SQLSIM_OP_NOTREGEXP: return "NOT REGEXP";
  case SQLSIM_OP_ILIKE: return "ILIKE";
  case SQLSIM_OP_NOTILIKE: return "NOT ILIKE";
  default: return n->text ? n->text : "?";
  }
}

/* ---------------------------------------------------------------- pieces */

static void p_list(printer *p, const sqlsim_node *l, const char *sep) {
  for (uint32_t i = 0; l && i < l->nkids; i++) {
    if (i) sb_puts(&p->sb, sep);
    p_node(p, l->kids[i]);
  }
}

static void p_frame_bound(printer *p, int opts, int unb_prec, int unb_foll, int cur, int off_prec,
                          int off_foll, const sqlsim_node *off) {
  if (opts & unb_prec) sb_puts(&p->sb, "UNBOUNDED PRECEDING");
  else if (opts & unb_foll) sb_puts(&p->sb, "UNBOUNDED FOLLOWING");
  else if (opts & cur) sb_puts(&p->sb, "CURRENT ROW");
  else if (opts & (off_prec | off_foll)) {
    p_operand(p, off, PR_ATOM);
    sb_puts(&p->sb, (opts & off_prec) ? " PRECEDING" : " FOLLOWING");
  }
}

/* PostgreSQL frame option bits (nodes/parsenodes.h). */
enum { FO_NONDEFAULT = 0x1, FO_RANGE = 0x2, FO_ROWS = 0x4, FO_GROUPS = 0x8, FO_BETWEEN = 0x10,
       FO_S_UNB_PREC = 0x20, FO_E_UNB_PREC = 0x40, FO_S_UNB_FOLL = 0x80, FO_E_UNB_FOLL = 0x100,
       FO_S_CUR = 0x200, FO_E_CUR = 0x400, FO_S_OFF_PREC = 0x800, FO_E_OFF_PREC = 0x1000,
       FO_S_OFF_FOLL = 0x2000, FO_E_OFF_FOLL = 0x4000, FO_EXCL_CUR = 0x8000,
       FO_EXCL_GROUP = 0x10000, FO_EXCL_TIES = 0x20000 };

static void p_window_body(printer *p, const sqlsim_node *w) {
  int sp = 0;
  if (w->text) {
    p_ident(p, w->text);
    sp = 1;
  }
  if (w->kids[0]) {
    sb_puts(&p->sb, sp ? " PARTITION BY " : "PARTITION BY ");
    p_list(p, w->kids[0], ", ");
    sp = 1;
  }
  if (w->kids[1]) {
    sb_puts(&p->sb, sp ? " ORDER BY " : "ORDER BY ");
    p_list(p, w->kids[1], ", ");
    sp = 1;
  }
  int o = w->aux;
  if (o & FO_NONDEFAULT) {
    if (sp) sb_putc(&p->sb, ' ');
    sb_puts(&p->sb, (o & FO_ROWS) ? "ROWS " : (o & FO_GROUPS) ? "GROUPS " : "RANGE ");
    if (o & FO_BETWEEN) sb_puts(&p->sb, "BETWEEN ");
    p_frame_bound(p, o, FO_S_UNB_PREC, FO_S_UNB_FOLL, FO_S_CUR, FO_S_OFF_PREC, FO_S_OFF_FOLL,
                  w->kids[2]);
    if (o & FO_BETWEEN) {
      sb_puts(&p->sb, " AND ");
      p_frame_bound(p, o, FO_E_UNB_PREC, FO_E_UNB_FOLL, FO_E_CUR, FO_E_OFF_PREC, FO_E_OFF_FOLL,
                    w->kids[3]);
    }
    if (o & FO_EXCL_CUR) sb_puts(&p->sb, " EXCLUDE CURRENT ROW");
    if (o & FO_EXCL_GROUP) sb_puts(&p->sb, " EXCLUDE GROUP");
    if (o & FO_EXCL_TIES) sb_puts(&p->sb, " EXCLUDE TIES");
  }
}

static void p_func(printer *p, const sqlsim_node *n) {
  if (n->aux == 1) { /* CURRENT_DATE and friends */
    for (const char *c = n->text; *c; c++) sb_putc(&p->sb, (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c));
    return;
  }
  p_ident(p, n->text);
  sb_putc(&p->sb, '(');
  if (n->flags & SQLSIM_F_STAR) sb_putc(&p->sb, '*');
  if (n->flags & SQLSIM_F_DISTINCT) sb_puts(&p->sb, "DISTINCT ");
  p_list(p, n->kids[0], ", ");
  sb_putc(&p->sb, ')');
  if (n->kids[1]) {
    sb_puts(&p->sb, " FILTER (WHERE ");
    p_node(p, n->kids[1]);
    sb_putc(&p->sb, ')');
  }
  if (n->kids[2]) {
    const sqlsim_node *w = n->kids[2];
    sb_puts(&p->sb, " OVER ");
    if (w->text && !w->kids[0] && !w->kids[1] && !(w->aux & FO_NONDEFAULT)) {
      p_ident(p, w->text);
    } else {
      sb_putc(&p->sb, '(');
      p_window_body(p, w);
      sb_putc(&p->sb, ')');
    }
  }
}

static void p_from_item(printer *p, const sqlsim_node *n, int nested) {
  switch (n->kind) {
  case SQLSIM_N_TABLE:
    p_ident(p, name_of(n));
    if (n->alias) {
      sb_puts(&p->sb, " AS ");
      p_ident(p, n->alias);
    }
    break;
  case SQLSIM_N_SUBQUERY:
    sb_putc(&p->sb, '(');
    p_select(p, n->kids[0]);
    sb_putc(&p->sb, ')');
    if (n->alias) {
      sb_puts(&p->sb, " AS ");
      p_ident(p, n->alias);
    }
    break;
  case SQLSIM_N_FUNCTABLE:
    p_node(p, n->kids[0]);
    if (n->alias) {
      sb_puts(&p->sb, " AS ");
      p_ident(p, n->alias);
    }
    break;
  case SQLSIM_N_JOIN: {
    static const char *kw[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "JOIN"};
    if (nested) sb_putc(&p->sb, '(');
    p_from_item(p, n->kids[0], 0);
    sb_putc(&p->sb, ' ');
    if (n->flags & SQLSIM_F_NATURAL) sb_puts(&p->sb, "NATURAL ");
    sb_puts(&p->sb, kw[n->op < 5 ? n->op : 0]);
    sb_putc(&p->sb, ' ');
    p_from_item(p, n->kids[1], 1);
    if (n->kids[2]) {
      sb_puts(&p->sb, " ON ");
      p_node(p, n->kids[2]);
    }
    if (n->kids[3]) {
      sb_puts(&p->sb, " USING (");
      for (uint32_t i = 0; i < n->kids[3]->nkids; i++) {
        if (i) sb_puts(&p->sb, ", ");
        p_ident(p, name_of(n->kids[3]->kids[i]));
      }
      sb_putc(&p->sb, ')');
    }
    if (nested) sb_putc(&p->sb, ')');
    break;
  }
  default:
    p_node(p, n);
  }
}

/* A compound member SQLite cannot take bare (its own ORDER BY, LIMIT, WITH). */
static int member_needs_wrap(const sqlsim_node *s) {
  return s->op == SQLSIM_SET_NONE &&
         (s->kids[SQLSIM_SEL_ORDER] || s->kids[SQLSIM_SEL_LIMIT] || s->kids[SQLSIM_SEL_WITH]);
}

static void p_member(printer *p, const sqlsim_node *s, int right) {
  if (member_needs_wrap(s) || (right && s->op != SQLSIM_SET_NONE)) {
    sb_puts(&p->sb, "SELECT * FROM (");
    p_select(p, s);
    sb_putc(&p->sb, ')');
  } else {
    p_select(p, s);
  }
}

static void p_tail(printer *p, const sqlsim_node *n) {
  if (n->kids[SQLSIM_SEL_ORDER]) {
    sb_puts(&p->sb, " ORDER BY ");
    p_list(p, n->kids[SQLSIM_SEL_ORDER], ", ");
  }
  if (n->kids[SQLSIM_SEL_LIMIT]) {
    sb_puts(&p->sb, " LIMIT ");
    p_node(p, n->kids[SQLSIM_SEL_LIMIT]);
  } else if (n->kids[SQLSIM_SEL_OFFSET]) {
    sb_puts(&p->sb, " LIMIT -1");
  }
  if (n->kids[SQLSIM_SEL_OFFSET]) {
    sb_puts(&p->sb, " OFFSET ");
    p_node(p, n->kids[SQLSIM_SEL_OFFSET]);
  }
}

static void p_select(printer *p, const sqlsim_node *n) {
  const sqlsim_node *with = n->kids[SQLSIM_SEL_WITH];
  if (with) {
    sb_puts(&p->sb, (with->flags & SQLSIM_F_RECURSIVE) ? "WITH RECURSIVE " : "WITH ");
    for (uint32_t i = 0; i < with->nkids; i++) {
      const sqlsim_node *cte = with->kids[i];
      if (i) sb_puts(&p->sb, ", ");
      p_ident(p, name_of(cte));
      if (cte->kids[1]) {
        sb_puts(&p->sb, " (");
        for (uint32_t k = 0; k < cte->kids[1]->nkids; k++) {
          if (k) sb_puts(&p->sb, ", ");
          p_ident(p, name_of(cte->kids[1]->kids[k]));
        }
        sb_putc(&p->sb, ')');
      }
      sb_puts(&p->sb, " AS (");
      p_select(p, cte->kids[0]);
      sb_putc(&p->sb, ')');
    }
    sb_putc(&p->sb, ' ');
  }
  if (n->op != SQLSIM_SET_NONE) {
    static const char *ops[] = {"", "UNION", "INTERSECT", "EXCEPT"};
    p_member(p, n->kids[SQLSIM_SEL_LARG], 0);
    sb_printf(&p->sb, " %s%s ", ops[n->op & 3], (n->flags & SQLSIM_F_ALL) ? " ALL" : "");
    p_member(p, n->kids[SQLSIM_SEL_RARG], 1);
    p_tail(p, n);
    return;
  }
  if (n->kids[SQLSIM_SEL_VALUES]) {
    p_node(p, n->kids[SQLSIM_SEL_VALUES]);
    p_tail(p, n);
    return;
  }
  sb_puts(&p->sb, "SELECT ");
  if (n->kids[SQLSIM_SEL_DISTINCT_ON]) { /* PostgreSQL's: no SQLite text has it */
    sb_puts(&p->sb, "DISTINCT ON (");
    p_list(p, n->kids[SQLSIM_SEL_DISTINCT_ON], ", ");
    sb_puts(&p->sb, ") ");
  } else if (n->flags & SQLSIM_F_DISTINCT) {
    sb_puts(&p->sb, "DISTINCT ");
  }
  p_list(p, n->kids[SQLSIM_SEL_TARGETS], ", ");
  const sqlsim_node *from = n->kids[SQLSIM_SEL_FROM];
  if (from && from->nkids) {
    sb_puts(&p->sb, " FROM ");
    for (uint32_t i = 0; i < from->nkids; i++) {
      if (i) sb_puts(&p->sb, ", ");
      p_from_item(p, from->kids[i], 0);
    }
  }
  if (n->kids[SQLSIM_SEL_WHERE]) {
    sb_puts(&p->sb, " WHERE ");
    p_node(p, n->kids[SQLSIM_SEL_WHERE]);
  }
  if (n->kids[SQLSIM_SEL_GROUP]) {
    sb_puts(&p->sb, " GROUP BY ");
    p_list(p, n->kids[SQLSIM_SEL_GROUP], ", ");
  }
  if (n->kids[SQLSIM_SEL_HAVING]) {
    sb_puts(&p->sb, " HAVING ");
    p_node(p, n->kids[SQLSIM_SEL_HAVING]);
  }
  if (n->kids[SQLSIM_SEL_WINDOW]) {
    sb_puts(&p->sb, " WINDOW ");
    const sqlsim_node *l = n->kids[SQLSIM_SEL_WINDOW];
    for (uint32_t i = 0; i < l->nkids; i++) {
      if (i) sb_puts(&p->sb, ", ");
      p_ident(p, l->kids[i]->alias);
      sb_puts(&p->sb, " AS (");
      p_window_body(p, l->kids[i]);
      sb_putc(&p->sb, ')');
    }
  }
  p_tail(p, n);
}

static void p_node(printer *p, const sqlsim_node *n) {
  if (!n) return;
  switch (n->kind) {
  case SQLSIM_N_SELECT:
    p_select(p, n);
    break;
  case SQLSIM_N_LIST:
    p_list(p, n, ", ");
    break;
  case SQLSIM_N_TARGET:
    p_node(p, n->kids[0]);
    if (n->text) {
      sb_puts(&p->sb, " AS ");
      p_ident(p, name_of(n));
    }
    break;
  case SQLSIM_N_TABLE:
  case SQLSIM_N_SUBQUERY:
  case SQLSIM_N_JOIN:
  case SQLSIM_N_FUNCTABLE:
    p_from_item(p, n, 0);
    break;
  case SQLSIM_N_SORT:
    p_node(p, n->kids[0]);
    if (n->op == SQLSIM_SORT_ASC) sb_puts(&p->sb, " ASC");
    if (n->op == SQLSIM_SORT_DESC) sb_puts(&p->sb, " DESC");
    if (n->aux == SQLSIM_NULLS_FIRST) sb_puts(&p->sb, " NULLS FIRST");
    if (n->aux == SQLSIM_NULLS_LAST) sb_puts(&p->sb, " NULLS LAST");
    break;
  case SQLSIM_N_COLUMN:
    if ((p->options & SQLSIM_PRINT_QUALIFY) && n->source && n->source->kind == SQLSIM_N_TABLE &&
        !(n->flags & SQLSIM_F_ALIASREF)) {
      p_ident(p, n->source->text); /* the table, whatever alias the query gave it */
      sb_putc(&p->sb, '.');
    } else if (n->alias) {
      p_ident(p, n->alias);
      sb_putc(&p->sb, '.');
    }
    if (n->alias || n->source) {
      p_ident(p, name_of(n));
    } else { /* `..` (SQLite reads ".." naming no column as a string); [..] when the name has a `,
              * since doubled backticks at the start read as a Markdown fence */
      const char *nm = name_of(n);
      char q = nm && strchr(nm, '`') ? (strchr(nm, ']') ? '"' : '[') : '`';
      if (q == '[' && needs_quotes(nm)) sb_printf(&p->sb, "[%s]", nm);
      else p_ident_q(p, nm, q);
    }
    break;
  case SQLSIM_N_STAR:
    if (n->alias) {
      p_ident(p, n->alias);
      sb_putc(&p->sb, '.');
    }
    sb_putc(&p->sb, '*');
    break;
  case SQLSIM_N_CONST:
    switch (n->op) {
    case SQLSIM_CONST_STRING: p_string(p, n->text); break;
    case SQLSIM_CONST_BLOB: sb_printf(&p->sb, "X'%s'", n->text); break;
    default: sb_puts(&p->sb, n->text);
    }
    break;
  case SQLSIM_N_PARAM:
    sb_puts(&p->sb, n->text);
    break;
  case SQLSIM_N_BINOP: {
    int pr = foreign_op(n) ? PR_ATOM : op_prec(n->op);
    p_operand(p, n->kids[0], pr);
    sb_printf(&p->sb, " %s ", op_text(n));
    p_operand(p, n->kids[1], pr == PR_ATOM ? pr : pr + 1);
    if (n->nkids > 2 && n->kids[2]) {
      sb_puts(&p->sb, " ESCAPE ");
      p_operand(p, n->kids[2], pr + 1);
    }
    break;
  }
  case SQLSIM_N_UNOP:
    sb_puts(&p->sb, n->op == SQLSIM_OP_NEG ? "-" : n->op == SQLSIM_OP_PLUS ? "+" : "~"); /* the only prefix operators build.c keeps */
    p_operand(p, n->kids[0], PR_ATOM);
    break;
  case SQLSIM_N_AND:
  case SQLSIM_N_OR: {
    int pr = n->kind == SQLSIM_N_AND ? PR_AND : PR_OR;
    for (uint32_t i = 0; i < n->nkids; i++) {
      if (i) sb_puts(&p->sb, pr == PR_AND ? " AND " : " OR ");
      p_operand(p, n->kids[i], pr + 1);
    }
    break;
  }
  case SQLSIM_N_NOT:
    sb_puts(&p->sb, "NOT ");
    p_operand(p, n->kids[0], PR_NOT);
    break;
  case SQLSIM_N_ISNULL:
    p_operand(p, n->kids[0], PR_EQ + 1);
    sb_puts(&p->sb, n->op == SQLSIM_NOTNULL ? " IS NOT NULL" : " IS NULL");
    break;
  case SQLSIM_N_BOOLTEST: {
    static const char *t[] = {" IS TRUE", " IS NOT TRUE", " IS FALSE", " IS NOT FALSE",
                              " IS NULL", " IS NOT NULL"};
    p_operand(p, n->kids[0], PR_EQ + 1);
    sb_puts(&p->sb, t[n->op < 6 ? n->op : 0]);
    break;
  }
  case SQLSIM_N_BETWEEN:
    p_operand(p, n->kids[0], PR_EQ + 1);
    sb_puts(&p->sb, (n->flags & SQLSIM_F_NOT) ? " NOT BETWEEN " : " BETWEEN ");
    p_operand(p, n->kids[1], PR_EQ + 1);
    sb_puts(&p->sb, " AND ");
    p_operand(p, n->kids[2], PR_EQ + 1);
    break;
  case SQLSIM_N_IN:
    p_operand(p, n->kids[0], PR_EQ + 1);
    sb_puts(&p->sb, (n->flags & SQLSIM_F_NOT) ? " NOT IN (" : " IN (");
    p_list(p, n->kids[1], ", ");
    sb_putc(&p->sb, ')');
    break;
  case SQLSIM_N_SUBLINK:
    switch (n->op) {
    case SQLSIM_SUB_EXISTS:
      sb_puts(&p->sb, (n->flags & SQLSIM_F_NOT) ? "NOT EXISTS (" : "EXISTS (");
      break;
    case SQLSIM_SUB_IN:
      p_operand(p, n->kids[0], PR_EQ + 1);
      sb_puts(&p->sb, (n->flags & SQLSIM_F_NOT) ? " NOT IN (" : " IN (");
      break;
    case SQLSIM_SUB_ANY:
    case SQLSIM_SUB_ALL:
      p_operand(p, n->kids[0], PR_EQ + 1);
      sb_printf(&p->sb, " %s %s (", n->text ? n->text : "=", n->op == SQLSIM_SUB_ANY ? "ANY" : "ALL");
      break;
    default:
      sb_putc(&p->sb, '(');
    }
    p_select(p, n->kids[1]);
    sb_putc(&p->sb, ')');
    break;
  case SQLSIM_N_FUNC:
    p_func(p, n);
    break;
  case SQLSIM_N_CASE:
    sb_puts(&p->sb, "CASE");
    if (n->kids[0]) {
      sb_putc(&p->sb, ' ');
      p_node(p, n->kids[0]);
    }
    for (uint32_t i = 2; i < n->nkids; i++) {
      sb_puts(&p->sb, " WHEN ");
      p_node(p, n->kids[i]->kids[0]);
      sb_puts(&p->sb, " THEN ");
      p_node(p, n->kids[i]->kids[1]);
    }
    if (n->kids[1]) {
      sb_puts(&p->sb, " ELSE ");
      p_node(p, n->kids[1]);
    }
    sb_puts(&p->sb, " END");
    break;
  case SQLSIM_N_WHEN:
    sb_puts(&p->sb, "WHEN ");
    p_node(p, n->kids[0]);
    sb_puts(&p->sb, " THEN ");
    p_node(p, n->kids[1]);
    break;
  case SQLSIM_N_CAST:
    sb_puts(&p->sb, "CAST(");
    p_node(p, n->kids[0]);
    sb_printf(&p->sb, " AS %s)", n->text);
    break;
  case SQLSIM_N_COLLATE:
    p_operand(p, n->kids[0], PR_COLLATE);
    sb_puts(&p->sb, " COLLATE ");
    p_ident(p, name_of(n));
    break;
  case SQLSIM_N_ROW:
    sb_putc(&p->sb, '(');
    p_list(p, n, ", ");
    sb_putc(&p->sb, ')');
    break;
  case SQLSIM_N_VALUES:
    sb_puts(&p->sb, "VALUES ");
    for (uint32_t i = 0; i < n->nkids; i++) {
      if (i) sb_puts(&p->sb, ", ");
      p_node(p, n->kids[i]);
    }
    break;
  case SQLSIM_N_WINDOW:
    sb_putc(&p->sb, '(');
    p_window_body(p, n);
    sb_putc(&p->sb, ')');
    break;
  case SQLSIM_N_CTE:
    p_ident(p, name_of(n));
    sb_puts(&p->sb, " AS (");
    p_select(p, n->kids[0]);
    sb_putc(&p->sb, ')');
    break;
  default:
    sb_puts(&p->sb, "?");
  }
}

char *sqlsim_print_sql(const sqlsim_node *n, unsigned options) {
  printer p = {{0}, options};
  p_node(&p, n);
  return sb_take(&p.sb);
}

/* ---------------------------------------------------------------- dumps */

static const char *kind_names[] = {
    "?",      "SELECT",   "LIST",     "TARGET", "TABLE",   "SUBQUERY", "JOIN",   "FUNCTABLE",
    "CTE",    "SORT",     "COLUMN",   "STAR",   "CONST",   "PARAM",    "BINOP",  "UNOP",
    "AND",    "OR",       "NOT",      "ISNULL", "BOOLTEST", "BETWEEN", "IN",     "SUBLINK",
    "FUNC",   "CASE",     "WHEN",     "CAST",   "COLLATE", "ROW",      "WINDOW", "VALUES"};

const char *sqlsim_kind_name(int kind) {
  return kind > 0 && kind < SQLSIM_N__COUNT ? kind_names[kind] : "?";
}

const char *sqlsim_op_name(int op) {
  sqlsim_node n = {0};
  n.op = (uint16_t)op;
  if (op == SQLSIM_OP_NEG) return "NEG";
  if (op == SQLSIM_OP_PLUS) return "PLUS";
  if (op == SQLSIM_OP_BITNOT) return "BITNOT";
  return op_text(&n);
}

static const char *slot_names[SQLSIM_SEL__COUNT] = {"with",  "targets", "from",   "where", "group",
                                                    "having", "order",  "limit",  "offset", "larg",
                                                    "rarg",  "window",  "values", "distinct_on"};

static const struct {
  uint32_t f;
  const char *name;
} flag_names[] = {{SQLSIM_F_UNORDERED, "unordered"}, {SQLSIM_F_DISTINCT, "distinct"},
                  {SQLSIM_F_NOT, "not"},             {SQLSIM_F_ALL, "all"},
                  {SQLSIM_F_STAR, "star"},           {SQLSIM_F_UNRESOLVED, "unresolved"},
                  {SQLSIM_F_AMBIGUOUS, "ambiguous"}, {SQLSIM_F_ALIASREF, "aliasref"},
                  {SQLSIM_F_OUTER, "outer"},         {SQLSIM_F_DQSTRING, "dqstring"},
                  {SQLSIM_F_NATURAL, "natural"},     {SQLSIM_F_DIALECT, "dialect"},
                  {SQLSIM_F_RECURSIVE, "recursive"}, {SQLSIM_F_SYNTHETIC, "synthetic"},
                  {SQLSIM_F_SWAPPED, "swapped"},     {SQLSIM_F_CTEREF, "cteref"},
                  {SQLSIM_F_FILTER, "filter"}};

/* The op of a node as a word, or NULL when the kind has none. */
static const char *op_word(const sqlsim_node *n) {
  static const char *setops[] = {NULL, "UNION", "INTERSECT", "EXCEPT"};
  static const char *joins[] = {"INNER", "LEFT", "RIGHT", "FULL", "CROSS"};
  static const char *sorts[] = {NULL, "ASC", "DESC"};
  static const char *consts[] = {"int", "float", "string", "null", "bool", "blob"};
  static const char *subs[] = {"EXISTS", "IN", "SCALAR", "ANY", "ALL"};
  switch (n->kind) {
  case SQLSIM_N_SELECT: return setops[n->op & 3];
  case SQLSIM_N_JOIN: return joins[n->op % 5];
  case SQLSIM_N_SORT: return sorts[n->op % 3];
  case SQLSIM_N_CONST: return consts[n->op % 6];
  case SQLSIM_N_SUBLINK: return subs[n->op % 5];
  case SQLSIM_N_BINOP: case SQLSIM_N_UNOP: return sqlsim_op_name(n->op);
  case SQLSIM_N_ISNULL: return n->op == SQLSIM_NOTNULL ? "NOTNULL" : "ISNULL";
  default: return NULL;
  }
}

static void dump_tree(strbuf *sb, const sqlsim_node *n, int depth, const char *slot) {
  for (int i = 0; i < depth; i++) sb_puts(sb, "  ");
  if (slot) sb_printf(sb, "%s: ", slot);
  sb_printf(sb, "(%s", sqlsim_kind_name(n->kind));
  const char *ow = op_word(n);
  if (ow) sb_printf(sb, " %s", ow);
  if (n->text) {
    sb_putc(sb, ' ');
    sb_json_str(sb, n->text);
  }
  if (n->alias) sb_printf(sb, " alias=%s", n->alias);
  if (n->kind == SQLSIM_N_COLUMN && n->table >= 0) sb_printf(sb, " table#%d col#%d", n->table, n->column);
  if (n->kind == SQLSIM_N_TABLE && n->table >= 0) sb_printf(sb, " table#%d", n->table);
  if ((n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_STAR) && n->source &&
      n->source->kind != SQLSIM_N_TARGET)
    sb_printf(sb, " from=%u", n->source->instance);
  if (n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_SUBQUERY) sb_printf(sb, " inst=%u", n->instance);
  for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
    if (n->flags & flag_names[i].f) sb_printf(sb, " :%s", flag_names[i].name);
  if (n->start >= 0) sb_printf(sb, " @%d-%d", n->start, n->end);
  for (uint32_t i = 0; i < n->nkids; i++) {
    if (!n->kids[i]) continue;
    sb_putc(sb, '\n');
    dump_tree(sb, n->kids[i], depth + 1,
              n->kind == SQLSIM_N_SELECT && i < SQLSIM_SEL__COUNT ? slot_names[i] : NULL);
  }
  sb_putc(sb, ')');
}

char *sqlsim_print_tree(const sqlsim_node *n) {
  strbuf sb = {0};
  if (n) dump_tree(&sb, n, 0, NULL);
  sb_putc(&sb, '\n');
  return sb_take(&sb);
}

static void dump_json(strbuf *sb, const sqlsim_node *n) {
  sb_printf(sb, "{\"kind\":\"%s\"", sqlsim_kind_name(n->kind));
  const char *ow = op_word(n);
  if (ow) {
    sb_puts(sb, ",\"op\":");
    sb_json_str(sb, ow);
  }
  if (n->text) {
    sb_puts(sb, ",\"text\":");
    sb_json_str(sb, n->text);
  }
  if (n->alias) {
    sb_puts(sb, ",\"alias\":");
    sb_json_str(sb, n->alias);
  }
  if (n->table >= 0 && (n->kind == SQLSIM_N_COLUMN || n->kind == SQLSIM_N_TABLE))
    sb_printf(sb, ",\"table\":%d", n->table);
  if (n->column >= 0) sb_printf(sb, ",\"column\":%d", n->column);
  if (n->kind == SQLSIM_N_TABLE || n->kind == SQLSIM_N_SUBQUERY) sb_printf(sb, ",\"instance\":%u", n->instance);
  int first = 1;
  for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
    if (n->flags & flag_names[i].f) {
      sb_puts(sb, first ? ",\"flags\":[" : ",");
      sb_json_str(sb, flag_names[i].name);
      first = 0;
    }
  if (!first) sb_putc(sb, ']');
  if (n->start >= 0) sb_printf(sb, ",\"span\":[%d,%d]", n->start, n->end);
  if (n->kind == SQLSIM_N_SELECT) {
    for (uint32_t i = 0; i < n->nkids && i < SQLSIM_SEL__COUNT; i++) {
      if (!n->kids[i]) continue;
      sb_printf(sb, ",\"%s\":", slot_names[i]);
      dump_json(sb, n->kids[i]);
    }
  } else if (n->nkids) {
    sb_puts(sb, ",\"kids\":[");
    for (uint32_t i = 0; i < n->nkids; i++) {
      if (i) sb_putc(sb, ',');
      if (n->kids[i]) dump_json(sb, n->kids[i]);
      else sb_puts(sb, "null");
    }
    sb_putc(sb, ']');
  }
  sb_putc(sb, '}');
}

char *sqlsim_print_json(const sqlsim_node *n) {
  strbuf sb = {0};
  if (n) dump_json(&sb, n);
  else sb_puts(&sb, "null");
  return sb_take(&sb);
}
