#!/usr/bin/env bash
# The project's test command: installs what is missing, then builds and runs every test,
# plain, under ASan + UBSan, the threading runtime and the serving queue under TSan, and
# cross-built for aarch64 under qemu.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/check_llama_ref_tags.sh
# CI runs every test for real instead of trusting results cached by earlier runs.
cache_flags=()
[ -n "${CI:-}" ] && cache_flags=(--nocache_test_results)
bazel test "${cache_flags[@]}" //...
bazel test "${cache_flags[@]}" --config=asan //...
bazel test "${cache_flags[@]}" --config=tsan //runtime/threading/... //runtime/serving/...
bazel test "${cache_flags[@]}" --config=aarch64 //...
