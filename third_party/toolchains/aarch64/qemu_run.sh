#!/usr/bin/env bash
# --run_under wrapper for --config=aarch64: runs an aarch64 ELF under qemu-aarch64 -cpu max.
set -euo pipefail
# e_machine (ELF offset 18) is 0xb7 for aarch64; anything else (scripts, host tools) runs as is.
if [ "$(od -An -tx1 -j18 -N1 "$1" 2>/dev/null | tr -d ' ')" != "b7" ]; then exec "$@"; fi
# -E sets the variable for the guest only (qemu itself is an x86 binary). CPUBRRR_EXPECT_SME
# tells tests that the emulated CPU has SME, so a missing feature fails instead of skipping.
# The guest's loader and glibc are Debian's multiarch arm64 ones (QEMU_LD_PREFIX=/): with
# the cross toolchain's older glibc in /usr/aarch64-linux-gnu, qemu 7.2 hangs in
# pthread_create on this kernel, so every threaded test would time out.
exec env QEMU_LD_PREFIX=/ qemu-aarch64 -cpu max \
  -E LD_LIBRARY_PATH=/usr/lib/aarch64-linux-gnu -E CPUBRRR_EXPECT_SME=1 "$@"
