// Attention rows are split across workers by (row, head) for RoPE and the cache, by
// (KV head, row) for attention itself, and the projections by weight rows.
#include "models/common/attention_block.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <numeric>

#include "kernels/f32/attention.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope.h"
#include "kernels/f32/softmax.h"
#include "kernels/f32/vec.h"
#include "runtime/kv_cache/kv_cache.h"

namespace cpubrrr {
namespace {

// Returns the intersection of `r` with [begin, end), shifted to start at 0.
Range Clip(Range r, size_t begin, size_t end) {
  const size_t b = std::clamp(r.begin, begin, end), e = std::clamp(r.end, begin, end);
  return {b - begin, e - begin};
}

// Returns this worker's share of the rows of matrices laid end to end, split so that every
// worker reads about the same number of bytes; cuts fall on multiples of kRowTile and of
// the matrix's RowGranule (or on its end).
Range ShareRowsByBytes(const WorkerContext& ctx, std::initializer_list<const WeightMatrix*> mats) {
  size_t total = 0;
  for (const WeightMatrix* m : mats) total += m->rows * m->row_bytes;
  // The first row of the concatenation at or after byte `b`, rounded up to a cut.
  auto row_at = [&](size_t b) {
    size_t first = 0;
    for (const WeightMatrix* m : mats) {
      const size_t rows = m->rows, row_bytes = m->row_bytes, cut = std::lcm(kRowTile, m->RowGranule());
      if (b < rows * row_bytes) return first + std::min(rows, (b + cut * row_bytes - 1) / (cut * row_bytes) * cut);
      b -= rows * row_bytes;
      first += rows;
    }
    return first;
  };
  const Range bytes = ctx.Share(total);
  return {row_at(bytes.begin), row_at(bytes.end)};
}

}  // namespace

AttentionBlock::AttentionBlock(const ModelConfig& config, int n_workers)
    : c_(config), value_lanes_(n_workers, std::vector<float>(64 * size_t{config.head_dim})) {}

void AttentionBlock::Run(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf) {
  const int n = static_cast<int>(buf.rows.size());
  const size_t d = c_.n_embd, qd = c_.q_dim(), kvd = c_.kv_dim();
  MatMulScratch& mm = buf.mm[ctx.index()];
  const absl::Span<const int32_t> all = absl::MakeConstSpan(buf.iota.data(), n);
  const Range tok = ctx.Share(n);
  ctx.Sync();
  // Attention norm, quantized once for q, k and v.
  for (size_t t = tok.begin; t < tok.end; ++t) {
    RmsNorm(buf.x.data() + t * d, l.attn_norm, d, c_.rms_eps, buf.normed.mutable_f32(t));
    QuantizeFor(buf.normed, t, {0, d}, l.wq, l.wk, l.wv);
  }
  ctx.Sync();
  // q, k, v projections: the three matrices' rows form one range, split across workers
  // by bytes (v may be a wider type than q and k).
  const Range rows = ShareRowsByBytes(ctx, {&l.wq, &l.wk, &l.wv});
  const struct { const WeightMatrix& m; const float* bias; float* out; size_t begin, size; } proj[3] = {
      {l.wq, l.bq, buf.q.data(), 0, qd}, {l.wk, l.bk, buf.k.data(), qd, kvd}, {l.wv, l.bv, buf.v.data(), qd + kvd, kvd}};
  for (const auto& p : proj) {
    const Range r = Clip(rows, p.begin, p.begin + p.size);
    MatMulRows(p.m, 0, r, buf.normed, all, all, p.out, p.size, mm);
    if (p.bias) {
      for (int t = 0; t < n; ++t) AddTo(p.out + t * p.size + r.begin, p.bias + r.begin, r.size());
    }
  }
  ctx.Sync();
  Attend(ctx, l, il, buf);
  // Output projection and residual: each worker owns a range of x's columns (wo's rows).
  const Range cols = RowShare(ctx, d, {&l.wo});
  MatMulRows(l.wo, 0, cols, buf.attn_out, all, all, buf.proj.data(), d, mm);
  for (int t = 0; t < n; ++t) {
    float* out = buf.proj.data() + t * d + cols.begin;
    if (l.bo) AddTo(out, l.bo + cols.begin, cols.size());
    AddTo(buf.x.data() + t * d + cols.begin, out, cols.size());
  }
}

void AttentionBlock::Attend(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf) {
  const int n = static_cast<int>(buf.rows.size());
  const uint32_t hd = c_.head_dim, nh = c_.n_head, nkv = c_.n_head_kv, half = hd / 2;
  const size_t qd = c_.q_dim(), kvd = c_.kv_dim();
  // Units are (row, head): per KV head, the KV head (norm, RoPE and the cache store, the
  // dearer unit) then its query heads, so an even split spreads the KV heads.
  const uint32_t group = nh / nkv;
  const Range units = ctx.Share(static_cast<size_t>(n) * (nh + nkv));
  for (size_t u = units.begin; u < units.end; ++u) {
    const size_t t = u / (nh + nkv), j = u % (nh + nkv) / (group + 1), i = u % (nh + nkv) % (group + 1);
    const size_t h = i == 0 ? nh + j : j * group + i - 1;  // h >= nh: KV head h - nh
    const float* cs = buf.rope_cos.data() + t * half;
    const float* sn = buf.rope_sin.data() + t * half;
    if (h < nh) {
      float* head = buf.q.data() + t * qd + h * hd;
      if (l.q_norm) RmsNorm(head, l.q_norm, hd, c_.rms_eps, head);
      RopeNeox(head, 1, hd, hd, cs, sn);
    } else {
      const size_t j = h - nh;
      float* head = buf.k.data() + t * kvd + j * hd;
      if (l.k_norm) RmsNorm(head, l.k_norm, hd, c_.rms_eps, head);
      RopeNeox(head, 1, hd, hd, cs, sn);
      buf.rows[t].session->cache().Store(il, buf.rows[t].pos, j * hd, hd, head, buf.v.data() + t * kvd + j * hd);
    }
  }
  ctx.Sync();
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  std::vector<float>& value_lanes = value_lanes_[ctx.index()];
  // Units are (KV head, row), KV-head-major: a row's cost grows with its position, so
  // a row-major split would hand the last worker the longest rows of a prompt. A unit
  // runs the `group` query heads that share the KV head.
  const Range units_kv = ctx.Share(static_cast<size_t>(n) * nkv);
  for (size_t u = units_kv.begin; u < units_kv.end; ++u) {
    const uint32_t t = u % n, kvh = u / n, pos = buf.rows[t].pos;
    MoeSession& session = *buf.rows[t].session;
    KvCache& cache = session.cache();
    float* const score_buf = session.scores(ctx.index());
    const size_t stride = session.score_stride();
    const bool f32 = cache.type() == KvCacheType::kF32;
    const uint32_t first = c_.IsSlidingLayer(il) && pos + 1 > c_.sliding_window ? pos + 1 - c_.sliding_window : 0;
    const float* q = buf.q.data() + t * qd + kvh * group * hd;  // the group's first query head
    float* out = buf.attn_out.mutable_f32(t) + kvh * group * hd;
    // Positions first..pos lie in at most two runs of consecutive slots (a ring wraps once).
    auto for_runs = [&](auto&& fn) {
      const uint32_t cap = cache.capacity(il);
      for (uint32_t p = first; p <= pos;) {
        const uint32_t run = std::min(pos + 1 - p, cap - p % cap);
        fn(p, run);
        p += run;
      }
    };
    // llama.cpp's softmax takes its cache cells (here: positions) in runs of 16 from 0:
    // each head's scores start at first % 16 in its row, -inf (exp 0) around them.
    const uint32_t lead = first % 16;
    const uint32_t n_keys = pos + 1 - first;
    const uint32_t padded = (lead + n_keys + 15) / 16 * 16;
    float* const scores = score_buf + lead;  // head g's scores: scores + g * stride
    if (f32) {
      for (uint32_t g = 0; g < group; ++g) {
        for_runs([&](uint32_t p, uint32_t run) {
          DotRows(q + g * hd, cache.Key<float>(il, p) + kvh * hd, kvd, run, hd, scale,
                  scores + g * stride + (p - first));
        });
      }
    } else {
      for_runs([&](uint32_t p, uint32_t run) {
        DotRowsF16Group(q, hd, group, cache.Key<uint16_t>(il, p) + kvh * hd, kvd, run, hd, scale,
                        scores + (p - first), stride);
      });
    }
    for (uint32_t g = 0; g < group; ++g) {
      float* row = score_buf + g * stride;
      std::fill(row, row + lead, -INFINITY);
      std::fill(row + lead + n_keys, row + padded, -INFINITY);
      if (l.sinks) {
        SoftmaxWithSink(row, padded, l.sinks[kvh * group + g]);
      } else {
        Softmax(row, padded);
      }
    }
    if (f32) {
      // As llama.cpp's f32 cache without flash attention: one ggml f32 dot per output.
      for (uint32_t g = 0; g < group; ++g) {
        uint64_t touched = 0;
        for_runs([&](uint32_t p, uint32_t run) {
          AxpyRowsToLanes(scores + g * stride + (p - first), cache.Value<float>(il, p) + kvh * hd,
                          kvd, run, hd, p, value_lanes.data(), &touched);
        });
        SumLanes64(value_lanes.data(), touched, hd, out + g * hd);
      }
    } else {
      std::fill(out, out + size_t{group} * hd, 0.0f);
      for_runs([&](uint32_t p, uint32_t run) {
        AxpyRowsF16Group(scores + (p - first), stride, group, cache.Value<uint16_t>(il, p) + kvh * hd,
                         kvd, run, hd, out, hd);
      });
    }
  }
  ctx.Sync();
  const ActFormat wo_format = ActFormatFor(l.wo.type);
  const Range tok = ctx.Share(n);
  for (size_t t = tok.begin; t < tok.end; ++t) buf.attn_out.Quantize(t, {0, qd}, wo_format);
  ctx.Sync();
}

}  // namespace cpubrrr
