/* error.c -- the error struct every fallible function fills. */
#include "core.h"

#include <stdarg.h>
#include <stdio.h>

int sqlsim_error_set(sqlsim_error *err, int code, int offset, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->code = code;
    err->offset = offset;
  }
  return code;
}
