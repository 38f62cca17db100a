#!/usr/bin/env bash
# Faults the driver must survive with a clear message and a clean exit, never a signal:
# a truncated model file, a KV cache that cannot be allocated (run and serve), a repack
# cache that cannot be written or a full disk (the run goes on from memory), a model file
# truncated under a running server (it exits naming the file), and SIGTERM while a stream
# is being generated (the stream ends with its end marker; exit 0 within 10 s).
# Usage: faults_test.sh CPUBRRR MODEL
set -uo pipefail
here="$PWD"
cpubrrr="$here/$1"
model="$here/$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export XDG_CACHE_HOME="$tmp/cache"
# Under ASan an allocation too large for memory aborts unless told to fail as it does in
# the product (a null from nothrow new, which the KV cache reports).
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:allocator_may_return_null=1"
failures=0
fail() { echo "FAIL $1"; tail -20 "$tmp/err"; failures=$((failures + 1)); }
# Runs the driver; passes when it exits with `want` (not a signal) and stderr matches `pattern`.
expect() {
  local name="$1" want="$2" pattern="$3"
  shift 3
  "$cpubrrr" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$?
  if [ "$rc" != "$want" ]; then fail "$name: exit $rc, wanted $want"; return; fi
  grep -q -- "$pattern" "$tmp/err" || fail "$name: stderr lacks '$pattern'"
}

size=$(stat -c %s "$model")
head -c $((size / 2)) "$model" >"$tmp/half.gguf"
expect truncated_run 1 "half.gguf" run -m "$tmp/half.gguf" -p Hi -n 4
head -c 1000 "$model" >"$tmp/header.gguf"
expect truncated_header 1 "header.gguf" run -m "$tmp/header.gguf" -p Hi -n 4
expect kv_too_large_run 1 "kv cache: cannot allocate" run -m "$model" -p Hi -n 4 -c 2000000000
expect kv_too_large_serve 1 "kv cache: cannot allocate" serve -m "$model" --port 0 -np 4 -c 400000000
expect repack_cache_unwritable 0 "not kept on disk" run -m "$model" -p Hi -n 4 --repack-cache /proc/self/none
# A file-size limit: the repack cache's space reservation fails; nothing is left behind.
mkdir -p "$tmp/limited"
(ulimit -f 64; "$cpubrrr" run -m "$model" -p Hi -n 4 --repack-cache "$tmp/limited" >"$tmp/out" 2>"$tmp/err" </dev/null)
rc=$?
[ "$rc" = 0 ] || fail "file_size_limit: exit $rc, wanted 0"
grep -q "not kept on disk: .*File too large" "$tmp/err" || fail "file_size_limit: stderr lacks the reason"
[ -z "$(ls -A "$tmp/limited")" ] || fail "file_size_limit: left $(ls "$tmp/limited")"

# A full disk (a 1 MiB tmpfs in a mount namespace of this test's own) under the cache: the
# default model is not written there, so it runs from memory; no partial file is left.
mkdir -p "$tmp/full"
unshare -r -m sh -c 'mount -t tmpfs -o size=1m tmpfs "$1" &&
  XDG_CACHE_HOME="$1/cache" "$2" run -p Hi -n 4 </dev/null; echo "exit $?"; find "$1" -type f' \
  sh "$tmp/full" "$cpubrrr" >"$tmp/out" 2>"$tmp/err"
grep -q "^exit 0$" "$tmp/out" || fail "full_disk: $(grep '^exit' "$tmp/out" || echo 'no mount namespace')"
grep -q "not kept on disk (.*No space left on device); running it from memory" "$tmp/err" ||
  fail "full_disk: stderr lacks the reason"
grep -q "stop: length" "$tmp/err" || fail "full_disk: no answer"
grep -q "partial\|\.tmp" "$tmp/out" && fail "full_disk: left $(grep 'partial\|\.tmp' "$tmp/out")"

# Waits for a server writing to $1 to say it is ready; sets `port`.
await_ready() {
  port=""
  for _ in $(seq 1 200); do
    grep -q 'serve: ready' "$1" && port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$1" | grep -o '[0-9]*$') && return
    sleep 0.1
  done
}

# The model file truncated while a server maps it (every weight read from the file): the
# next request's read of a vanished page ends the server with a message naming the file,
# and an exit status, not a core dump.
cp "$model" "$tmp/shrinking.gguf"
"$cpubrrr" serve -m "$tmp/shrinking.gguf" --no-repack --port 0 -np 1 -c 512 -t 1 >/dev/null 2>"$tmp/serve.err" &
pid=$!
await_ready "$tmp/serve.err"
if [ -z "$port" ]; then
  cp "$tmp/serve.err" "$tmp/err"; fail "serve on the file to truncate did not start"; kill -9 "$pid"
else
  truncate -s 4096 "$tmp/shrinking.gguf"
  /usr/bin/python3 -c "
import http.client, sys
conn = http.client.HTTPConnection('127.0.0.1', $port, timeout=30)
try:
    conn.request('POST', '/v1/completions', '{\"prompt\": \"Once upon a time\", \"max_tokens\": 4}')
    conn.getresponse().read()
