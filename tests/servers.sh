#!/usr/bin/env bash
# servers.sh -- throwaway PostgreSQL and MariaDB servers for the tests and
# benchmarks: made in a fresh directory, on unix sockets only (no network),
# as an unprivileged user (nobody when run as root: PostgreSQL refuses root),
# and stopped and removed after.
#
#   tests/servers.sh start DIR   makes DIR, starts both, writes DIR/env:
#       SQLSIM_PG_ADMIN, SQLSIM_PG      postgresql:// URLs ({db_id}: a database per db_id) of the
#                                       superuser and of a reader role (pg_read_all_data, no more)
#       SQLSIM_MY_ADMIN, SQLSIM_MY      mysql:// URLs of root and of a reader (SELECT only)
#   tests/servers.sh stop DIR    stops both and removes DIR
#   tests/servers.sh restart DIR stop (what an interrupted run left), then start
#   tests/servers.sh run CMD...  start in a temporary directory, source its env, run CMD, stop
#
# Each server's data directory lives in DIR (fsync off: it is thrown away).
# A server that does not start is an error (exit 1, its log printed): tests
# that need servers fail rather than skip.
set -euo pipefail

PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
MARIADBD=$(command -v mariadbd || echo /usr/sbin/mariadbd)

as_user() { # runs "$@" as the servers' user
  if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi
}

start() {
  local dir=$1
  [ -x "$PGBIN/initdb" ] || { echo "servers.sh: PostgreSQL is not installed (./setup.sh installs it)" >&2; exit 1; }
  [ -x "$MARIADBD" ] || { echo "servers.sh: MariaDB is not installed (./setup.sh installs it)" >&2; exit 1; }
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ "$(id -u)" -eq 0 ] && chown nobody "$dir"
  chmod 755 "$dir"
  as_user test -w "$dir" ||
    { echo "servers.sh: $dir cannot be written by the servers' user (nobody): its parents must be searchable" >&2; exit 1; }
  # PostgreSQL: a cluster with a superuser "sqlsim", trust on the socket only
  as_user "$PGBIN/initdb" -D "$dir/pg" -U sqlsim -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/pg-init.log" 2>&1 ||
    { cat "$dir/pg-init.log" >&2; exit 1; }
  as_user "$PGBIN/pg_ctl" -D "$dir/pg" -l "$dir/pg.log" -w -t 60 \
    -o "-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start \
    >/dev/null || { cat "$dir/pg.log" >&2; exit 1; }
  "$PGBIN/psql" -h "$dir" -U sqlsim -d postgres -qAt -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE reader LOGIN" -c "GRANT pg_read_all_data TO reader" >/dev/null
  # MariaDB: root by socket without a password, a reader with SELECT only;
  # table names case-insensitive (lower_case_table_names=1), as the
  # benchmarks' SQL assumes
  as_user mariadb-install-db --no-defaults --datadir="$dir/my" --auth-root-authentication-method=normal \
    --skip-test-db --lower-case-table-names=1 >"$dir/my-init.log" 2>&1 || { cat "$dir/my-init.log" >&2; exit 1; }
  as_user "$MARIADBD" --no-defaults --datadir="$dir/my" --socket="$dir/my.sock" --skip-networking \
    --lower-case-table-names=1 --pid-file="$dir/my.pid" --log-error="$dir/my.log" \
    --innodb-flush-log-at-trx-commit=0 --innodb-buffer-pool-size=128M --skip-log-bin >/dev/null 2>&1 &
  for _ in $(seq 1 300); do
    [ -S "$dir/my.sock" ] && mariadb --no-defaults -S "$dir/my.sock" -uroot -e "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.1
  done
  mariadb --no-defaults -S "$dir/my.sock" -uroot -e \
    "CREATE USER reader@localhost; GRANT SELECT, SHOW VIEW, CREATE TEMPORARY TABLES ON *.* TO reader@localhost" ||
    { cat "$dir/my.log" >&2; exit 1; }
  cat >"$dir/env" <<EOF
export SQLSIM_SERVERS_DIR='$dir'
export SQLSIM_PG_ADMIN='postgresql://sqlsim@/{db_id}?host=$dir'
export SQLSIM_PG='postgresql://reader@/{db_id}?host=$dir'
export SQLSIM_MY_ADMIN='mysql://root@/{db_id}?socket=$dir/my.sock'
export SQLSIM_MY='mysql://reader@/{db_id}?socket=$dir/my.sock'
EOF
}

stop() {
  local dir=$1
  [ -d "$dir" ] || return 0
  if [ -f "$dir/pg/postmaster.pid" ]; then as_user "$PGBIN/pg_ctl" -D "$dir/pg" -m immediate -w stop >/dev/null 2>&1 || true; fi
  if [ -f "$dir/my.pid" ]; then
    local pid
    pid=$(cat "$dir/my.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) start "$2" ;;
  restart) stop "$2"; start "$2" ;; # what a run that was cut short left is stopped first
  stop) stop "$2" ;;
  run)
    shift
    dir=$(mktemp -d "${TMPDIR:-/tmp}/sqlsim-servers.XXXXXX")
    trap 'stop "$dir"' EXIT
    start "$dir"
    # shellcheck disable=SC1091
    . "$dir/env"
    "$@"
    ;;
  *) echo "usage: servers.sh start DIR | stop DIR | run CMD..." >&2; exit 2 ;;
esac
