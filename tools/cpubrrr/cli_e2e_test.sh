#!/usr/bin/env bash
# End to end on tiny synthetic models written at test time (real tokenizers): the real
# drivers generate and score a text (perplexity, KL divergence); the fake-model driver
# checks chat, logits and tokenize cheaply; the default model is written into a fresh cache.
set -uo pipefail
fake="$1"
synth="$2"
tokenizer="$3"
real="$4"
qwen3_driver="$5"
qwen3_tokenizer="$6"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export RUNFILES_DIR="${RUNFILES_DIR:-${TEST_SRCDIR:-}}"
failures=0
fail() { echo "FAIL $1"; cat "$tmp/out" "$tmp/err"; failures=$((failures + 1)); }

"$synth" --shape=gpt-oss-tiny --tokenizer="$tokenizer" --out="$tmp/tiny.gguf" 2>/dev/null ||
  { echo "FAIL synth"; exit 1; }

# run_ok NAME DRIVER MODEL: a greedy run of 8 tokens prints text and the timing line.
run_ok() {
  "$2" run -m "$3" -p "Hello" -n 8 --temp 0 >"$tmp/out" 2>"$tmp/err"
  { [ $? = 0 ] && [ -s "$tmp/out" ] &&
    grep -q "prompt: [0-9]* tokens .*tok/s | generated: [1-8] tokens, .*tok/s | stop: " "$tmp/err"; } ||
    fail "$1"
}
run_ok run_fake "$fake" "$tmp/tiny.gguf"
run_ok run_gpt_oss "$real" "$tmp/tiny.gguf"
"$synth" --shape=qwen3moe-tiny --tokenizer="$qwen3_tokenizer" --out="$tmp/qwen3.gguf" 2>/dev/null ||
  { echo "FAIL synth qwen3moe"; exit 1; }
run_ok run_qwen3moe "$qwen3_driver" "$tmp/qwen3.gguf"

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

# perplexity on a text of repeated sentences: the running estimate and the final line;
# its saved log-probabilities compared with a rerun show no divergence and the same top.
for i in $(seq 60); do echo "The jury said the election was conducted well, and the city thanked them."; done >"$tmp/text"
"$real" perplexity -m "$tmp/tiny.gguf" -f "$tmp/text" -c 64 --chunks 5 --kl-divergence-base "$tmp/base" \
  >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && grep -q '^\[1\][0-9.]*,\[2\]' "$tmp/out" && grep -q "^Final estimate: PPL = [0-9.]* +/- " "$tmp/out"; } ||
  fail perplexity
"$real" perplexity -m "$tmp/tiny.gguf" --kl-divergence-base "$tmp/base" --kl-divergence >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && grep -q "^Mean    KLD:   0.0000" "$tmp/out" && grep -Eq "^Same top p: +(9[5-9]|100)\." "$tmp/out"; } ||
  fail kl_divergence

XDG_CACHE_HOME="$tmp/cache" "$real" run -p "Hello" -n 4 >"$tmp/out" 2>"$tmp/err"
{ [ $? = 0 ] && grep -q "trained on the Brown corpus" "$tmp/err" &&
  ls "$tmp/cache/cpubrrr/models/"*.gguf >/dev/null; } || fail default_model

# With AVX2 (and FMA, F16C) the default model's MXFP4 experts are repacked: written to the
# cache on the first load (the run above), mapped from it on the next ones, the same text
# as without repacking and as repacked in memory.
if grep -qw avx2 /proc/cpuinfo && grep -qw fma /proc/cpuinfo && grep -qw f16c /proc/cpuinfo; then
  cache="$tmp/cache/cpubrrr/repacked/"
  XDG_CACHE_HOME="$tmp/cache" "$real" run -s 1 -p "Hello" -n 8 >"$tmp/out1" 2>"$tmp/err1"
  XDG_CACHE_HOME="$tmp/cache" "$real" run -s 1 -p "Hello" -n 8 --no-repack >"$tmp/out2" 2>"$tmp/err2"
  XDG_CACHE_HOME="$tmp/cache" "$real" run -s 1 -p "Hello" -n 8 --no-repack-cache >"$tmp/out3" 2>"$tmp/err3"
  { grep -q "written to $cache" "$tmp/err" && grep -q "mapped from $cache" "$tmp/err1" &&
    ! grep -q "repacked" "$tmp/err2" && grep -q "repacked for this CPU in memory$" "$tmp/err3" &&
    cmp -s "$tmp/out1" "$tmp/out2" && cmp -s "$tmp/out1" "$tmp/out3"; } || fail repack_cache
fi

[ "$failures" = 0 ] && echo PASS
exit "$failures"
