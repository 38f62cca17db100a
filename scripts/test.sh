#!/usr/bin/env bash
# The project's test command: installs what is missing, then builds and runs every test,
# plain and under ASan + UBSan.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
bazel test //...
bazel test --config=asan //...
