#!/usr/bin/env bash
# The trainer end to end at a few steps on 40 of the corpus files: two runs with one seed
# write the same bytes, and the file tools/synth makes of its weights (the F32 twin) gives
# cpubrrr perplexity the PyTorch model's own perplexity.
# Usage: train_tiny_test.sh ARCH SHAPE TRAIN_TINY REFERENCE_PERPLEXITY SYNTH CPUBRRR CORPUS_FILE...
set -uo pipefail
here="$PWD"
arch="$1"
shape="$2"
train="$here/$3"
reference="$here/$4"
synth="$here/$5"
cpubrrr="$here/$6"
corpus="$here/$(dirname "$7")"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() { echo "FAIL $1"; tail -30 "$tmp/out"; failures=$((failures + 1)); }

train_run() {
  /usr/bin/python3 "$train" --arch "$arch" --corpus "$corpus" --out "$1" --seed 3 \
    --threads 1 --steps 3 --chat_steps 2 --batch 2 --seq 192 --files 40 --chat_examples 500 \
    >"$tmp/out" 2>&1
}
train_run "$tmp/a" || fail train_first
train_run "$tmp/b" || fail train_second
for f in tokenizer.json weights-f32.gguf heldout.txt; do
  cmp -s "$tmp/a/$f" "$tmp/b/$f" || { echo "FAIL $f differs between two runs of one seed"; failures=$((failures + 1)); }
done

"$synth" --shape="$shape" --tokenizer="$tmp/a/tokenizer.json" --weights="$tmp/a/weights-f32.gguf" \
  --all_f32 --out="$tmp/f32.gguf" >"$tmp/out" 2>&1 || fail synth_writes_twin
# final_ppl: the number after "Final estimate: PPL = ".
final_ppl() { sed -n 's/.*Final estimate: PPL = \([0-9.]*\).*/\1/p' "$tmp/out"; }
/usr/bin/python3 "$reference" --arch "$arch" --dir "$tmp/a" -f "$tmp/a/heldout.txt" -c 128 \
  --chunks 4 >"$tmp/out" 2>&1 || fail reference_perplexity
torch_ppl="$(final_ppl)"
"$cpubrrr" perplexity -m "$tmp/f32.gguf" -ctk f32 -ctv f32 -f "$tmp/a/heldout.txt" -c 128 \
  --chunks 4 -t 1 >"$tmp/out" 2>&1 || fail cpubrrr_perplexity
our_ppl="$(final_ppl)"
echo "PPL of the F32 twin: PyTorch $torch_ppl, cpubrrr $our_ppl"
awk -v a="$torch_ppl" -v b="$our_ppl" 'BEGIN { exit !(a > 1 && b > 1 && b / a < 1.0001 && a / b < 1.0001) }' ||
  fail ppl_equal

[ "$failures" = 0 ] && echo PASS
exit "$failures"
