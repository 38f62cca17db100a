#!/usr/bin/env bash
# Installs what is missing, builds the driver and runs `cpubrrr run` with the given arguments
# (with none, the default model answers a sample question).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/setup.sh >&2
[ $# -eq 0 ] && set -- "Why is the sky blue?"
bazel build --ui_event_filters=-info --noshow_progress //tools/cpubrrr:cpubrrr >&2
# The workspace lets the driver find the reference tokenizer the default model needs.
BUILD_WORKSPACE_DIRECTORY="$root" exec "$root/bazel-bin/tools/cpubrrr/cpubrrr" run "$@"
