#!/usr/bin/env bash
# Integration test: the real performance_test server against curl and wrk (and curl/wrk over
# TLS when built with it). Usage: integration_test.sh PERFORMANCE_TEST REPORT_LUA TLS(0|1)
set -euo pipefail
BIN=$1 LUA=$2 TLS=${3:-0}
WORK=$(mktemp -d)
PID=""
cleanup() {
  if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then kill -KILL "$PID"; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "FAIL: $*" >&2; exit 1; }

ARGS=(--host 127.0.0.1 --port 0)
if [ "$TLS" = 1 ]; then  # a throw-away certificate, made now
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj /CN=127.0.0.1 -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null
  ARGS+=(--tls-port 0 --cert "$WORK/cert.pem" --key "$WORK/key.pem")
fi
"$BIN" "${ARGS[@]}" > "$WORK/server.log" 2>&1 &
PID=$!
for _ in $(seq 100); do grep -q 'listening on' "$WORK/server.log" && break; sleep 0.05; done
grep -q 'listening on' "$WORK/server.log" || fail "server did not start: $(cat "$WORK/server.log")"
PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/server.log")
BASE="http://127.0.0.1:$PORT"
echo "server: $(head -1 "$WORK/server.log")"

# check METHOD PATH STATUS SIZE [curl args...]: status and body size of one request
check() {
  local method=$1 path=$2 status=$3 size=$4; shift 4
  local got
  got=$(curl -sS --max-time 10 -X "$method" -o "$WORK/body" -D "$WORK/headers" \
    -w '%{http_code} %{size_download}' "$@" "$BASE$path")
  [ "$got" = "$status $size" ] || fail "$method $path: got '$got', want '$status $size'"
}
header() { grep -qi "^$1" "$WORK/headers" || fail "missing header '$1' in: $(cat "$WORK/headers")"; }
body() { [ "$(cat "$WORK/body")" = "$1" ] || fail "body '$(cat "$WORK/body")', want '$1'"; }

check GET / 200 2; body OK; header 'Content-Type: text/plain'; header 'Content-Length: 2'
check GET /small 200 1024
check GET /medium 200 10240
check GET /large 200 102400
check GET /large/100kb 200 102400
check GET /large/1mb 200 1048576
check GET /api 200 15; body '{"status":"ok"}'; header 'Content-Type: application/json'
check POST /api 200 15 --data '{"test":"data"}'; body '{"status":"ok"}'
check PUT /api/put 200 20 --data '{"test":"data"}'; body '{"status":"updated"}'
check PATCH /api/patch 200 20; body '{"status":"patched"}'
check DELETE /api/delete 200 20; body '{"status":"deleted"}'
check OPTIONS /api/options 200 0; header 'Access-Control-Allow-Origin: \*'
header 'Access-Control-Allow-Methods: GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS'
check HEAD /api/head 200 0 -I; header 'Content-Length: 0'
check HEAD / 200 0 -I; header 'Content-Length: 2'
check GET /error/notfound 404 21
check GET /error/badrequest 400 23
check GET /error/server 500 33
check GET /error/ratelimit 429 29; header 'Retry-After: 60'
check GET /missing 404 10
head -c 300000 /dev/urandom > "$WORK/payload"
check POST /echo 200 300000 --data-binary "@$WORK/payload"
cmp -s "$WORK/payload" "$WORK/body" || fail "POST /echo did not echo the body"
check POST /echo 200 300000 -H 'Transfer-Encoding: chunked' --data-binary "@$WORK/payload"
cmp -s "$WORK/payload" "$WORK/body" || fail "chunked POST /echo did not echo the body"
head -c $((11 * 1024 * 1024)) /dev/zero > "$WORK/too_big"
check POST /echo 413 18 --data-binary "@$WORK/too_big"; header 'Connection: close'

# wrk_ok URL [wrk args...]: a short wrk run with the report hook, no errors, some requests
wrk_ok() {
  local url=$1; shift
  wrk "$@" -d1s -s "$LUA" "$url" > "$WORK/wrk.txt" 2>&1 || fail "wrk $url: $(cat "$WORK/wrk.txt")"
  python3 - "$WORK/wrk.txt" "$url" <<'PY' || fail "wrk $url: $(cat "$WORK/wrk.txt")"
import json, sys
line = next(l for l in open(sys.argv[1]) if l.startswith("##uvhttp-wrk "))
r = json.loads(line.split(" ", 1)[1])
assert r["requests"] >= 100, r
assert all(v == 0 for v in r["errors"].values()), r["errors"]
p = r["latency_us"]["percentiles"]
assert 0 < p["50"] <= p["99"] <= p["99.9"] <= r["latency_us"]["max"], p
print(f"wrk {sys.argv[2]}: {r['requests']} requests, p99.9 {p['99.9']} us")
PY
}
wrk_ok "$BASE/" -t2 -c8
wrk_ok "$BASE/large/1mb" -t1 -c4

if [ "$TLS" = 1 ]; then
  TPORT=$(sed -n 's|.*https://127.0.0.1:\([0-9]*\).*|\1|p' "$WORK/server.log")
  BASE="https://127.0.0.1:$TPORT"
  check GET / 200 2 -k; body OK
  check GET /large/1mb 200 1048576 -k
  check POST /echo 200 300000 -k --data-binary "@$WORK/payload"
  cmp -s "$WORK/payload" "$WORK/body" || fail "POST /echo over TLS did not echo the body"
  wrk_ok "$BASE/" -t1 -c4
fi

kill -TERM "$PID"
code=0; wait "$PID" || code=$?
PID=""
[ "$code" = 0 ] || fail "server exited $code on SIGTERM: $(cat "$WORK/server.log")"
echo "integration: all checks passed"
