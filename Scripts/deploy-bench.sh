#!/usr/bin/env bash
# The deployment figures (issue 29), each beside its baseline from the same run, with wrk:
#   1. jogs list (GET /jogs, 50 jogs) requests per second, and jogs added per second (one
#      connection: the form, then its save):
#      one den serve on PostgreSQL against one den serve on SQLite;
#   2. the jogs list through nginx in front of three hosts against one host without nginx (on a
#      2-core machine this says what nginx and two more processes cost, not how den scales);
#   3. kill -9 of one of the three hosts during a wrk run through nginx: failed requests (wrk's
#      non-2xx/3xx and socket errors) and the longest request (the failover shows there);
#   4. one logged-in session with 32 requests in flight (GET /jogs, one cookie, as many tabs):
#      requests per second and p99 on one host on SQLite and on three hosts behind nginx.
# Every request carries the session's revision cookie (den_rev) as a browser does.
# Usage: Scripts/deploy-bench.sh [--debug] [--seconds N] [--connections N]
# Builds den in release (or uses the debug build with --debug). Starts its own PostgreSQL cluster
# (as nobody when run as root) and nginx on loopback ports, and removes them at the end.
# Figures only: nothing passes or fails on speed.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=release; SECONDS_EACH=10; CONNECTIONS=8
while [ $# -gt 0 ]; do
    case "$1" in
        --debug) CONFIG=debug ;;
        --seconds) SECONDS_EACH="$2"; shift ;;
        --connections) CONNECTIONS="$2"; shift ;;
        *) echo "unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
Scripts/setup.sh
command -v wrk >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk curl >/dev/null
[ "$CONFIG" = release ] && swift build -c release >&2
BIN="$(swift build -c "$CONFIG" --show-bin-path)"
DEN="$BIN/den"
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
WORK="$(mktemp -d /tmp/den-deploy-bench-XXXXXX)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    runuser -u nobody -- "$PG_BIN/pg_ctl" -D "$WORK/pg" stop -m immediate >/dev/null 2>&1 || "$PG_BIN/pg_ctl" -D "$WORK/pg" stop -m immediate >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }

echo "deploy-bench: PostgreSQL cluster..." >&2
PG_PORT=$(free_port)
echo bench-password > "$WORK/pw"
[ "$(id -u)" -eq 0 ] && chown -R nobody:nogroup "$WORK"
as_pg "$PG_BIN/initdb" -D "$WORK/pg" -U den --pwfile "$WORK/pw" --auth-host=scram-sha-256 --auth-local=trust -E UTF8 --locale=C >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg" -l "$WORK/pg.log" -w start -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK -c max_connections=200" >/dev/null
PGPASSWORD=bench-password psql -q -h 127.0.0.1 -p "$PG_PORT" -U den -d postgres -c "CREATE DATABASE den" >/dev/null
URL="postgres://den:bench-password@127.0.0.1:$PG_PORT/den?sslmode=disable"
export DEN_PLUGIN_PATH="" XDG_DATA_HOME="$WORK/xdg" NO_COLOR=1

# start_den NAME PORT [--database URL]: a den serve with its own data and cache folders.
start_den() {
    local name=$1 port=$2; shift 2
    DEN_DATA_DIR="$WORK/data-$name" DEN_CACHE_DIR="$WORK/cache-$name" "$DEN" serve --port "$port" "$@" >"$WORK/$name.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 1 300); do curl -s "http://127.0.0.1:$port/_health" >/dev/null && return; sleep 0.1; done
    echo "den serve $name did not start: $(cat "$WORK/$name.log")" >&2; exit 1
}
add_user() { echo bench-password-42 | DEN_DATA_DIR="$WORK/data-$1" "$DEN" users add bench "${@:2}" >/dev/null; }

