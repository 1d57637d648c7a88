/* threads.c -- the library's per-thread state, released on demand: the
 * parser's scratch arena and libpg_query's memory (parser/parse.c), and the
 * sandbox's per-thread buffers of the replaced SQL functions
 * (exec/sqlfuncs.c). Each is freed anyway when its thread exits; a caller
 * that checks for leaks before exit calls sqlsim_thread_cleanup(). */
#include "core.h"
#include "exec/exec.h"
#include "parser/tree.h"

void sqlsim_thread_cleanup(void) {
  parse_thread_cleanup();
  sqlfuncs_thread_cleanup();
}