except Exception as e:
    print('request ended:', type(e).__name__)
" >"$tmp/out" 2>&1
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    cp "$tmp/serve.err" "$tmp/err"; fail "serve still running after its file was truncated"; kill -9 "$pid"
  fi
  wait "$pid"
  rc=$?
  cp "$tmp/serve.err" "$tmp/err"
  [ "$rc" = 74 ] || fail "truncated_while_serving: exit $rc, wanted 74"
  grep -q "shrinking.gguf changed on disk while in use" "$tmp/err" || fail "truncated_while_serving: no message"
fi

# Clients that go away while waiting for a whole (not streamed) answer, on the chat and the
# text route (every route asks the same CancelCheck): the slot stops generating at once, where
# the 120000 tokens asked would take it far longer than the 5 s allowed.
"$cpubrrr" serve -m "$model" --port 0 -np 1 -c 131072 -t 1 >/dev/null 2>"$tmp/serve.err" &
pid=$!
await_ready "$tmp/serve.err"
if [ -z "$port" ]; then
  cp "$tmp/serve.err" "$tmp/err"; fail "serve for the vanishing clients did not start"; kill -9 "$pid"
else
  /usr/bin/python3 - "$port" >"$tmp/err" 2>&1 <<'PY' || fail "vanishing clients"
import http.client, json, re, socket, sys, time
port = int(sys.argv[1])
def get(path):
    conn = http.client.HTTPConnection('127.0.0.1', port, timeout=60)
    conn.request('GET', path)
    return conn.getresponse().read().decode()
def predicted():
    return int(float(re.search(r'^llamacpp:tokens_predicted_total (\S+)', get('/metrics'), re.M).group(1)))
bad = 0
for path, body in [('/v1/chat/completions', {'messages': [{'role': 'user', 'content': 'Tell a long story.'}],
                                             'max_tokens': 120000, 'ignore_eos': True}),
                   ('/v1/completions', {'prompt': 'Once upon a time', 'max_tokens': 120000, 'ignore_eos': True})]:
    before = predicted()
    data = json.dumps(body).encode()
    client = socket.create_connection(('127.0.0.1', port))
    client.sendall(b'POST ' + path.encode() + b' HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                   b'Content-Length: ' + str(len(data)).encode() + b'\r\n\r\n' + data)
    time.sleep(0.5)
    if not json.loads(get('/slots'))[0]['is_processing']:
        print('FAIL:', path, 'was not being answered when its client left')
        bad += 1
    client.close()
    left = time.time()
    while time.time() < left + 5 and json.loads(get('/slots'))[0]['is_processing']:
        time.sleep(0.02)
    if json.loads(get('/slots'))[0]['is_processing']:
        print('FAIL:', path, 'still generating 5 s after its client left')
        bad += 1
    else:
        print(path, 'slot free %.2f s after the client left, %d tokens made' % (time.time() - left, predicted() - before))
sys.exit(bad)
PY
  cat "$tmp/err"
  kill -TERM "$pid"; wait "$pid"
fi

# SIGTERM while a long answer streams.
"$cpubrrr" serve -m "$model" --port 0 -np 2 -c 4096 -t 1 >/dev/null 2>"$tmp/serve.err" &
pid=$!
await_ready "$tmp/serve.err"
if [ -z "$port" ]; then
  cp "$tmp/serve.err" "$tmp/err"; fail "serve did not start"; kill -9 "$pid"
else
  body='{"messages":[{"role":"user","content":"Tell a long story."}],"max_tokens":100000,"ignore_eos":true,"stream":true}'
  /usr/bin/python3 - "$port" "$body" >"$tmp/stream.out" 2>&1 <<'PY' &
import http.client, sys
conn = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=60)
conn.request('POST', '/v1/chat/completions', sys.argv[2], {'Content-Type': 'application/json'})
response = conn.getresponse()
print('status', response.status, flush=True)
for line in response:
    if line.startswith(b'data:'):
        print(line.decode().strip()[:200], flush=True)
PY
  client=$!
  for _ in $(seq 1 200); do [ "$(grep -c '^data:' "$tmp/stream.out")" -ge 5 ] && break; sleep 0.05; done
  [ "$(grep -c '^data:' "$tmp/stream.out")" -ge 5 ] || { cp "$tmp/stream.out" "$tmp/err"; fail "no stream before SIGTERM"; }
  kill -TERM "$pid"
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    cp "$tmp/serve.err" "$tmp/err"; fail "serve still running 10 s after SIGTERM mid-stream"; kill -9 "$pid"
  fi
  wait "$pid"
  rc=$?
  [ "$rc" = 0 ] || { cp "$tmp/serve.err" "$tmp/err"; fail "serve exit $rc after SIGTERM mid-stream"; }
  wait "$client"
  # The stream in flight is ended, not cut: its last event is the end marker.
  [ "$(tail -1 "$tmp/stream.out")" = "data: [DONE]" ] || { cp "$tmp/stream.out" "$tmp/err"; fail "the stream in flight was cut off"; }
fi

[ "$failures" = 0 ] && echo "all fault checks passed"
exit $((failures > 0))