# login PORT: logs in as bench; prints "cookie csrf".
login() {
    local port=$1 jar="$WORK/jar-$1"
    local page csrf
    page=$(curl -s -c "$jar" -b "$jar" "http://127.0.0.1:$port/login?next=jogs")
    csrf=$(echo "$page" | sed -n 's/.*name="_csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
    curl -s -c "$jar" -b "$jar" -o /dev/null --data "_csrf=$csrf&_route=login%3Fnext%3Djogs&_action=log-in&f.username=bench&f.password=bench-password-42" "http://127.0.0.1:$port/_action"
    page=$(curl -s -c "$jar" -b "$jar" "http://127.0.0.1:$port/jogs/new")
    csrf=$(echo "$page" | sed -n 's/.*name="_csrf" value="\([0-9a-f]*\)".*/\1/p' | head -1)
    echo "$(awk '$6=="den_session"{print $7}' "$jar" | tail -1) $csrf"
}
add_form() { echo "_csrf=$1&_route=jogs%2Fnew&_action=save&f.date=2026-11-20&f.distance=5&f.duration=30%3A00"; }
seed() { # seed PORT COOKIE CSRF: 50 jogs
    for _ in $(seq 1 50); do curl -s -o /dev/null -b "den_session=$2" --data "$(add_form "$3")" "http://127.0.0.1:$1/_action"; curl -s -o /dev/null -b "den_session=$2" "http://127.0.0.1:$1/jogs/new"; done
}
# rps PORT COOKIE [POST-BODY]: wrk's requests per second. With a body: jogs added per second, one
# connection alternating GET /jogs/new and the save (a session's form posts run one at a time).
rps() {
    local script="$WORK/wrk-$RANDOM.lua"
    if [ $# -ge 3 ]; then
        cat > "$script" <<LUA
local n = 0
local headers = { ["Cookie"] = "den_session=$2", ["Content-Type"] = "application/x-www-form-urlencoded" }
request = function()
  n = n + 1
  if n % 2 == 1 then return wrk.format("GET", "/jogs/new", headers) end
  return wrk.format("POST", "/_action", headers, "$3")
end
LUA
        wrk -t1 -c1 -d"${SECONDS_EACH}s" -s "$script" "http://127.0.0.1:$1/" | awk '/Requests\/sec/{printf "%.1f\n", $2 / 2}'
    else
        printf 'wrk.headers["Cookie"] = "%s"\n' "$2" > "$script"
        wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" -s "$script" "http://127.0.0.1:$1/jogs" | awk '/Requests\/sec/{print $2}'
    fi
}
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
# cookies PORT SESSION: the Cookie header a browser sends for the session: den_session and the
# revision its last answer set (a GET of the screen on top saves nothing, so it stays).
cookies() {
    local rev
    rev=$(curl -s -o /dev/null -D - -b "den_session=$2" "http://127.0.0.1:$1/jogs" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: den_rev=\([0-9a-f]*\).*/\1/p' | head -1)
    echo "den_session=$2${rev:+; den_rev=$rev}"
}
# inflight PORT COOKIES: one session's 32 requests in flight; prints "req/s p99-ms".
inflight() {
    local script="$WORK/wrk-$RANDOM.lua"
    printf 'wrk.headers["Cookie"] = "%s"\ndone = function(summary, latency, requests)\n  io.write(string.format("inflight %%.1f %%.2f\\n", summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000))\nend\n' "$2" > "$script"
    wrk -t2 -c32 -d"${SECONDS_EACH}s" -s "$script" "http://127.0.0.1:$1/jogs" | awk '/^inflight/{print $2, $3}'
}

echo "deploy-bench: one host on SQLite, one on PostgreSQL ($CONFIG build, $CONNECTIONS connections, ${SECONDS_EACH}s each)..." >&2
add_user sqlite; add_user pg --database "$URL"
SQLITE_PORT=$(free_port); start_den sqlite "$SQLITE_PORT"
read -r S_COOKIE S_CSRF < <(login "$SQLITE_PORT"); seed "$SQLITE_PORT" "$S_COOKIE" "$S_CSRF"
PG_PORT1=$(free_port); start_den pg1 "$PG_PORT1" --database "$URL"
read -r P_COOKIE P_CSRF < <(login "$PG_PORT1"); seed "$PG_PORT1" "$P_COOKIE" "$P_CSRF"
S_COOKIES=$(cookies "$SQLITE_PORT" "$S_COOKIE"); P_COOKIES=$(cookies "$PG_PORT1" "$P_COOKIE")
LIST_SQLITE=$(rps "$SQLITE_PORT" "$S_COOKIES"); LIST_PG=$(rps "$PG_PORT1" "$P_COOKIES")
read -r FLIGHT_SQLITE FLIGHT_SQLITE_P99 < <(inflight "$SQLITE_PORT" "$S_COOKIES")
ADD_SQLITE=$(rps "$SQLITE_PORT" "$S_COOKIE" "$(add_form "$S_CSRF")"); ADD_PG=$(rps "$PG_PORT1" "$P_COOKIE" "$(add_form "$P_CSRF")")

echo "deploy-bench: three hosts behind nginx..." >&2
PG_PORT2=$(free_port); PG_PORT3=$(free_port)
start_den pg2 "$PG_PORT2" --database "$URL"; start_den pg3 "$PG_PORT3" --database "$URL"
NGINX_PORT=$(free_port)
mkdir -p "$WORK/ngx"; chmod 777 "$WORK/ngx"
cat > "$WORK/nginx.conf" <<EOF
worker_processes 2;
error_log $WORK/nginx-error.log warn;
pid $WORK/nginx.pid;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/ngx/body; proxy_temp_path $WORK/ngx/proxy; fastcgi_temp_path $WORK/ngx/fcgi;
    uwsgi_temp_path $WORK/ngx/uwsgi; scgi_temp_path $WORK/ngx/scgi;
    upstream den {
        server 127.0.0.1:$PG_PORT1 max_fails=1 fail_timeout=1s;
        server 127.0.0.1:$PG_PORT2 max_fails=1 fail_timeout=1s;
        server 127.0.0.1:$PG_PORT3 max_fails=1 fail_timeout=1s;
        keepalive 16;
    }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location / {
            proxy_pass http://den; proxy_http_version 1.1; proxy_set_header Connection "";
            proxy_set_header Host \$host; proxy_connect_timeout 1s;
            proxy_next_upstream error timeout http_502 http_503; proxy_next_upstream_tries 3;
        }
    }
}
EOF
nginx -p "$WORK" -c "$WORK/nginx.conf"
LIST_ONE=$(rps "$PG_PORT1" "$P_COOKIES"); LIST_THREE=$(rps "$NGINX_PORT" "$P_COOKIES")
read -r FLIGHT_THREE FLIGHT_THREE_P99 < <(inflight "$NGINX_PORT" "$P_COOKIES")

echo "deploy-bench: kill -9 of a host during a run through nginx..." >&2
printf 'wrk.headers["Cookie"] = "%s"\ndone = function(summary, latency, requests)\n  io.write(string.format("failed %%d %%d\\n", summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))\n  io.write(string.format("longest %%.3f\\n", latency.max / 1e6))\n  io.write(string.format("requests %%d\\n", summary.requests))\nend\n' "$P_COOKIES" > "$WORK/kill.lua"
VICTIM=${PIDS[2]}
( sleep $((SECONDS_EACH / 3)); kill -9 "$VICTIM" ) &
KILL_OUT=$(wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_EACH}s" -s "$WORK/kill.lua" "http://127.0.0.1:$NGINX_PORT/jogs")
FAILED=$(echo "$KILL_OUT" | awk '/^failed/{print $2 + $3}'); LONGEST=$(echo "$KILL_OUT" | awk '/^longest/{print $2}')
TOTAL=$(echo "$KILL_OUT" | awk '/^requests/{print $2}')

echo
echo "Figures ($CONFIG build, $(nproc) cores, wrk $CONNECTIONS connections, ${SECONDS_EACH}s each; 50 jogs):"
printf '  jogs list:  PostgreSQL %s req/s, SQLite %s req/s: %s×\n' "$LIST_PG" "$LIST_SQLITE" "$(ratio "$LIST_PG" "$LIST_SQLITE")"
printf '  add a jog:  PostgreSQL %s jogs/s, SQLite %s jogs/s: %s× (one connection)\n' "$ADD_PG" "$ADD_SQLITE" "$(ratio "$ADD_PG" "$ADD_SQLITE")"
printf '  jogs list:  3 hosts behind nginx %s req/s, 1 host direct %s req/s: %s× (overhead on this machine, not scaling)\n' "$LIST_THREE" "$LIST_ONE" "$(ratio "$LIST_THREE" "$LIST_ONE")"
printf '  kill -9 of 1 of 3 hosts during the run: %s of %s requests failed, longest request %s s\n' "$FAILED" "$TOTAL" "$LONGEST"
printf '  one session, 32 requests in flight (GET /jogs): 1 host on SQLite %s req/s, p99 %s ms; 3 hosts on PostgreSQL behind nginx %s req/s, p99 %s ms\n' \
    "$FLIGHT_SQLITE" "$FLIGHT_SQLITE_P99" "$FLIGHT_THREE" "$FLIGHT_THREE_P99"
