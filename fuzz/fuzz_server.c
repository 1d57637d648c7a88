/* fuzz_server.c -- what the server engines read before any server does:
 * an engine URL (parsed, {db_id} replaced, shown without its password), the
 * guard over model SQL in both dialects, and the cells a server's text
 * becomes (numerals of any length, dates, stamps with zones), with their
 * properties: a parsed URL's password never in its redacted form, a cell's
 * hash the same twice (NaN aside), a refusal always with its reason; and a
 * name (a table or column of a user's database) quoted for each server: it
 * reads back as itself, the quotes inside doubled (each entry's put_name). */
#include "fuzz_common.h"
#include "exec/server.h"

#include <stdio.h>

/* The name an engine's put_name quoted, read back: one quoted identifier
 * whose inside undoubles to name (folded: a plain name to lower case). */
static void check_name(const char *name, const exec_engine *e) {
  strbuf sb = {0};
  e->put_name(&sb, name);
  int folds = e->put_name == srv_put_name_folded;
  char q = sb.buf ? sb.buf[0] : 0;
  if (!sb.buf || sb.len < 2 || (q != '"' && q != '`') || sb.buf[sb.len - 1] != q) abort();
  size_t k = 0;
  for (size_t i = 1; i + 1 < sb.len; i++) {
    if (sb.buf[i] == q && (i + 2 >= sb.len || sb.buf[++i] != q)) abort(); /* a lone quote ends it early */
    char want = name[k++];
    if (want != sb.buf[i] && !(folds && want >= 'A' && want <= 'Z' && sb.buf[i] == want + 32)) abort();
  }
  if (name[k]) abort();
  free(sb.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  sqlsim_error err = {0};
  for (int i = 0; exec_engines[i]; i++) check_name(text, exec_engines[i]);
  srv_url u;
  if (srv_url_parse(text, "db_1", &u, &err) == 0) {
    char *shown = srv_url_redact(text);
    /* the password written in the userinfo (user:PASSWORD@) is not shown,
     * unless the same text stands elsewhere in the URL too */
    const char *auth = strstr(text, "://") + 3;
    size_t an = strcspn(auth, "/?#");
    const char *at = NULL;
    for (size_t i = 0; i < an; i++)
      if (auth[i] == '@') at = auth + i;
    const char *colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
    if (colon && at - colon > 1 && shown) {
      size_t pn = (size_t)(at - colon - 1);
      char *pw = strndup(colon + 1, pn);
      const char *first = strstr(text, pw), *last = first;
      for (const char *q = first; q; q = strstr(q + 1, pw)) last = q;
      if (pw && first == last && strspn(pw, "*") != pn && strstr(shown, pw)) {
        fprintf(stderr, "password shown: %s\n", shown);
        abort();
      }
      free(pw);
    }
    free(shown);
    srv_url_clear(&u);
  }
  char *x = srv_url_expand(text, "a/b", &err); /* a db_id that is no name: refused */
  free(x);
  for (int i = 0; exec_engines[i]; i++) {
    if (!exec_engines[i]->first) continue; /* SQLite: the authorizer, not the guard */
    char why[256] = "";
    int st = srv_guard(exec_engines[i], text, why, sizeof why);
    if (st && !why[0]) abort(); /* a refusal says why */
  }
  static const int types[] = {SRV_DECIMAL, SRV_DATE, SRV_TIMESTAMP, SRV_TIMESTAMPTZ, SRV_TIME, SRV_TEXT, SRV_BLOB};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
    srv_cell c = {types[t], 0, 0, text, size};
    double n1, n2;
    unsigned char k1, k2;
    uint64_t h1 = srv_cell_hash(&c, &n1, &k1), h2 = srv_cell_hash(&c, &n2, &k2);
    if (h1 != h2 && n1 == n1) { /* NaN alone equals nothing, itself included */
      fprintf(stderr, "a cell hashes two ways: type %d\n", types[t]);
      abort();
    }
  }
  free(text);
  return 0;
}
