#!/usr/bin/env bash
# A qwen3moe file carrying Qwen3-Coder's chat template, served by the fake-model driver whose
# every answer is a Qwen3-Coder XML tool call: the official openai and ollama clients must
# get the call with arguments typed by the tool's schema (qwen3_coder_test.cjs).
set -uo pipefail
fake_driver="$1"
synth="$2"
tokenizer="$3"
template="$4"
clients="$5"
script="$6"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source "$(dirname "$0")/server_port.sh"
"$synth" --shape=qwen3moe-tiny --tokenizer="$tokenizer" --chat_template_file="$template" --out="$tmp/coder.gguf" \
  2>/dev/null || { echo "FAIL synth"; exit 1; }
answer=$'Checking.\n<tool_call>\n<function=edit>\n<parameter=path>\na.cc\n</parameter>\n<parameter=line>\n7\n</parameter>\n<parameter=dry>\nFalse\n</parameter>\n<parameter=text>\n12\n</parameter>\n</function>\n</tool_call><|im_end|>'
CPUBRRR_FAKE_ANSWER="$answer" XDG_CACHE_HOME="$tmp/cache" "$fake_driver" serve -m "$tmp/coder.gguf" --port 0 \
  -c 2048 -np 1 --alias coder >/dev/null 2>"$tmp/serve.err" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null; wait' EXIT
port=$(server_port "$tmp/serve.err") || exit 1
NODE_PATH="$clients" node "$script" "$port"
