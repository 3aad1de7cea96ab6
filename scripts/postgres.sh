#!/usr/bin/env bash
# A throwaway PostgreSQL server on loopback, for a Pulumi state backend (`pulumi login postgres://...`) in
# tests and trials. Nothing here is fit for real state: trust authentication, no TLS, no durability.
#
#   scripts/postgres.sh start [DIR]   starts a server whose files live in DIR (default: a new temporary
#                                     folder), and prints its backend URL on stdout, for example
#                                     postgres://pulumi@127.0.0.1:41234/state?sslmode=disable
#   scripts/postgres.sh url DIR       prints the backend URL of the server started in DIR
#   scripts/postgres.sh sql DIR SQL   runs SQL on its database and prints the rows, `|`-separated
#   scripts/postgres.sh stop DIR      stops the server and removes DIR
#   scripts/postgres.sh pause DIR     stops the server and keeps its data (an outage)
#   scripts/postgres.sh resume DIR    starts a paused server again, on its port
#
#   export PULUMI_BACKEND_URL="$(scripts/postgres.sh start /tmp/pg-state)"   # or `pulumi login "$URL"`
#
# Uses the server of the Debian package `postgresql` (/usr/lib/postgresql/<version>/bin), and installs the
# package with apt-get when it is missing and this runs as root (a fresh CI machine). The server listens on
# 127.0.0.1 on a free port, with its Unix socket in DIR, and holds one database, `state`, owned by the
# superuser `pulumi`. PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user,
# which must be able to reach DIR (a folder under /tmp is; one under /root is not).
set -euo pipefail

USER_NAME="pulumi"
DATABASE="state"

log() { printf 'postgres.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }
usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The newest installed server's bin folder, or nothing.
server_bin() {
  local initdb
  initdb="$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)"
  [[ -n "$initdb" ]] && dirname "$initdb"
  return 0
}

install_server() {
  [[ "$(id -u)" == 0 ]] || die "no PostgreSQL server in /usr/lib/postgresql: install the package postgresql (apt-get install postgresql), or run this as root to let it do so"
  command -v apt-get >/dev/null || die "no PostgreSQL server in /usr/lib/postgresql, and no apt-get to install one"
  # The package's post-install creates and starts a cluster on port 5432 unless told not to; nothing here
  # needs it, so a machine that has no PostgreSQL configuration yet does not get one.
  if [[ ! -e /etc/postgresql-common/createcluster.conf ]]; then
    mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf
  fi
  log "installing the Debian package postgresql (apt-get)"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
}

# Runs a server command as the user the server runs as: `postgres` when this is root (initdb and pg_ctl refuse
# root), else the current user.
as_server() {
  if [[ "$(id -u)" == 0 ]]; then
    if command -v runuser >/dev/null; then runuser -u postgres -- "$@"
    else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
  else
    "$@"
  fi
}

# True when something accepts connections on 127.0.0.1:$1.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

url_of() {
  local dir="$1"
  [[ -f "$dir/port" ]] || die "no server was started in $dir"
  printf 'postgres://%s@127.0.0.1:%s/%s?sslmode=disable\n' "$USER_NAME" "$(cat "$dir/port")" "$DATABASE"
}

start() {
  local dir="${1:-}" bin port attempt
  bin="$(server_bin)"
  if [[ -z "$bin" ]]; then
    install_server
    bin="$(server_bin)"
    [[ -n "$bin" ]] || die "the package postgresql installed no server in /usr/lib/postgresql"
  fi
  if [[ -z "$dir" ]]; then dir="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-postgres.XXXXXX")"; fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  [[ ! -e "$dir/data" ]] || die "$dir already holds a server: stop it first (scripts/postgres.sh stop $dir)"
  if [[ "$(id -u)" == 0 ]]; then
    chown postgres: "$dir"
    as_server test -w "$dir" || die "the postgres user cannot write to $dir: use a folder it can reach, such as one under /tmp"
  fi
  echo "$bin" >"$dir/bin"

  # No fsync: the server lives as long as a test run, and syncing every commit only slows it down.
  as_server "$bin/initdb" -D "$dir/data" -U "$USER_NAME" -A trust -E UTF8 --locale=C --no-sync \
    --no-instructions >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }

  # A free port: a random one nothing answers on; if another process takes it before the server binds it,
  # the start fails and the next attempt takes another.
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$((20000 + RANDOM % 40000))
    port_in_use "$port" && continue
    if as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >&2; then
      echo "$port" >"$dir/port"
      break
    fi
    grep -q "could not bind\|Address already in use" "$dir/server.log" 2>/dev/null \
      || { cat "$dir/server.log" >&2; die "the server did not start"; }
    log "port $port was taken (attempt $attempt), trying another"
  done
  [[ -f "$dir/port" ]] || die "found no free port for the server"
  if ! "$bin/createdb" -h 127.0.0.1 -p "$port" -U "$USER_NAME" "$DATABASE"; then
    as_server "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    die "could not create the database $DATABASE"
  fi
  log "server in $dir; stop it with: scripts/postgres.sh stop $dir"
  url_of "$dir"
}

sql() {
  local dir="$1" query="$2"
  [[ -f "$dir/port" ]] || die "no server was started in $dir"
  "$(cat "$dir/bin")/psql" -h 127.0.0.1 -p "$(cat "$dir/port")" -U "$USER_NAME" -d "$DATABASE" \
    -X -q -A -t -v ON_ERROR_STOP=1 -c "$query"
}

stop() {
  local dir="$1"
  [[ -d "$dir" ]] || return 0
  if [[ -f "$dir/data/postmaster.pid" ]]; then
    as_server "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >&2
  fi
  rm -rf "$dir"
}

# Stops the server of $1 and keeps its data, as an outage would; `resume` starts it again on its port.
pause() {
  local dir="$1"
  [[ -f "$dir/port" ]] || die "no server was started in $dir"
  as_server "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -m immediate -w -t 60 stop >&2
}

resume() {
  local dir="$1"
  [[ -f "$dir/port" ]] || die "no server was started in $dir"
  as_server "$(cat "$dir/bin")/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $(cat "$dir/port") -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >&2
}

case "${1:-}" in
  start) [[ $# -le 2 ]] || usage; start "${2:-}" ;;
  pause) [[ $# -eq 2 ]] || usage; pause "$2" ;;
  resume) [[ $# -eq 2 ]] || usage; resume "$2" ;;
  url) [[ $# -eq 2 ]] || usage; url_of "$2" ;;
  sql) [[ $# -eq 3 ]] || usage; sql "$2" "$3" ;;
  stop) [[ $# -eq 2 ]] || usage; stop "$2" ;;
  *) usage ;;
esac
