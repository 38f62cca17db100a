#!/usr/bin/env bash
# Starts `cpubrrr serve` on a free loopback port with a tiny gpt-oss model and an API key,
# runs the official clients against it (clients_test.cjs), then stops it with SIGTERM: it
# must exit 0 within 10 s.
set -uo pipefail
driver="$1"
synth="$2"
tokenizer="$3"
clients="$4"  # node_modules holding openai and ollama
script="$5"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source "$(dirname "$0")/server_port.sh"
"$synth" --shape=gpt-oss-tiny --tokenizer="$tokenizer" --out="$tmp/tiny.gguf" 2>/dev/null || { echo "FAIL synth"; exit 1; }
# An Ollama store holding one more model, which /api/tags lists beside the served one.
hex=$(printf 'a%.0s' $(seq 64))
mkdir -p "$tmp/ollama/blobs" "$tmp/ollama/manifests/registry.ollama.ai/library/stored"
cp "$tmp/tiny.gguf" "$tmp/ollama/blobs/sha256-$hex"
printf '{"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:%s"}]}' "$hex" \
  >"$tmp/ollama/manifests/registry.ollama.ai/library/stored/7b"
OLLAMA_MODELS="$tmp/ollama" XDG_CACHE_HOME="$tmp/cache" "$driver" serve -m "$tmp/tiny.gguf" --port 0 --api-key secret -c 1024 -np 4 --alias tiny --cors-origin http://app.example \
  2>"$tmp/serve.err" &
pid=$!
port=$(server_port "$tmp/serve.err") || { kill "$pid"; exit 1; }
NODE_PATH="$clients" node "$script" "$port" secret tiny
rc=$?
kill -TERM "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "FAIL still running 10 s after SIGTERM"; kill -9 "$pid"; exit 1; fi
wait "$pid"
stop_rc=$?
[ "$stop_rc" = 0 ] || { echo "FAIL exit $stop_rc after SIGTERM"; cat "$tmp/serve.err"; rc=1; }
exit "$rc"
