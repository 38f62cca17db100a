#!/usr/bin/env bash
# Builds the GGUF reader fuzzer with clang (libFuzzer + ASan + UBSan) and runs it for
# the given number of seconds (default 60) on a seed corpus of valid files.
# Usage: scripts/fuzz_gguf.sh [seconds]   Work folder: $FUZZ_DIR (default /tmp/cpubrrr-fuzz-gguf).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
work="${FUZZ_DIR:-/tmp/cpubrrr-fuzz-gguf}"
mkdir -p "$work/seeds" "$work/corpus" "$work/crashes"

absl_libs=(-labsl_statusor -labsl_status -labsl_strerror -labsl_str_format_internal
  -labsl_cord -labsl_cordz_info -labsl_cord_internal -labsl_cordz_functions
  -labsl_cordz_handle -labsl_hash -labsl_city -labsl_low_level_hash -labsl_raw_hash_set
  -labsl_bad_optional_access -labsl_bad_variant_access -labsl_hashtablez_sampler
  -labsl_exponential_biased -labsl_synchronization -labsl_graphcycles_internal
  -labsl_stacktrace -labsl_symbolize -labsl_debugging_internal -labsl_demangle_internal
  -labsl_malloc_internal -labsl_time -labsl_civil_time -labsl_time_zone -labsl_strings
  -labsl_strings_internal -labsl_base -labsl_spinlock_wait -labsl_int128
  -labsl_throw_delegate -labsl_raw_logging_internal -labsl_log_severity -lpthread)
reader_srcs=(runtime/gguf/gguf_value.cc runtime/gguf/byte_cursor.cc
  runtime/gguf/mapped_file.cc runtime/gguf/gguf_parser.cc runtime/gguf/gguf_file.cc
  quant/ggml_type.cc)
cxx=(clang++ -std=c++20 -I. -g)

"${cxx[@]}" -O1 runtime/gguf/gguf_fuzz_seeds.cc runtime/gguf/gguf_writer.cc \
  runtime/gguf/gguf_value.cc quant/ggml_type.cc "${absl_libs[@]}" -o "$work/gguf_fuzz_seeds"
"$work/gguf_fuzz_seeds" "$work/seeds"

"${cxx[@]}" -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  runtime/gguf/gguf_reader_fuzzer.cc "${reader_srcs[@]}" "${absl_libs[@]}" \
  -o "$work/gguf_reader_fuzzer"

# -malloc_limit_mb: the reader must never allocate far beyond the input size.
"$work/gguf_reader_fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=2048 -malloc_limit_mb=64 -print_final_stats=1 \
  -dict=runtime/gguf/gguf.dict -artifact_prefix="$work/crashes/" \
  "$work/corpus" "$work/seeds"
