"""Byte-level BPE: trains merges on a text, encodes with them, and writes a Hugging Face
tokenizer.json (the format tools/synth reads) with the architecture's special tokens."""
import collections
import json

import regex

# The pre-tokenizer patterns llama.cpp selects by tokenizer.ggml.pre (MODEL_SPEC.md 4).
PATTERNS = {
    "gpt-4o": (
        r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+"
        r"[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}|"
        r" ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"),
    "qwen2": (
        r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}|"
        r" ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"),
}


def _byte_chars():
    """GPT-2's map from each byte to a printable unicode character."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    chars = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in chars:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


BYTE_CHARS = _byte_chars()


def _symbols(word):
    return tuple(BYTE_CHARS[b] for b in word.encode("utf-8"))


class Bpe:
    """A trained vocabulary: tokens by id, merges by rank, special tokens after them."""

    def __init__(self, pre, tokens, merges, specials):
        self.pre = pre
        self.pattern = regex.compile(PATTERNS[pre])
        self.tokens = tokens
        self.merges = merges
        self.specials = specials
        self.ids = {t: i for i, t in enumerate(tokens)}
        self.ranks = {m: r for r, m in enumerate(merges)}
        self._cache = {}

    def _encode_word(self, word):
        syms = _symbols(word)
        whole = "".join(syms)
        # o200k's ignore_merges: a word that is itself a token is taken whole.
        if self.pre == "gpt-4o" and whole in self.ids:
            return [self.ids[whole]]
        syms = list(syms)
        while len(syms) > 1:
            best = min(range(len(syms) - 1),
                       key=lambda i: self.ranks.get((syms[i], syms[i + 1]), 1 << 30))
            if (syms[best], syms[best + 1]) not in self.ranks:
                break
            syms[best:best + 2] = [syms[best] + syms[best + 1]]
        return [self.ids[s] for s in syms]

    def encode(self, text):
        """Token ids of plain text (no special tokens are parsed in it)."""
        out = []
        for word in self.pattern.findall(text):
            ids = self._cache.get(word)
            if ids is None:
                ids = self._cache[word] = self._encode_word(word)
            out.extend(ids)
        return out

    def special(self, name):
        return self.ids[name]

    def decode(self, ids):
        byte_of = {c: b for b, c in enumerate(BYTE_CHARS)}
        data = bytearray()
        for i in ids:
            t = self.tokens[i]
            if t in self.specials:
                data += t.encode()
            else:
                data += bytes(byte_of[c] for c in t)
        return data.decode("utf-8", errors="replace")

    def write_tokenizer_json(self, path):
        n_normal = len(self.tokens) - len(self.specials)
        doc = {
            "version": "1.0",
            "added_tokens": [
                {"id": n_normal + i, "content": s, "single_word": False, "lstrip": False,
                 "rstrip": False, "normalized": False, "special": True}
                for i, s in enumerate(self.specials)],
            "pre_tokenizer": {"type": "Split", "pattern": {"Regex": PATTERNS[self.pre]}},
            "decoder": {"type": "ByteLevel"},
            "model": {"type": "BPE", "ignore_merges": self.pre == "gpt-4o",
                      "vocab": {t: i for i, t in enumerate(self.tokens[:n_normal])},
                      "merges": [[a, b] for a, b in self.merges]},
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False)


def train(texts, pre, vocab_size, specials):
    """Learns merges until the vocabulary (256 bytes, merges, specials) has vocab_size
    tokens; ties between equally frequent pairs go to the pair seen first."""
    pattern = regex.compile(PATTERNS[pre])
    counts = collections.Counter()
    for text in texts:
        counts.update(pattern.findall(text))
    words = [list(_symbols(w)) for w in counts]
    freq = list(counts.values())
    pairs = collections.Counter()
    where = collections.defaultdict(set)
    for wi, syms in enumerate(words):
        for a, b in zip(syms, syms[1:]):
            pairs[(a, b)] += freq[wi]
            where[(a, b)].add(wi)
    tokens = list(BYTE_CHARS)
    merges = []
    while len(tokens) + len(specials) < vocab_size and pairs:
        best = max(pairs, key=lambda p: (pairs[p], -len(p[0] + p[1])))
        if pairs[best] < 2:
            break
        merges.append(best)
        merged = best[0] + best[1]
        tokens.append(merged)
        for wi in list(where[best]):
            syms = words[wi]
            for a, b in zip(syms, syms[1:]):
                pairs[(a, b)] -= freq[wi]
                if pairs[(a, b)] <= 0:
                    del pairs[(a, b)]
                where[(a, b)].discard(wi)
            out, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == best[0] and syms[i + 1] == best[1]:
                    out.append(merged)
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            words[wi] = out
            for a, b in zip(out, out[1:]):
                pairs[(a, b)] += freq[wi]
                where[(a, b)].add(wi)
        where.pop(best, None)
    return Bpe(pre, tokens + list(specials), merges, list(specials))
