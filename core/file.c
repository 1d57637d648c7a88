/* file.c -- reading the files users hand to sqlsim, whatever they turn out to be.
 *
 * A path may name a regular file, a pipe or process substitution (<(cmd),
 * /dev/fd/N), or "-" for standard input; everything is read by streaming to
 * the end, never by seeking, so all of these work alike. A directory, a block
 * device or a socket is refused with a message saying what it is, and input
 * past FILE_MAX_BYTES is refused rather than read into memory without end
 * (/dev/zero, a runaway pipe). */
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_MAX_BYTES ((size_t)1 << 30)

int core_file_read(const char *path, char **out, size_t *len, sqlsim_error *err) {
  *out = NULL;
  *len = 0;
  int stdin_ = !strcmp(path, "-");
  int fd = stdin_ ? 0 : open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot read: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    if (!stdin_) close(fd);
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot read: %s", path, strerror(e));
  }
  const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                     : S_ISCHR(st.st_mode) && !stdin_ && strncmp(path, "/dev/fd/", 8) &&
                             strncmp(path, "/dev/stdin", 10) && strncmp(path, "/proc/self/fd/", 14)
                         ? "a device"
                         : NULL;
  if (what) {
    if (!stdin_) close(fd);
    return sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: is %s, not a file", path, what);
  }
  size_t cap = S_ISREG(st.st_mode) && st.st_size > 0 && (size_t)st.st_size < FILE_MAX_BYTES ? (size_t)st.st_size + 1
                                                                                            : 65536;
  char *buf = malloc(cap);
  size_t n = 0;
  int rc = 0;
  while (buf) {
    if (n + 1 >= cap) {
      if (cap > FILE_MAX_BYTES) {
        rc = sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: larger than %zu MiB (sqlsim's limit for one input)", path,
                              FILE_MAX_BYTES >> 20);
        break;
      }
      char *b = realloc(buf, cap * 2);
      if (!b) break;
      buf = b;
      cap *= 2;
    }
    ssize_t got = read(fd, buf + n, cap - n - 1);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      rc = sqlsim_error_set(err, SQLSIM_EIO, -1, "%s: cannot read: %s", path, strerror(errno));
      break;
    }
    if (got == 0) break;
    n += (size_t)got;
  }
  if (!stdin_) close(fd);
  if (!buf) return sqlsim_error_set(err, SQLSIM_ENOMEM, -1, "%s: out of memory", path);
  if (rc) {
    free(buf);
    return rc;
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return 0;
}
