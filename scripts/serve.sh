#!/usr/bin/env bash
# Serve olc from K Streamlit processes behind nginx, on this machine, in the foreground.
#   bash scripts/serve.sh K [--port P]        (default P = 8500; Ctrl-C stops everything)
# nginx listens on 127.0.0.1:P (set OLC_LISTEN=0.0.0.0 to serve a network) and sends each
# browser to one of the K processes (127.0.0.1:P+1 … P+K), always the same one (a route
# cookie; websocket upgrades passed on). Each process is `streamlit run app.py` from the
# repository root (its .streamlit/config.toml applies). The PIDs are written to
# $RUN/pids (RUN: printed at start) for bench/load.py --server-pid; $RUN (nginx's config and
# error log, each process's log) is removed on exit unless OLC_KEEP_RUN=1.
# Python: $OLC_PYTHON, else .venv/bin/python (created by scripts/setup_venv.sh).
# nginx: Debian's package (apt-get install -y nginx). See docs/load.md, "Past one process".
# Class sessions (docs/class-session.md) live in Redis so that a lecturer on one process drives students on
# another: $OLC_REDIS_URL if set (several machines: one shared Redis), else Debian's redis-server
# (apt-get install -y redis-server) started here on a free loopback port, stopped on exit. Its URL is written to
# $RUN/redis_url. Persistence: an append-only file (--appendonly yes --appendfsync everysec; no snapshots) in
# $OLC_REDIS_DIR (default $RUN/redis), fsync'd once a second: a redis-server restarted (SIGTERM: it writes and fsyncs
# the file as it stops) comes back with every class session as it was; one killed outright (SIGKILL, a crash) can
# lose the writes of its last second or two, which the browsers send again on their next welcome (the lecturer's
# state, a student's vote). Snapshots would lose everything since the last one; appendfsync always would cost an
# fsync per write (300 students' heartbeats and votes).
# Faults (docs/class-session.md, "Faults in the middle of a lecture"): a Streamlit process or the redis-server that
# ends is started again (same port, same files) after 1 s, and said on stderr; $RUN/pids is rewritten. Browsers on a
# dead process reconnect through nginx to another one meanwhile. Only nginx ending (or Ctrl-C / SIGTERM) stops all.
# Static files: nginx serves Streamlit's frontend and the viewer's libraries itself from $RUN/www (each beside its
# .gz, laid out by `python -m olc_ui.static_files`; and its .br, written in the background, with Debian's
# libnginx-mod-http-brotli-static when installed), cached for a year (without Last-Modified and Server with
# libnginx-mod-http-headers-more-filter); other responses are gzip-compressed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
usage() { echo "usage: bash scripts/serve.sh K [--port P]   (K: 1 … 32 Streamlit processes)" >&2; exit 2; }
[ $# -ge 1 ] || usage
K="$1"; shift
PORT=8500
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || usage; PORT="$2"; shift 2 ;;
    *) usage ;;
  esac
