"""Perplexity of a trained model's float32 weights in PyTorch, by llama-perplexity's
protocol (chunks of -c tokens from an empty cache, the second half of each scored): the
training-side reference that cpubrrr perplexity on the F32 twin must reproduce.

  python3 tools/train/reference_perplexity.py --arch gpt-oss --dir OUT -f OUT/heldout.txt -c 512
"""
import argparse
import json
import math
import os
import struct

import numpy as np
import torch

import byte_bpe
import tiny_models
import train_tiny


def read_f32_gguf(path):
    """Returns {name: float32 array shaped as the reversed GGUF dims} of gguf_f32's files."""
    data = open(path, "rb").read()
    if data[:4] != b"GGUF":
        raise ValueError(f"{path} is not a GGUF file")
    _, n_tensors, n_kv = struct.unpack_from("<IQQ", data, 4)
    off = 24

    def string(o):
        (n,) = struct.unpack_from("<Q", data, o)
        return data[o + 8:o + 8 + n].decode(), o + 8 + n

    for _ in range(n_kv):  # gguf_f32 writes string values only
        _, off = string(off)
        off += 4
        _, off = string(off)
    infos = []
    for _ in range(n_tensors):
        name, off = string(off)
        (nd,) = struct.unpack_from("<I", data, off)
        dims = struct.unpack_from("<" + "Q" * nd, data, off + 4)
        _, offset = struct.unpack_from("<IQ", data, off + 4 + 8 * nd)
        off += 4 + 8 * nd + 12
        infos.append((name, dims, offset))
    base = off + (-off) % 32
    return {name: np.frombuffer(data, np.float32, int(np.prod(dims)), base + o).reshape(tuple(reversed(dims)))
            for name, dims, o in infos}


def load_model(arch, weights_path):
    model = tiny_models.TinyMoe(train_tiny.CONFIGS[arch])
    params = dict(model.gguf_tensors())
    with torch.no_grad():
        for name, array in read_f32_gguf(weights_path).items():
            params[name].copy_(torch.from_numpy(array.copy()).view_as(params[name]))
    return model.eval()


def load_bpe(arch, tokenizer_path):
    doc = json.load(open(tokenizer_path, encoding="utf-8"))
    specials = [t["content"] for t in doc["added_tokens"]]
    tokens = [None] * (len(doc["model"]["vocab"]) + len(specials))
    for text, i in doc["model"]["vocab"].items():
        tokens[i] = text
    for t in doc["added_tokens"]:
        tokens[t["id"]] = t["content"]
    return byte_bpe.Bpe(train_tiny.PRE[arch], tokens, [tuple(m) for m in doc["model"]["merges"]], specials)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--arch", choices=sorted(train_tiny.CONFIGS), required=True)
    ap.add_argument("--dir", required=True, help="train_tiny.py's output directory")
    ap.add_argument("-f", required=True, help="text file")
    ap.add_argument("-c", type=int, default=512)
    ap.add_argument("--chunks", type=int, default=-1)
    args = ap.parse_args()
    torch.set_num_threads(2)
    model = load_model(args.arch, os.path.join(args.dir, "weights-f32.gguf"))
    bpe = load_bpe(args.arch, os.path.join(args.dir, "tokenizer.json"))
    text = open(args.f, encoding="utf-8").read()
    tokens = bpe.encode(text[:-1] if text.endswith("\n") else text)  # as llama.cpp's -f
    n_chunk = len(tokens) // args.c
    if args.chunks > 0:
        n_chunk = min(n_chunk, args.chunks)
    first, nll, count = args.c // 2, 0.0, 0
    with torch.no_grad():
        for c in range(n_chunk):
            chunk = torch.tensor(tokens[c * args.c:(c + 1) * args.c])
            logits, _ = model(chunk[None])
            logp = torch.log_softmax(logits[0].double(), dim=-1)
            targets = chunk[first + 1:]
            nll -= logp[first:-1].gather(1, targets[:, None]).sum().item()
            count += len(targets)
            print(f"[{c + 1}]{math.exp(nll / count):.4f},", end="", flush=True)
    print(f"\nFinal estimate: PPL = {math.exp(nll / count):.4f} ({count} tokens scored)")


if __name__ == "__main__":
    main()
