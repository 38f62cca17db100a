#!/usr/bin/env bash
# Multi-turn chat with answers longer than 1,000 tokens on tiny synthetic gpt-oss and
# qwen3moe models (real tokenizers): later turns, /reset and a conversation that outgrows
# the context all go on, and each turn says how much of the cache it reused.
set -uo pipefail
driver="$1"
synth="$2"
gpt_oss_tokenizer="$3"
qwen3_tokenizer="$4"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
export RUNFILES_DIR="${RUNFILES_DIR:-${TEST_SRCDIR:-}}"
failures=0
fail() { echo "FAIL $1"; cat "$tmp/err"; failures=$((failures + 1)); }

# field LINE N: the Nth number of a timing line ("prompt: P tokens (R reused), ...").
field() { grep -o '[0-9.]\+' <<<"$1" | sed -n "$2p"; }

# long_chat NAME MODEL: two 1,100-token answers, /reset, a third; the second turn reuses
# at least the first prompt (gpt-oss: exactly it, from the checkpoint the engine makes
# after a prompt), the turn after /reset nothing.
long_chat() {
  printf 'Tell me a long story.\nAnd another one.\n/reset\nAgain.\n/exit\n' |
    "$driver" chat -m "$2" -n 1100 --ignore-eos -s 1 -c 8192 >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  mapfile -t lines < <(grep -a '^prompt: ' "$tmp/err")
  if [ $rc != 0 ] || grep -q '^cpubrrr:' "$tmp/err" || [ "${#lines[@]}" != 3 ] ||
     ! grep -q 'conversation reset' "$tmp/err"; then
    fail "$1: exit $rc, ${#lines[@]} answers"
    return
  fi
  for line in "${lines[@]}"; do
    grep -q 'generated: 1100 tokens' <<<"$line" || fail "$1: short answer: $line"
  done
  local first_prompt reused_second reused_third
  first_prompt=$(field "${lines[0]}" 1)
  reused_second=$(field "${lines[1]}" 2)
  reused_third=$(field "${lines[2]}" 2)
  echo "$1: first prompt $first_prompt tokens; second turn: ${lines[1]}"
  if [ "$1" = gpt-oss ]; then
    [ "$reused_second" = "$first_prompt" ] || fail "$1: second turn reused $reused_second"
  else
    [ "$reused_second" -ge "$first_prompt" ] || fail "$1: second turn reused $reused_second"
  fi
  [ "$reused_third" = 0 ] || fail "$1: the turn after /reset reused $reused_third"
}

"$synth" --shape=gpt-oss-tiny --tokenizer="$gpt_oss_tokenizer" --out="$tmp/gpt-oss.gguf" 2>/dev/null ||
  { echo "FAIL synth gpt-oss"; exit 1; }
"$synth" --shape=qwen3moe-tiny --tokenizer="$qwen3_tokenizer" --out="$tmp/qwen3.gguf" 2>/dev/null ||
  { echo "FAIL synth qwen3moe"; exit 1; }
long_chat gpt-oss "$tmp/gpt-oss.gguf"
long_chat qwen3moe "$tmp/qwen3.gguf"

# In a 1,500-token context the second answer fills it, the third message no longer fits
# (dropped with a message), and after /reset the chat answers again.
printf 'Tell me a long story.\nAnd another one.\nA third.\n/reset\nAgain.\n/exit\n' |
  "$driver" chat -m "$tmp/gpt-oss.gguf" -n 1100 --ignore-eos -s 1 -c 1500 >"$tmp/out" 2>"$tmp/err"
rc=$?
{ [ $rc = 0 ] && [ "$(grep -c '^prompt: ' "$tmp/err")" = 3 ] &&
  grep -q 'context of 1500 tokens is full' "$tmp/err" &&
  grep -q 'the message was dropped' "$tmp/err" &&
  [ "$(grep -a '^prompt: ' "$tmp/err" | tail -1 | grep -o '([0-9]* reused)')" = "(0 reused)" ]; } ||
  fail "outgrown context: exit $rc"

[ "$failures" = 0 ] && echo PASS
exit "$failures"
