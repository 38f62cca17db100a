#!/usr/bin/env bash
# Fails when a target depends on @llama_ref (x86 llama.cpp binaries) without the
# requires_llama_ref tag that keeps it out of the aarch64 cross build.
set -euo pipefail
cd "$(dirname "$0")/.."
untagged=$(bazel query --noshow_progress \
  'kind(rule, rdeps(//..., @llama_ref//:all)) except attr(tags, "requires_llama_ref", //...) except @llama_ref//:all' 2>/dev/null)
if [ -n "$untagged" ]; then
  echo "these targets depend on @llama_ref but lack tags = [\"requires_llama_ref\"]:" >&2
  echo "$untagged" >&2
  exit 1
fi