done
[[ "$K" =~ ^[0-9]+$ ]] && [ "$K" -ge 1 ] && [ "$K" -le 32 ] || usage
[[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -ge 1024 ] && [ "$PORT" -le $((65535 - K)) ] || usage
NGINX="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
[ -x "$NGINX" ] || { echo "serve.sh: nginx not found: apt-get install -y nginx" >&2; exit 1; }
if [ -n "${OLC_PYTHON:-}" ]; then PYBIN="$OLC_PYTHON"; else source scripts/setup_venv.sh; PYBIN="$VENV_PY"; fi
REDIS_SERVER="${REDIS_SERVER:-$(command -v redis-server || echo /usr/bin/redis-server)}"
if [ -z "${OLC_REDIS_URL:-}" ] && [ ! -x "$REDIS_SERVER" ]; then
  echo "serve.sh: redis-server not found (class sessions): apt-get install -y redis-server, or set OLC_REDIS_URL" >&2; exit 1
fi

RUN="$(mktemp -d "${TMPDIR:-/tmp}/olc-serve.XXXXXX")"
chmod 755 "$RUN"
for d in body proxy fastcgi uwsgi scgi; do mkdir -m 1777 "$RUN/$d"; done
PIDS=()
BROTLI_PID=""
stop() {
  trap - EXIT INT TERM
  if [ -n "$BROTLI_PID" ]; then kill -TERM "$BROTLI_PID" 2>/dev/null || true; wait "$BROTLI_PID" 2>/dev/null || true; fi
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "${OLC_KEEP_RUN:-}" ]; then echo "serve: stopped; logs kept in $RUN"; else rm -rf "$RUN"; echo "serve: stopped"; fi
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${OLC_REDIS_URL:-}" ]; then
  RPORT="$("$PYBIN" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  REDIS_DIR="${OLC_REDIS_DIR:-$RUN/redis}"
  mkdir -p -m 700 "$REDIS_DIR"
  start_redis() {
    "$REDIS_SERVER" --bind 127.0.0.1 --port "$RPORT" --dir "$REDIS_DIR" --save "" --appendonly yes \
      --appendfsync everysec --daemonize no --logfile "$REDIS_DIR/redis.log" &
    REDIS_PID=$!
  }
  start_redis
  PIDS+=("$REDIS_PID")
  export OLC_REDIS_URL="redis://127.0.0.1:$RPORT/0"
  ok=0
  for _ in $(seq 1 100); do
    if "$PYBIN" -c 'import os, redis; redis.Redis.from_url(os.environ["OLC_REDIS_URL"]).ping()' 2>/dev/null; then ok=1; break; fi
    sleep 0.1
  done
  [ "$ok" = 1 ] || { echo "serve: redis-server did not start; its log:" >&2; tail -20 "$REDIS_DIR/redis.log" >&2; exit 1; }
  echo "serve: redis-server $OLC_REDIS_URL (PID ${PIDS[-1]}), its append-only file in $REDIS_DIR"
fi
export OLC_REDIS_URL
echo "$OLC_REDIS_URL" >"$RUN/redis_url"
NREDIS=${#PIDS[@]}

# What nginx serves itself, compressed ahead of time (Streamlit's frontend, the viewer's libraries, the icon font's
# subset): olc_ui/static_files.py, docs/load.md "A first visit over a lecture hall's wifi".
"$PYBIN" -m olc_ui.static_files "$RUN/www" . >/dev/null
BROTLI_MODULE="${NGINX_BROTLI_MODULE:-/usr/lib/nginx/modules/ngx_http_brotli_static_module.so}"
LOAD_MODULES=""; BROTLI_STATIC=""
if [ -f "$BROTLI_MODULE" ]; then
  LOAD_MODULES="load_module $BROTLI_MODULE;"; BROTLI_STATIC="            brotli_static on;"
  # the .br files, smallest first, in the background at a low priority (nginx sends each once it is there)
  nice -n 10 "$PYBIN" -m olc_ui.static_files --brotli "$RUN/www" >"$RUN/brotli.log" 2>&1 &
  BROTLI_PID=$!
fi
# Debian's headers-more module (libnginx-mod-http-headers-more-filter), when installed: the year-cached files go out
# without Last-Modified and Server (stock nginx cannot drop them): ~8 kB of a first visit's 130 responses
HEADERS_MODULE="${NGINX_HEADERS_MORE_MODULE:-/usr/lib/nginx/modules/ngx_http_headers_more_filter_module.so}"
CLEAR_HEADERS=""
if [ -f "$HEADERS_MODULE" ]; then
  LOAD_MODULES="$LOAD_MODULES load_module $HEADERS_MODULE;"; CLEAR_HEADERS="            more_clear_headers Last-Modified Server;"
fi

UPSTREAMS=""
start_streamlit() {    # $1: its port
  "$PYBIN" -m streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port "$1" \
    --browser.gatherUsageStats false --server.fileWatcherType none >>"$RUN/streamlit-$1.log" 2>&1 &
}
for i in $(seq 1 "$K"); do
  p=$((PORT + i))
  start_streamlit "$p"
  PIDS+=("$!")
  UPSTREAMS+="        server 127.0.0.1:$p max_fails=0;"$'\n'
done
LISTEN="${OLC_LISTEN:-127.0.0.1}"
sed -e "s|@RUN@|$RUN|g" -e "s|@PORT@|$PORT|g" -e "s|listen 127.0.0.1:|listen $LISTEN:|" \
    -e "s|^@LOAD_MODULES@\$|$LOAD_MODULES|" -e "s|^@BROTLI_STATIC@\$|$BROTLI_STATIC|" \
    -e "s|^@CLEAR_HEADERS@\$|$CLEAR_HEADERS|" scripts/nginx.conf.template \
  | awk -v ups="$UPSTREAMS" '{ if ($0 == "@UPSTREAMS@") printf "%s", ups; else print }' >"$RUN/nginx.conf"
"$NGINX" -t -q -c "$RUN/nginx.conf" -p "$RUN" -e "$RUN/error.log"
"$NGINX" -c "$RUN/nginx.conf" -p "$RUN" -e "$RUN/error.log" &
NGINX_PID=$!
PIDS+=("$NGINX_PID")
for i in $(seq 1 "$K"); do
  p=$((PORT + i)); ok=0
  for _ in $(seq 1 240); do
    if "$PYBIN" - "$p" <<'PY' 2>/dev/null; then ok=1; break; fi
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/_stcore/health", timeout=2).read()
PY
    kill -0 "${PIDS[$((NREDIS + i - 1))]}" 2>/dev/null || break      # it exited (its port taken?)
    sleep 0.5
  done
  [ "$ok" = 1 ] || { echo "serve: the process on port $p did not start; the end of its log:" >&2; tail -20 "$RUN/streamlit-$p.log" >&2; exit 1; }
done
printf '%s\n' "${PIDS[@]:$NREDIS:$K}" >"$RUN/pids"
echo "serve: http://$LISTEN:$PORT  ($K Streamlit processes, PIDs $(tr '\n' ' ' <"$RUN/pids")nginx $NGINX_PID; run dir $RUN)"
# In the foreground until nginx ends (or Ctrl-C / SIGTERM): a Streamlit process or the redis-server that ends is
# started again after 1 s (a process that keeps failing is retried once a second; its log says why).
while true; do
  ended=""
  wait -n -p ended "${PIDS[@]}" || true
  [ -n "$ended" ] || continue
  if [ "$ended" = "$NGINX_PID" ]; then echo "serve: nginx ended; stopping the others" >&2; exit 1; fi
  sleep 1
  for j in "${!PIDS[@]}"; do
    [ "${PIDS[$j]}" = "$ended" ] || continue
    if [ "$j" -lt "$NREDIS" ]; then
      start_redis
      PIDS[j]=$REDIS_PID
      echo "serve: redis-server (PID $ended) ended; started again (PID $REDIS_PID) from its append-only file" >&2
    else
      p=$((PORT + j - NREDIS + 1))
      start_streamlit "$p"
      PIDS[j]=$!
      printf '%s\n' "${PIDS[@]:$NREDIS:$K}" >"$RUN/pids"
      echo "serve: the process on port $p (PID $ended) ended; started again (PID ${PIDS[j]})" >&2
    fi
  done
done
