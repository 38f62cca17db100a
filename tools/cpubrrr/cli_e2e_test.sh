#!/usr/bin/env bash
# End to end on a tiny synthetic gpt-oss written at test time (real tokenizer, fake
# forward pass): run, chat, logits, tokenize, and the default model in a fresh cache.
set -uo pipefail
fake="$1"
synth="$2"
tokenizer="$3"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export RUNFILES_DIR="${RUNFILES_DIR:-${TEST_SRCDIR:-}}"
failures=0
fail() { echo "FAIL $1"; cat "$tmp/out" "$tmp/err"; failures=$((failures + 1)); }

"$synth" --shape=gpt-oss-tiny --tokenizer="$tokenizer" --out="$tmp/tiny.gguf" 2>/dev/null ||
  { echo "FAIL synth"; exit 1; }

"$fake" run -m "$tmp/tiny.gguf" -p "Hello" -n 8 -s 1 >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && [ -s "$tmp/out" ] &&
  grep -q "prompt: [0-9]* tokens .*tok/s | generated: 8 tokens, .*tok/s | stop: length" "$tmp/err"; } ||
  fail run

# o200k ids of "Hello world" (the same in Hugging Face's and llama.cpp's tokenizers).
"$fake" tokenize -m "$tmp/tiny.gguf" --ids "Hello world" >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = "[13225, 2375]" ] || fail tokenize_ids
"$fake" tokenize -m "$tmp/tiny.gguf" -p "Hi<|start|>" >"$tmp/out" 2>"$tmp/err"
grep -q "200006 -> '<|start|>'" "$tmp/out" || fail tokenize_special
"$fake" tokenize -m "$tmp/tiny.gguf" --ids --no-parse-special -p "<|start|>" >"$tmp/out" 2>"$tmp/err"
! grep -q 200006 "$tmp/out" || fail tokenize_no_special

printf 'hello\n/reset\nagain\n/exit\nnever\n' |
  "$fake" chat -m "$tmp/tiny.gguf" -n 4 >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && [ "$(grep -c 'tok/s' "$tmp/err")" = 2 ] && grep -q "reset" "$tmp/err"; } || fail chat

"$fake" logits -m "$tmp/tiny.gguf" --json --top 3 -p "Hello" >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && grep -q '"n_vocab": 201088' "$tmp/out" && [ "$(grep -c '"id"' "$tmp/out")" = 3 ]; } ||
  fail logits

XDG_CACHE_HOME="$tmp/cache" "$fake" run -p "Hello" -n 4 >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && grep -q "RANDOM weights" "$tmp/err" &&
  ls "$tmp/cache/cpubrrr/models/"*.gguf >/dev/null; } || fail default_model

[ "$failures" = 0 ] && echo PASS
exit "$failures"
