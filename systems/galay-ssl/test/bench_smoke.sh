#!/bin/sh
# Smoke test of the benchmark binaries: each client against each server (the galay-ssl pair,
# the OpenSSL + libevent pair, and crossed), small and large payloads, 0 errors expected.
# Usage: bench_smoke.sh BUILD_DIR
set -eu
build=${1:?usage: bench_smoke.sh BUILD_DIR}
cd "$build"
out=$(mktemp -d)
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$out"
}
trap cleanup EXIT INT TERM

start_server() {
  log="$out/$1.log"
  "./bin/$1" 0 certs/server.crt certs/server.key > "$log" 2>&1 &
  server_pid=$!
  i=0
  while ! grep -q "listening on port [0-9]" "$log" 2>/dev/null; do
    i=$((i + 1))
    if [ "$i" -gt 100 ]; then echo "FAIL: $1 did not start"; cat "$log"; exit 1; fi
    sleep 0.05
  done
  port=$(sed -n 's/.*listening on port \([0-9]*\).*/\1/p' "$log")
}

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid" || { echo "FAIL: $1 exited badly"; exit 1; }
  server_pid=
  grep -q "Final stats:" "$out/$1.log" || { echo "FAIL: $1 printed no totals"; exit 1; }
}

check() {  # client args... ; expects Total requests = conns * reqs and no errors
  client=$1; conns=$4; reqs=$5
  "./bin/$client" "$2" "$3" "$4" "$5" "$6" "$7" > "$out/client.log" 2>&1 || {
    echo "FAIL: $client $*"; cat "$out/client.log"; exit 1; }
  grep -q "^Total requests: $((conns * reqs))\$" "$out/client.log" &&
    grep -q "^Total errors: 0\$" "$out/client.log" &&
    grep -q "^Requests/sec: " "$out/client.log" &&
    grep -q "^Throughput: .* MB/s" "$out/client.log" || {
    echo "FAIL: $client $*"; cat "$out/client.log"; exit 1; }
  echo "ok: $client against $server ($conns x $reqs x $6 B, $7 threads)"
}

for server in B1-SslBenchServer R1-LibeventSslServer; do
  start_server "$server"
  for client in B1-SslBenchClient R1-LibeventSslClient; do
    check "$client" 127.0.0.1 "$port" 8 20 47 2
    check "$client" localhost "$port" 3 4 65536 1
    check "$client" 127.0.0.1 "$port" 1 1 1048576 1
  done
  stop_server "$server"
done

# Bad input is refused with the usage and exit code 2.
if ./bin/B1-SslBenchClient 127.0.0.1 notaport 1 1 > "$out/bad.log" 2>&1; then
  echo "FAIL: a bad port was accepted"; exit 1
fi
grep -q "usage:" "$out/bad.log" || { echo "FAIL: no usage on bad input"; exit 1; }
echo "bench smoke: all pairs echo with 0 errors"
