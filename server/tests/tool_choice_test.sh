#!/usr/bin/env bash
# Serves each trained tiny model (harmony and Qwen3 ChatML) in turn and runs
# tool_choice_test.cjs against it with the official clients.
set -uo pipefail
driver="$1"
clients="$2"
script="$3"
shift 3
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source "$(dirname "$0")/server_port.sh"
rc=0
for model in "$@"; do
  echo "== $(basename "$model")"
  XDG_CACHE_HOME="$tmp/cache" "$driver" serve -m "$model" --port 0 -c 2048 -np 2 --alias tiny 2>"$tmp/serve.err" &
  pid=$!
  if port=$(server_port "$tmp/serve.err"); then
    NODE_PATH="$clients" node "$script" "$port" tiny || rc=1
  else
    rc=1
  fi
  kill -TERM "$pid"
  wait "$pid"
done
exit "$rc"
