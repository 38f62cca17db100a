#!/usr/bin/env bash
# Starts two servers on free loopback ports: the one under test (the fake-model driver, whose
# answers open with a harmony analysis channel, 4 ms a step, behind an API key) and a second
# one with a real tiny gpt-oss model to race against, and a fake one that answers with a
# tool call; then drives the web page in headless
# Chromium (web_page_test.cjs). Screenshots go to the test's undeclared outputs.
set -uo pipefail
fake_driver="$1"
driver="$2"
synth="$3"
tokenizer="$4"
clients="$5"  # node_modules holding playwright-core
script="$6"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
source "$(dirname "$0")/server_port.sh"
shots="${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp}/screenshots"
mkdir -p "$shots"
"$synth" --shape=gpt-oss-tiny --tokenizer="$tokenizer" --out="$tmp/tiny.gguf" 2>/dev/null || { echo "FAIL synth"; exit 1; }

pids=()
stop_all() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done; wait; }
trap stop_all EXIT

answer='<|channel|>analysis<|message|>The user wants a greeting. I will answer briefly.<|end|><|start|>assistant<|channel|>final<|message|>Hello! Here is my answer: '
CPUBRRR_FAKE_ANSWER="$answer" CPUBRRR_FAKE_STEP_MS=4 XDG_CACHE_HOME="$tmp/cache" "$fake_driver" serve \
  -m "$tmp/tiny.gguf" --port 0 -c 8192 -np 2 --alias fake --api-key secret >/dev/null 2>"$tmp/fake.err" &
pids+=($!)
XDG_CACHE_HOME="$tmp/cache" "$driver" serve -m "$tmp/tiny.gguf" --port 0 -c 1024 -np 1 --alias tiny \
  >/dev/null 2>"$tmp/real.err" &
pids+=($!)
# A third whose every answer is a harmony tool call.
call='<|channel|>analysis<|message|>Need the time.<|end|><|start|>assistant to=functions.get_time<|channel|>commentary <|constrain|>json<|message|>{"zone":"UTC"}<|call|>'
CPUBRRR_FAKE_ANSWER="$call" XDG_CACHE_HOME="$tmp/cache" "$fake_driver" serve \
  -m "$tmp/tiny.gguf" --port 0 -c 2048 -np 1 --alias tools >/dev/null 2>"$tmp/tools.err" &
pids+=($!)
main_port=$(server_port "$tmp/fake.err") || exit 1
other_port=$(server_port "$tmp/real.err") || exit 1
tools_port=$(server_port "$tmp/tools.err") || exit 1

NODE_PATH="$clients" node "$script" "$main_port" "$other_port" "$tools_port" secret "$shots"
