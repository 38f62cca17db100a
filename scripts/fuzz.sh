#!/usr/bin/env bash
# Builds every libFuzzer target of tests/fuzz with clang (ASan + UBSan) in a Bazel output
# base of its own, then runs each for SECONDS (default 60) from its committed seeds. New
# inputs go to $FUZZ_DIR/TARGET/corpus, crashes to $FUZZ_DIR/TARGET/crashes (once fixed,
# copy each into tests/fuzz/seeds/TARGET/, where the seeds test replays it).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   ($FUZZ_DIR default /tmp/cpubrrr-fuzz)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(gguf_reader_fuzzer tokenizer_fuzzer chat_parser_fuzzer
  chat_renderer_fuzzer api_request_fuzzer ollama_store_fuzzer)
work="${FUZZ_DIR:-/tmp/cpubrrr-fuzz}"
root="$PWD"
bazel=(bazel --output_base="$HOME/.cache/cpubrrr/fuzz-output-base")
"${bazel[@]}" build --config=fuzz "${targets[@]/#/\/\/tests/fuzz:}"
bin="$("${bazel[@]}" info --config=fuzz bazel-bin)"
# The fuzz build's Bazel server holds memory the fuzzers want.
"${bazel[@]}" shutdown

status=0
for target in "${targets[@]}"; do
  mkdir -p "$work/$target/corpus" "$work/$target/crashes"
  extra=()
  # The GGUF reader must never allocate far beyond its input: a 64 MiB cap on 64 KiB files.
  [ "$target" = gguf_reader_fuzzer ] && extra=(-dict="$root/tests/fuzz/gguf_reader.dict" -max_len=65536 -malloc_limit_mb=64)
  echo "== $target: $seconds s"
  # From the runfiles root, where the targets find their data files.
  (cd "$bin/tests/fuzz/$target.runfiles/cpubrrr" &&
    "$bin/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/$target/crashes/" "${extra[@]}" \
      "$work/$target/corpus" "$root/tests/fuzz/seeds/$target") || status=1
done
exit $status
