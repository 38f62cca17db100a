#!/usr/bin/env bash
# Perplexity files exchanged with llama.cpp's own llama-perplexity (built from the release's
# source): each engine reads the other's --kl-divergence-base file, on a trained model.
# Usage: perplexity_files_vs_llama_test.sh CPUBRRR LLAMA_PERPLEXITY MODEL TEXT BACKEND...
set -uo pipefail
here="$PWD"
cpubrrr="$here/$1"
llama="$here/$2"
model="$here/$3"
text="$here/$4"
backends="$here/$(dirname "$5")"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $1"; tail -40 "$tmp/out"; failures=$((failures + 1)); }
common=(-m "$model" -f "$text" -c 512 --chunks 6 -t 2)

# llama-perplexity finds its CPU backends in the current directory; its exit-time leaks
# are llama.cpp's, not ours, under the ASan build.
llama_perplexity() { (cd "$backends" && ASAN_OPTIONS=detect_leaks=0 "$llama" "${common[@]}" "$@") >"$tmp/out" 2>&1; }
ours() { "$cpubrrr" perplexity "${common[@]}" "$@" >"$tmp/out" 2>&1; }

# final_ppl: the number after "Final estimate: PPL = ".
final_ppl() { sed -n 's/.*Final estimate: PPL = \([0-9.]*\).*/\1/p' "$tmp/out"; }
# reported LABEL: the first number after "LABEL:" in the KL report.
reported() { grep -m1 "^$1" "$tmp/out" | sed 's/^[^:]*: *\([-0-9.]*\).*/\1/'; }
# check_kl NAME: the comparison printed a mean KL below 1e-3 and the same top token on at
# least 98% of the scored positions (a misread file gives KL in the units and top ~0%).
check_kl() {
  local kl top
  kl="$(reported "Mean    KLD")"
  top="$(reported "Same top p")"
  echo "$1: mean KLD $kl, same top $top%"
  awk -v kl="$kl" -v top="$top" 'BEGIN { exit !(kl != "" && kl < 1e-3 && top >= 98) }' || fail "$1"
}

llama_perplexity --kl-divergence-base "$tmp/llama.kld" || fail llama_writes_base
llama_ppl="$(final_ppl)"
ours --kl-divergence-base "$tmp/ours.kld" || fail cpubrrr_writes_base
our_ppl="$(final_ppl)"
echo "PPL: llama-perplexity $llama_ppl, cpubrrr $our_ppl"
awk -v a="$llama_ppl" -v b="$our_ppl" 'BEGIN { exit !(a > 1 && b > 1 && b / a < 1.005 && a / b < 1.005) }' ||
  fail ppl_within_half_a_percent
[ "$(stat -c %s "$tmp/llama.kld")" = "$(stat -c %s "$tmp/ours.kld")" ] || fail base_files_differ_in_size

ours --kl-divergence-base "$tmp/llama.kld" --kl-divergence && check_kl cpubrrr_reads_llama_base ||
  fail cpubrrr_reads_llama_base
llama_perplexity --kl-divergence-base "$tmp/ours.kld" --kl-divergence && check_kl llama_reads_cpubrrr_base ||
  fail llama_reads_cpubrrr_base

[ "$failures" = 0 ] && echo PASS
exit "$failures"
