#!/usr/bin/env bash
# Error cases of the driver: exit code 1 and one clear line; `models` on a fake Ollama store.
set -uo pipefail
# qemu_run.sh runs aarch64 binaries under qemu (--config=aarch64) and others as they are.
cpubrrr=(bash "$1" "$2")  # the all-in-one driver
fake=(bash "$1" "$3")     # the driver over the fake model
qwen3=(bash "$1" "$4")    # the driver with the qwen3moe forward pass only
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

# expect_error NAME PATTERN CMD...: CMD must exit 1 and print exactly one stderr line
# matching PATTERN.
expect_error() {
  local name="$1" pattern="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
  local rc=$? lines
  lines=$(wc -l <"$tmp/err")
  if [ "$rc" != 1 ] || [ "$lines" != 1 ] || ! grep -q -- "$pattern" "$tmp/err"; then
    echo "FAIL $name: rc=$rc, $lines stderr lines, wanted /$pattern/:"; cat "$tmp/err"
    failures=$((failures + 1))
  fi
}

# gguf_with_arch FILE ARCH: writes a GGUF v3 with no tensors and general.architecture only.
gguf_with_arch() {
  local key="general.architecture" value="$2"
  {
    printf 'GGUF'; printf '\x03\x00\x00\x00'
    printf '\x00\x00\x00\x00\x00\x00\x00\x00'                 # tensors
    printf '\x01\x00\x00\x00\x00\x00\x00\x00'                 # key-value pairs
    printf "\\x$(printf %02x ${#key})\\x00\\x00\\x00\\x00\\x00\\x00\\x00%s" "$key"
    printf '\x08\x00\x00\x00'                                 # type: string
    printf "\\x$(printf %02x ${#value})\\x00\\x00\\x00\\x00\\x00\\x00\\x00%s" "$value"
  } >"$1"
}

export OLLAMA_MODELS="$tmp/store"
mkdir -p "$OLLAMA_MODELS/blobs" "$OLLAMA_MODELS/manifests/registry.ollama.ai/library/tiny"
hex=$(printf 'a%.0s' $(seq 64))
gguf_with_arch "$OLLAMA_MODELS/blobs/sha256-$hex" llama
printf '{"schemaVersion":2,"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:%s","size":1}]}' \
  "$hex" >"$OLLAMA_MODELS/manifests/registry.ollama.ai/library/tiny/latest"
gguf_with_arch "$tmp/llama.gguf" llama
gguf_with_arch "$tmp/gptoss.gguf" gptoss

expect_error missing_file "no-such.gguf" "${cpubrrr[@]}" run -m "$tmp/no-such.gguf" -p hi
expect_error bad_flag "unknown flag --bogus" "${cpubrrr[@]}" run --bogus
expect_error bad_value "invalid value 'x' for --n-predict" "${cpubrrr[@]}" run -n x -p hi
expect_error unknown_command "unknown command 'fly'" "${cpubrrr[@]}" fly
expect_error not_in_store "nosuch:7b is not in the Ollama store" "${cpubrrr[@]}" run -m nosuch:7b -p hi
expect_error unknown_arch "unknown architecture 'llama'" "${cpubrrr[@]}" run -m "$tmp/llama.gguf" -p hi
expect_error serve_missing_file "no-such.gguf" "${cpubrrr[@]}" serve -m "$tmp/no-such.gguf" --port 0
expect_error serve_bad_key_file "cannot read the API key file" "${cpubrrr[@]}" serve -m "$tmp/llama.gguf" --port 0 --api-key-file "$tmp/no-keys"
# A model that fails to load after the server listens: the error, exit 1, no hang.
timeout 20 "${cpubrrr[@]}" serve -m "$tmp/llama.gguf" --port 0 >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ "$rc" != 1 ] || ! grep -q "unknown architecture 'llama'" "$tmp/err"; then
  echo "FAIL serve_unloadable: rc=$rc"; cat "$tmp/err"; failures=$((failures + 1))
fi
expect_error ollama_unknown_arch "unknown architecture 'llama'" "${fake[@]}" run -m tiny -p hi
expect_error not_built "gpt-oss forward pass is not built into this binary" "${qwen3[@]}" run -m "$tmp/gptoss.gguf" -p hi
expect_error no_tokenizer "tokenizer.ggml.model" "${cpubrrr[@]}" run -m "$tmp/gptoss.gguf" -p hi
expect_error no_prompt "no prompt" "${cpubrrr[@]}" run -m "$tmp/gptoss.gguf"
expect_error unreadable_prompt "cannot read" "${cpubrrr[@]}" run -m "$tmp/gptoss.gguf" -f "$tmp/none.txt"
expect_error bench_nothing "nothing to run" "${cpubrrr[@]}" bench -m "$tmp/gptoss.gguf" -p 0 -n 0
expect_error bench_threads "invalid value '1,0' for --threads" "${cpubrrr[@]}" bench -t 1,0
expect_error bench_unknown_arch "unknown architecture 'llama'" "${cpubrrr[@]}" bench -m "$tmp/llama.gguf"
expect_error bench_missing_file "no-such.gguf" "${cpubrrr[@]}" bench -m "$tmp/no-such.gguf"
expect_error ppl_no_text "give the text to score with -f FILE" "${cpubrrr[@]}" perplexity -m "$tmp/gptoss.gguf"
expect_error kl_no_base "needs --kl-divergence-base" "${cpubrrr[@]}" perplexity --kl-divergence
expect_error kl_bad_base "is not a logits file" "${cpubrrr[@]}" perplexity --kl-divergence \
  --kl-divergence-base "$tmp/gptoss.gguf"

"${cpubrrr[@]}" models >"$tmp/out" 2>"$tmp/err"
if [ $? != 0 ] || ! grep -q "^tiny:latest .*sha256-$hex" "$tmp/out" || ! grep -q "^NAME" "$tmp/out"; then
  echo "FAIL models:"; cat "$tmp/out" "$tmp/err"; failures=$((failures + 1))
fi
OLLAMA_MODELS="$tmp/empty" "${cpubrrr[@]}" models >"$tmp/out" 2>"$tmp/err"
if [ $? != 0 ] || ! grep -q "no models" "$tmp/err"; then
  echo "FAIL models_empty:"; cat "$tmp/err"; failures=$((failures + 1))
fi
"${cpubrrr[@]}" run --help >"$tmp/out" 2>&1 && grep -q -- "--repeat-last-n" "$tmp/out" ||
  { echo "FAIL help"; failures=$((failures + 1)); }

[ "$failures" = 0 ] && echo PASS
exit "$failures"
