"""The gpt-oss and qwen3moe forward passes in PyTorch, as MODEL_SPEC.md 2 and 3 state
them, with parameters named and laid out as the GGUF tensors they become."""
import math

import torch
import torch.nn.functional as F
from torch import nn


def rms_norm(x, weight, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def rope_tables(cfg, positions):
    """cos and sin per position and pair (NeoX halves), with YaRN when cfg.yarn is set."""
    hd, base = cfg.head_dim, cfg.rope_base
    i = torch.arange(hd // 2, dtype=torch.float64)
    theta_ex = positions[:, None].double() * base ** (-2 * i / hd)
    scale = 1.0
    if cfg.yarn:
        factor, orig = cfg.yarn_factor, cfg.yarn_original_context

        def corr(b):
            return hd * math.log(orig / (2 * math.pi * b)) / (2 * math.log(base))

        low, high = max(0, math.floor(corr(32))), min(hd - 1, math.ceil(corr(1)))
        mix = 1 - ((i - low) / max(high - low, 0.001)).clamp(0, 1)
        theta = theta_ex / factor * (1 - mix) + theta_ex * mix
        scale = 1 + 0.1 * math.log(factor)
    else:
        theta = theta_ex
    return (theta.cos() * scale).float(), (theta.sin() * scale).float()


def apply_rope(x, cos, sin):
    """x: [batch, tokens, heads, head_dim]; rotates pairs (i, i + head_dim / 2)."""
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    c, s = cos[None, :, None, :], sin[None, :, None, :]
    return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1)


class Attention(nn.Module):
    def __init__(self, cfg, layer):
        super().__init__()
        self.cfg = cfg
        d, q, kv = cfg.n_embd, cfg.n_head * cfg.head_dim, cfg.n_head_kv * cfg.head_dim
        bias = cfg.arch == "gpt-oss"
        self.attn_q = nn.Linear(d, q, bias=bias)
        self.attn_k = nn.Linear(d, kv, bias=bias)
        self.attn_v = nn.Linear(d, kv, bias=bias)
        self.attn_output = nn.Linear(q, d, bias=bias)
        if cfg.arch == "gpt-oss":
            self.attn_sinks = nn.Parameter(torch.zeros(cfg.n_head))
            self.window = cfg.sliding_window if layer % 2 == 0 else 0
        else:
            self.attn_q_norm = nn.Parameter(torch.ones(cfg.head_dim))
            self.attn_k_norm = nn.Parameter(torch.ones(cfg.head_dim))
            self.window = 0

    def forward(self, x, cos, sin):
        cfg = self.cfg
        b, t, _ = x.shape
        q = self.attn_q(x).view(b, t, cfg.n_head, cfg.head_dim)
        k = self.attn_k(x).view(b, t, cfg.n_head_kv, cfg.head_dim)
        v = self.attn_v(x).view(b, t, cfg.n_head_kv, cfg.head_dim)
        if cfg.arch == "qwen3moe":
            q = rms_norm(q, self.attn_q_norm, cfg.rms_eps)
            k = rms_norm(k, self.attn_k_norm, cfg.rms_eps)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        group = cfg.n_head // cfg.n_head_kv
        k = k.repeat_interleave(group, dim=2)
        v = v.repeat_interleave(group, dim=2)
        q, k, v = (z.transpose(1, 2) for z in (q, k, v))  # [b, heads, t, hd]
        scores = q @ k.transpose(-1, -2) / math.sqrt(cfg.head_dim)
        pos = torch.arange(t)
        allowed = pos[None, :] <= pos[:, None]
        if self.window:
            allowed &= pos[:, None] - pos[None, :] < self.window
        scores = scores.masked_fill(~allowed, float("-inf"))
        if cfg.arch == "gpt-oss":
            # The sink enters the softmax's denominator and carries no value.
            sink = self.attn_sinks.view(1, -1, 1, 1).expand(b, -1, t, 1)
            probs = torch.softmax(torch.cat([scores, sink], dim=-1), dim=-1)[..., :-1]
        else:
            probs = torch.softmax(scores, dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(b, t, -1)
        return self.attn_output(out)


class Experts(nn.Module):
    """Routed experts; weights [expert][rows][cols] as GGUF's ffn_*_exps."""

    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        e, d, ff = cfg.n_expert, cfg.n_embd, cfg.n_ff_exp
        bias = cfg.arch == "gpt-oss"
        self.ffn_gate_inp = nn.Linear(d, e, bias=bias)
        self.ffn_gate_exps = nn.Parameter(torch.randn(e, ff, d) / math.sqrt(d))
        self.ffn_up_exps = nn.Parameter(torch.randn(e, ff, d) / math.sqrt(d))
        self.ffn_down_exps = nn.Parameter(torch.randn(e, d, ff) / math.sqrt(ff) / cfg.n_layer)
        if bias:
            self.ffn_gate_exps_b = nn.Parameter(torch.zeros(e, ff))
            self.ffn_up_exps_b = nn.Parameter(torch.zeros(e, ff))
            self.ffn_down_exps_b = nn.Parameter(torch.zeros(e, d))

    def forward(self, x):
        """x: [tokens, d]; returns the mixture and the load-balancing loss."""
        cfg = self.cfg
        logits = self.ffn_gate_inp(x)
        if cfg.arch == "gpt-oss":
            top, chosen = logits.topk(cfg.n_expert_used, dim=-1)
            weights = torch.softmax(top, dim=-1)
        else:
            probs = torch.softmax(logits, dim=-1)
            top, chosen = probs.topk(cfg.n_expert_used, dim=-1)
            weights = top / top.sum(-1, keepdim=True)
        out = torch.zeros_like(x)
        for e in range(cfg.n_expert):
            rows, slot = (chosen == e).nonzero(as_tuple=True)
            if rows.numel() == 0:
                continue
            xe = x[rows]
            g = xe @ self.ffn_gate_exps[e].t()
            u = xe @ self.ffn_up_exps[e].t()
            if cfg.arch == "gpt-oss":
                g = (g + self.ffn_gate_exps_b[e]).clamp(max=7.0)
                u = (u + self.ffn_up_exps_b[e]).clamp(-7.0, 7.0)
                h = g * torch.sigmoid(1.702 * g) * (u + 1)
                y = h @ self.ffn_down_exps[e].t() + self.ffn_down_exps_b[e]
            else:
                y = (F.silu(g) * u) @ self.ffn_down_exps[e].t()
            out.index_add_(0, rows, y * weights[rows, slot, None])
        # Switch-style balance: fraction routed to each expert times its mean probability.
        share = F.one_hot(chosen, cfg.n_expert).float().sum(1).mean(0) / cfg.n_expert_used
        balance = cfg.n_expert * (share * torch.softmax(logits, -1).mean(0)).sum()
        return out, balance


class Block(nn.Module):
    def __init__(self, cfg, layer):
        super().__init__()
        self.cfg = cfg
        self.attn_norm = nn.Parameter(torch.ones(cfg.n_embd))
        self.ffn_norm = nn.Parameter(torch.ones(cfg.n_embd))
        self.attn = Attention(cfg, layer)
        self.moe = Experts(cfg)

    def forward(self, x, cos, sin):
        eps = self.cfg.rms_eps
        x = x + self.attn(rms_norm(x, self.attn_norm, eps), cos, sin)
        b, t, d = x.shape
        moe, balance = self.moe(rms_norm(x, self.ffn_norm, eps).view(b * t, d))
        return x + moe.view(b, t, d), balance


class TinyMoe(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.token_embd = nn.Embedding(cfg.n_vocab, cfg.n_embd)
        nn.init.normal_(self.token_embd.weight, std=0.5)
        self.blocks = nn.ModuleList(Block(cfg, i) for i in range(cfg.n_layer))
        self.output_norm = nn.Parameter(torch.ones(cfg.n_embd))
        self.output = nn.Linear(cfg.n_embd, cfg.n_vocab, bias=False)

    def forward(self, tokens):
        """tokens: [batch, t]; returns logits [batch, t, vocab] and the balance loss."""
        cos, sin = rope_tables(self.cfg, torch.arange(tokens.shape[1]))
        x = self.token_embd(tokens)
        balance = 0.0
        for block in self.blocks:
            x, bal = block(x, cos, sin)
            balance = balance + bal
        x = rms_norm(x, self.output_norm, self.cfg.rms_eps)
        return self.output(x), balance / self.cfg.n_layer

    def gguf_tensors(self):
        """Yields (GGUF name, float32 array) for every parameter, dims as GGUF reverses."""
        yield "token_embd.weight", self.token_embd.weight
        yield "output_norm.weight", self.output_norm
        yield "output.weight", self.output.weight
        norm2 = "post_attention_norm" if self.cfg.arch == "gpt-oss" else "ffn_norm"
        for i, blk in enumerate(self.blocks):
            p = f"blk.{i}."
            yield p + "attn_norm.weight", blk.attn_norm
            yield p + norm2 + ".weight", blk.ffn_norm
            a, m = blk.attn, blk.moe
            for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
                lin = getattr(a, name)
                yield p + name + ".weight", lin.weight
                if lin.bias is not None:
                    yield p + name + ".bias", lin.bias
            if self.cfg.arch == "gpt-oss":
                yield p + "attn_sinks.weight", a.attn_sinks
            else:
                yield p + "attn_q_norm.weight", a.attn_q_norm
                yield p + "attn_k_norm.weight", a.attn_k_norm
            yield p + "ffn_gate_inp.weight", m.ffn_gate_inp.weight
            if m.ffn_gate_inp.bias is not None:
                yield p + "ffn_gate_inp.bias", m.ffn_gate_inp.bias
            for name in ("ffn_gate_exps", "ffn_up_exps", "ffn_down_exps"):
                yield p + name + ".weight", getattr(m, name)
                if self.cfg.arch == "gpt-oss":
                    yield p + name + ".bias", getattr(m, name + "_b")
