#!/usr/bin/env bash
# `cpubrrr bench` on a tiny synthetic gpt-oss written at test time: the markdown report's
# shape (machine and load lines, header, one row per test and thread count, numeric t/s)
# and the JSON rows.
set -uo pipefail
cpubrrr="$1"
synth="$2"
tokenizer="$3"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $1"; cat "$tmp/out" "$tmp/err"; failures=$((failures + 1)); }

"$synth" --shape=gpt-oss-tiny --tokenizer="$tokenizer" --out="$tmp/tiny.gguf" 2>/dev/null ||
  { echo "FAIL synth"; exit 1; }

"$cpubrrr" bench -m "$tmp/tiny.gguf" -p 8 -n 4 -r 2 -t 1,2 >"$tmp/out" 2>"$tmp/err" || fail bench_exit
grep -q "^machine: .*, [0-9]* cores*; read bandwidth: 1 thread [0-9.]* GB/s, 2 threads [0-9.]* GB/s$" "$tmp/out" ||
  fail machine_line
grep -q "^load with 1 thread: [0-9.]* s, peak RSS [0-9.]* GiB, [0-9.]* GiB after the tests$" "$tmp/out" ||
  fail load_line_1
grep -q "^load with 2 threads: [0-9.]* s, peak RSS [0-9.]* GiB, [0-9.]* GiB after the tests$" "$tmp/out" ||
  fail load_line_2

# The table: a header, a rule, then rows; cells split on " | ".
header=$(grep "^| model " "$tmp/out")
for column in size params threads test "t/s" GB/token "ceiling t/s" "% of ceiling" spread "disk GB/token"; do
  [[ "$header" == *"| $column |"* || "$header" == *" $column |"* ]] || fail "column $column"
done
grep -q "^| -* | -*: | " "$tmp/out" || fail rule
rows=$(grep "^| " "$tmp/out" | tail -n +3)
[ "$(printf '%s\n' "$rows" | wc -l)" = 4 ] || fail row_count
# Each row: threads, test, "mean ± stddev", and "-" in the ceiling columns of pp rows only.
expected="1 pp8|1 tg4|2 pp8|2 tg4"
got=$(printf '%s\n' "$rows" | awk -F' [|] ' '{
  gsub(/^ +| +$/, "", $4); gsub(/^ +| +$/, "", $5); gsub(/^ +| +$/, "", $6); gsub(/^ +| +$/, "", $8)
  if ($6 !~ /^[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+$/) print "bad t/s: " $6
  if (($5 ~ /^pp/) != ($8 == "-")) print "bad ceiling: " $8
  disk = $11; gsub(/^ +| +[|]$/, "", disk)
  if (disk !~ /^[0-9]+\.[0-9][0-9][0-9]$/) print "bad disk GB/token: " disk
  printf "%s %s|", $4, $5 }')
[ "$got" = "$expected|" ] || { echo "rows: $got"; fail rows; }

"$cpubrrr" bench -m "$tmp/tiny.gguf" -p 8 -n 0 -r 1 -t 1 -o json >"$tmp/out" 2>"$tmp/err" || fail json_exit
python3 - "$tmp/out" <<'PY' || fail json
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 1, rows
r = rows[0]
assert (r["test"], r["n_prompt"], r["n_gen"], r["n_threads"]) == ("pp8", 8, 0, 1), r
assert len(r["samples_ts"]) == 1 and r["avg_ts"] > 0 and r["ceiling_ts"] is None, r
assert r["disk_gb_per_token"] >= 0 and r["peak_rss_after_tests_bytes"] >= r["peak_rss_bytes"] > 0, r
PY

[ "$failures" = 0 ] && echo PASS
exit "$failures"
