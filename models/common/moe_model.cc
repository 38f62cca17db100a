// One WorkerPool::Run per chunk of tokens runs every layer; stages are separated by
// ctx.Sync() and each stage splits its rows, heads or tokens with ctx.Share(), except the
// routed experts, which workers claim from a TaskBoard.
#include "models/common/moe_model.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

#include "absl/status/status.h"
#include "models/common/activation_batch.h"
#include "kernels/f32/attention.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope.h"
#include "kernels/f32/rope_table.h"
#include "kernels/f32/softmax.h"
#include "kernels/f32/swiglu.h"
#include "kernels/f32/vec.h"
#include "models/common/dequantize_row.h"
#include "models/common/kernel_report.h"
#include "models/common/linear.h"
#include "models/common/prepare_weights.h"
#include "models/common/repacked_weights.h"
#include "runtime/gguf/page_in.h"
#include "runtime/gguf/str_cat.h"
#include "runtime/kv_cache/rewindable_kv_cache.h"
#include "runtime/threading/page_warmer.h"
#include "runtime/threading/physical_cores.h"
#include "runtime/threading/task_board.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {
namespace {

// Returns the elements of the pair format's block (1 for f32).
size_t FormatBlock(ActFormat f) {
  return f == ActFormat::kQ8_0 ? 32 : f == ActFormat::kQ8K ? 256 : 1;
}

// gpt-oss's clamped SwiGLU constants (alpha, limit).
constexpr float kOaiAlpha = 1.702f, kOaiLimit = 7.0f;

// Copies of the sliding-window rings a session keeps for rewinds past them (each one the
// rings' size: for gpt-oss-20b, 12 layers x 639 positions x 2 KiB = 15.7 MB at f16).
constexpr size_t kRingCheckpoints = 4;

// Returns the intersection of `r` with [begin, end), shifted to start at 0.
Range Clip(Range r, size_t begin, size_t end) {
  const size_t b = std::clamp(r.begin, begin, end), e = std::clamp(r.end, begin, end);
  return {b - begin, e - begin};
}

// Returns this worker's share of the rows of matrices laid end to end (each given as
// {rows, bytes per row}), split so that every worker reads about the same number of bytes;
// cuts fall on multiples of 16 rows of a matrix (or its end).
Range ShareRowsByBytes(const WorkerContext& ctx, std::initializer_list<std::pair<size_t, size_t>> mats) {
  size_t total = 0;
  for (const auto& [rows, row_bytes] : mats) total += rows * row_bytes;
  // The first row of the concatenation at or after byte `b`, rounded up to a 16-row cut.
  auto row_at = [&](size_t b) {
    size_t first = 0;
    for (const auto& [rows, row_bytes] : mats) {
      if (b < rows * row_bytes) return first + std::min(rows, (b + 16 * row_bytes - 1) / (16 * row_bytes) * 16);
      b -= rows * row_bytes;
      first += rows;
    }
    return first;
  };
  const Range bytes = ctx.Share(total);
  return {row_at(bytes.begin), row_at(bytes.end)};
}

class MoeSession : public Session {
 public:
  MoeSession(const void* owner, RewindableKvCache cache, uint32_t context, int n_workers,
             uint32_t heads_per_kv)
      : owner_(owner), cache_(std::move(cache)), context_(context),
        scores_(n_workers, std::vector<float>(size_t{heads_per_kv} * score_stride())) {}

  uint32_t position() const override { return cache_.position(); }
  uint32_t context_length() const override { return context_; }
  uint32_t KeepablePrefix(uint32_t position) const override { return cache_.KeepablePrefix(position); }
  uint32_t Truncate(uint32_t position) override { return cache_.Truncate(position); }
  void Checkpoint() override { cache_.Checkpoint(); }

  const void* owner() const { return owner_; }
  KvCache& cache() { return cache_.cache(); }
  // A worker's score rows, one per query head of a KV head, score_stride() floats apart.
  float* scores(int worker) { return scores_[worker].data(); }
  size_t score_stride() const { return size_t{context_} + 32; }
  void Advance(uint32_t n) { cache_.Advance(n); }

 private:
  const void* owner_;
  RewindableKvCache cache_;
  uint32_t context_;
  // Per worker, attention scores of the query heads of one KV head, each with room for
  // 16-aligned -inf padding.
  std::vector<std::vector<float>> scores_;
};

// Per-worker buffers: matmul scratch, gate/up outputs of one expert, and the
// expert -> (token, slot) lists every worker derives identically from the routing.
struct WorkerScratch {
  MatMulScratch mm;
  std::vector<float> gate, up;
  std::vector<std::vector<int32_t>> entries;  // per expert: t * k + slot, ascending
  std::vector<int32_t> tokens, local;
  std::vector<int32_t> down_row;  // per t * k + slot: its row of eo_ (experts' lists in order)
  std::vector<uint32_t> active;   // the experts with entries, ascending
  std::vector<float> value_lanes;  // 64 x head_dim: AxpyRowsToLanes's lane rows
};

class MoeModel : public Model {
 public:
  MoeModel(GgufFile file, ModelConfig config, ModelWeights weights, const ModelOptions& options,
           int n_threads);

  const ModelInfo& info() const override { return info_; }
  absl::StatusOr<std::unique_ptr<Session>> NewSession(uint32_t context_length) override;
  absl::Status Forward(Session& session, absl::Span<const int32_t> tokens,
                       absl::Span<float> logits) override;
  absl::Status ForwardBatch(absl::Span<const ForwardEntry> entries) override;
  uint64_t weight_bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  uint32_t DefaultContextLength() const override;
  uint64_t SessionBytes(uint32_t context_length) const override;

 private:
  // A row of a pass: a token of a session at its position.
  struct PassRow {
    MoeSession* session;
    int32_t token;
    uint32_t pos;
  };
  // A row whose next-token logits are wanted, and where they go.
  struct HeadRow {
    int32_t row;
    float* logits;
  };

  // Returns whether each head row's logits follow the previous row's, n_vocab floats on.
  bool HeadsContiguous() const {
    for (size_t i = 1; i < heads_.size(); ++i) {
      if (heads_[i].logits != heads_[i - 1].logits + c_.n_vocab) return false;
    }
    return true;
  }

  // Returns each layer's cache positions for a context (a sliding-window layer keeps
  // window + batch_ - 1).
  std::vector<uint32_t> CacheCapacities(uint32_t context) const;
  // Runs rows_ through every layer in one WorkerPool::Run and the output head over heads_.
  void Pass();
  void Attention(const WorkerContext& ctx, uint32_t il, int n);
  void Route(int t);
  void Experts(const WorkerContext& ctx, uint32_t il, int n);
  void GateUp(WorkerScratch& s, uint32_t il, uint32_t e, Range rows);
  void Down(WorkerScratch& s, uint32_t il, uint32_t e, Range rows);
  void WarmAhead(const std::vector<uint32_t>& active, uint32_t il, int n);

  GgufFile file_;
  ModelConfig c_;
  int batch_;  // tokens per pass (ModelOptions::max_batch_tokens)
  ModelWeights w_;
  ModelOptions options_;
  ModelInfo info_;
  WorkerPool pool_;
  TaskBoard expert_tasks_;  // Experts' gate/up and down tasks of a layer
  // The repacked copies (MXFP4, Q4_K and Q6_K experts and attention, Q8_0 attention, a
  // Q6_K or Q8_0 output head), if any; declared before warmer_, so they are unmapped only
  // after the warmer's thread, which may still be reading them, has stopped.
  RepackedWeights repacked_;
  std::unique_ptr<PageWarmer> warmer_;  // null: off, or no idle core
  std::vector<ByteSpan> warm_spans_;
  std::vector<WorkerScratch> scratch_;
  std::vector<int32_t> iota_;
  // Activations of one chunk of up to batch_ tokens.
  std::vector<float> x_, q_, k_, v_, proj_, router_, sel_w_, eo_, rope_cos_, rope_sin_;
  std::vector<int32_t> sel_ids_;
  std::vector<PassRow> rows_;    // the pass's rows (at most batch_)
  std::vector<HeadRow> heads_;   // rows whose logits are wanted, in row order
  std::vector<float> head_out_;  // logits of several head rows, n_vocab apart
  uint64_t dense_bytes_ = 0;     // a pass's attention and router weights, all layers
  std::vector<uint64_t> expert_bytes_;  // per layer: one expert's gate, up and down
  std::atomic<uint64_t> bytes_read_{0};  // weight_bytes_read(): a server thread may ask mid-pass
  ActivationBatch act_d_, act_attn_, hidden_, act_out_;
  RopeParams rope_;
};

// Returns whether any of `weights` needs activations in `format`.
template <typename... W>
bool Needs(ActFormat format, const W&... weights) {
  return ((ActFormatFor(weights.type) == format) || ...);
}

// Quantizes columns `cols` of row `t` of `batch` once into each format `weights` need.
template <typename... W>
void QuantizeFor(ActivationBatch& batch, int t, Range cols, const W&... weights) {
  for (ActFormat f : {ActFormat::kQ8_0, ActFormat::kQ8K}) {
    if (Needs(f, weights...)) batch.Quantize(t, cols, f);
  }
}

// Returns the RoPE table parameters of `c` (ggml's, see kernels/f32/rope_table.h).
RopeParams RopeParamsFor(const ModelConfig& c) {
  const RopeConfig& r = c.rope;
  if (r.yarn) {
    return YarnRopeParams(c.head_dim, r.freq_base, r.factor, r.original_context, r.beta_fast,
                          r.beta_slow, r.attn_factor);
  }
  RopeParams p = PlainRopeParams(c.head_dim, r.freq_base);
  p.attn_factor = r.attn_factor;
  return p;
}

bool LayersNeed(const ModelWeights& w, ActFormat f, int which) {
  for (const LayerWeights& l : w.layers) {
    if (which == 0 && Needs(f, l.wq, l.wk, l.wv, l.gate_exps, l.up_exps)) return true;
    if (which == 1 && Needs(f, l.wo)) return true;
    if (which == 2 && Needs(f, l.down_exps)) return true;
  }
  return false;
}

MoeModel::MoeModel(GgufFile file, ModelConfig config, ModelWeights weights,
                   const ModelOptions& options, int n_threads)
    : file_(std::move(file)),
      c_(std::move(config)),
      batch_(options.max_batch_tokens),
      w_(std::move(weights)),
      options_(options),
      pool_(n_threads),
      expert_tasks_(c_.n_expert),
      act_d_(batch_, c_.n_embd, LayersNeed(w_, ActFormat::kQ8_0, 0),
             LayersNeed(w_, ActFormat::kQ8K, 0)),
      act_attn_(batch_, c_.q_dim(), LayersNeed(w_, ActFormat::kQ8_0, 1),
                LayersNeed(w_, ActFormat::kQ8K, 1)),
      hidden_(batch_ * c_.n_expert_used, c_.n_ff_exp,
              LayersNeed(w_, ActFormat::kQ8_0, 2), LayersNeed(w_, ActFormat::kQ8K, 2)),
      act_out_(batch_, c_.n_embd, Needs(ActFormat::kQ8_0, w_.output), Needs(ActFormat::kQ8K, w_.output)),
      rope_(RopeParamsFor(c_)) {
  const size_t U = batch_, d = c_.n_embd, k = c_.n_expert_used;
  x_.resize(U * d);
  q_.resize(U * c_.q_dim());
  k_.resize(U * c_.kv_dim());
  v_.resize(U * c_.kv_dim());
  proj_.resize(U * d);
  router_.resize(U * c_.n_expert);
  sel_ids_.resize(U * k);
  sel_w_.resize(U * k);
  eo_.resize(U * k * d);
  rope_cos_.resize(U * c_.head_dim / 2);
  rope_sin_.resize(U * c_.head_dim / 2);
  iota_.resize(U * k);
  std::iota(iota_.begin(), iota_.end(), 0);
  scratch_.resize(n_threads);
  for (WorkerScratch& s : scratch_) {
    s.gate.resize(U * c_.n_ff_exp);
    s.up.resize(U * c_.n_ff_exp);
    s.entries.resize(c_.n_expert);
  }
  if (options.warm_pages && n_threads < PhysicalCoreCount()) warmer_ = std::make_unique<PageWarmer>();
  PreparedWeights prepared = PrepareWeights(
      file_, w_, pool_, {options.page_in, options.repack, options.repack_cache_dir, options.progress});
  repacked_ = std::move(prepared.repacked);
  info_.repack_cache = prepared.repack_cache;
  info_.repack_cache_written = prepared.cache_written;
  info_.repack_cache_error = prepared.cache_error;

  info_.architecture = c_.architecture;
  info_.name = c_.name;
  info_.n_vocab = c_.n_vocab;
  info_.n_ctx_train = c_.n_ctx_train;
  for (const GgufTensor& t : file_.tensors()) info_.n_params += t.Elements();
  info_.file_bytes = file_.data_offset();
  for (const GgufTensor& t : file_.tensors()) info_.file_bytes = std::max<uint64_t>(info_.file_bytes, file_.data_offset() + t.offset + t.bytes);
  uint64_t per_token = w_.output.bytes() + w_.token_embd.row_bytes;
  for (const LayerWeights& l : w_.layers) {
    per_token += l.wq.bytes() + l.wk.bytes() + l.wv.bytes() + l.wo.bytes() + l.router.bytes();
    per_token += k * (l.gate_exps.bytes() + l.up_exps.bytes() + l.down_exps.bytes()) / c_.n_expert;
  }
  info_.bytes_per_token = per_token;
  for (const LayerWeights& l : w_.layers) {
    dense_bytes_ += l.wq.bytes() + l.wk.bytes() + l.wv.bytes() + l.wo.bytes() + l.router.bytes();
    expert_bytes_.push_back((l.gate_exps.bytes() + l.up_exps.bytes() + l.down_exps.bytes()) / c_.n_expert);
  }
  info_.derived_bytes = repacked_.bytes;
  info_.kernels = KernelReport(w_);
}

std::vector<uint32_t> MoeModel::CacheCapacities(uint32_t context) const {
  const uint32_t ring = c_.sliding_window + batch_ - 1;
  std::vector<uint32_t> cap(c_.n_layer);
  for (uint32_t l = 0; l < c_.n_layer; ++l) cap[l] = c_.IsSlidingLayer(l) ? std::min(context, ring) : context;
  return cap;
}

uint32_t MoeModel::DefaultContextLength() const {
  // The trained context, halved until the cache takes at most half of RAM (or of a
  // cgroup's limit).
  const uint64_t ram = std::min<uint64_t>(static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE),
                                          CgroupMemoryLimitBytes("/proc/self/cgroup", "/sys/fs/cgroup"));
  uint32_t ctx = c_.n_ctx_train;
  while (ctx > 4096 && SessionBytes(ctx) > ram / 2) ctx /= 2;
  return ctx;
}

uint64_t MoeModel::SessionBytes(uint32_t context_length) const {
  return KvCache::BytesFor(CacheCapacities(context_length), c_.kv_dim(), options_.kv_type);
}

absl::StatusOr<std::unique_ptr<Session>> MoeModel::NewSession(uint32_t context_length) {
  const uint32_t ctx = context_length == 0 ? DefaultContextLength() : context_length;
  absl::StatusOr<KvCache> cache = KvCache::Create(CacheCapacities(ctx), c_.kv_dim(), options_.kv_type);
  if (!cache.ok()) return cache.status();
  return std::unique_ptr<Session>(new MoeSession(
      this, RewindableKvCache(*std::move(cache), ctx, c_.sliding_window, kRingCheckpoints), ctx,
      pool_.n_threads(), c_.n_head / c_.n_head_kv));
}

absl::Status MoeModel::Forward(Session& session, absl::Span<const int32_t> tokens,
                               absl::Span<float> logits) {
  if (logits.size() != c_.n_vocab) {
    return absl::InvalidArgumentError(Cat("Forward: logits holds ", logits.size(), " floats, the model has ",
                                          c_.n_vocab, " tokens"));
  }
  const ForwardEntry entry{&session, tokens, logits};
  return ForwardBatch({&entry, 1});
}

absl::Status MoeModel::ForwardBatch(absl::Span<const ForwardEntry> entries) {
  std::vector<MoeSession*> sessions(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const ForwardEntry& e = entries[i];
    auto* s = dynamic_cast<MoeSession*>(e.session);
    if (s == nullptr || s->owner() != this) {
      return absl::InvalidArgumentError("Forward: the session was not created by this model");
    }
    if (std::find(sessions.begin(), sessions.begin() + i, s) != sessions.begin() + i) {
      return absl::InvalidArgumentError("Forward: two entries share a session");
    }
    sessions[i] = s;
    if (e.tokens.empty()) return absl::InvalidArgumentError("Forward: no tokens");
    if (!e.logits.empty() && e.logits.size() != c_.n_vocab &&
        e.logits.size() != e.tokens.size() * c_.n_vocab) {
      return absl::InvalidArgumentError(Cat("Forward: logits holds ", e.logits.size(),
                                            " floats, neither the model's ", c_.n_vocab,
                                            " tokens nor that many per given token"));
    }
    for (size_t j = 0; j < e.tokens.size(); ++j) {
      if (e.tokens[j] < 0 || static_cast<uint32_t>(e.tokens[j]) >= c_.n_vocab) {
        return absl::InvalidArgumentError(Cat("Forward: token id ", e.tokens[j], " at index ", j,
                                              " is outside the vocabulary [0, ", c_.n_vocab, ")"));
      }
    }
    if (e.tokens.size() > s->context_length() - s->position()) {
      return absl::OutOfRangeError(Cat("Forward: context full: the session holds ", s->context_length(),
                                       " positions, ", s->position(), " are used and ", e.tokens.size(),
                                       " more were given"));
    }
  }
  // Passes of up to batch_ rows, filled with the entries' tokens in order.
  std::vector<size_t> done(entries.size(), 0);
  for (size_t first = 0; first < entries.size();) {
    rows_.clear();
    heads_.clear();
    std::vector<std::pair<MoeSession*, uint32_t>> advance;  // each session's rows in this pass
    for (size_t i = first; i < entries.size() && rows_.size() < static_cast<size_t>(batch_); ++i) {
      const ForwardEntry& e = entries[i];
      const size_t n = std::min(e.tokens.size() - done[i], batch_ - rows_.size());
      const bool every_row = e.tokens.size() > 1 && e.logits.size() == e.tokens.size() * c_.n_vocab;
      for (size_t j = 0; j < n; ++j) {
        rows_.push_back({sessions[i], e.tokens[done[i] + j], sessions[i]->position() + static_cast<uint32_t>(j)});
        if (every_row) {
          heads_.push_back({static_cast<int32_t>(rows_.size() - 1), e.logits.data() + (done[i] + j) * c_.n_vocab});
        }
      }
      done[i] += n;
      advance.push_back({sessions[i], static_cast<uint32_t>(n)});
      if (!every_row && done[i] == e.tokens.size() && !e.logits.empty()) {
        heads_.push_back({static_cast<int32_t>(rows_.size() - 1), e.logits.data()});
      }
    }
    if (!HeadsContiguous()) head_out_.resize(heads_.size() * c_.n_vocab);
    Pass();
    bytes_read_.fetch_add(dense_bytes_ + rows_.size() * w_.token_embd.row_bytes + (heads_.empty() ? 0 : w_.output.bytes()),
                          std::memory_order_relaxed);
    for (const auto& [session, n] : advance) session->Advance(n);
    while (first < entries.size() && done[first] == entries[first].tokens.size()) ++first;
  }
  return absl::OkStatus();
}

void MoeModel::Pass() {
  const int n = static_cast<int>(rows_.size());
  const size_t d = c_.n_embd, qd = c_.q_dim(), kvd = c_.kv_dim(), half = c_.head_dim / 2;
  pool_.Run([&](const WorkerContext& ctx) {
    WorkerScratch& s = scratch_[ctx.index()];
    const Range tok = ctx.Share(n);
    for (size_t t = tok.begin; t < tok.end; ++t) {
      DequantizeWeightRow(w_.token_embd, 0, rows_[t].token, x_.data() + t * d);
      RopeTable(rope_, rows_[t].pos, rope_cos_.data() + t * half, rope_sin_.data() + t * half);
    }
    const absl::Span<const int32_t> all = absl::MakeConstSpan(iota_.data(), n);
    for (uint32_t il = 0; il < c_.n_layer; ++il) {
      const LayerWeights& l = w_.layers[il];
      ctx.Sync();
      // Attention norm, quantized once for q, k and v.
      for (size_t t = tok.begin; t < tok.end; ++t) {
        RmsNorm(x_.data() + t * d, l.attn_norm, d, c_.rms_eps, act_d_.mutable_f32(t));
        QuantizeFor(act_d_, t, {0, d}, l.wq, l.wk, l.wv);
      }
      ctx.Sync();
      // q, k, v projections: the three matrices' rows form one range, split across workers
      // by bytes (v may be a wider type than q and k).
      const Range rows = ShareRowsByBytes(ctx, {{qd, l.wq.row_bytes}, {kvd, l.wk.row_bytes}, {kvd, l.wv.row_bytes}});
      const struct { const WeightMatrix& m; const float* bias; float* out; size_t begin, size; } proj[3] = {
          {l.wq, l.bq, q_.data(), 0, qd}, {l.wk, l.bk, k_.data(), qd, kvd}, {l.wv, l.bv, v_.data(), qd + kvd, kvd}};
      for (const auto& p : proj) {
        const Range r = Clip(rows, p.begin, p.begin + p.size);
        MatMulRows(p.m, 0, r, act_d_, all, all, p.out, p.size, s.mm);
        if (p.bias) {
          for (int t = 0; t < n; ++t) AddTo(p.out + t * p.size + r.begin, p.bias + r.begin, r.size());
        }
      }
      ctx.Sync();
      Attention(ctx, il, n);
      // Output projection and residual: each worker owns a range of x's columns, cut on
      // multiples of 16 rows of wo (whole groups of repacked rows).
      const Range cols = ctx.Share(d, 16);
      MatMulRows(l.wo, 0, cols, act_attn_, all, all, proj_.data(), d, s.mm);
      for (int t = 0; t < n; ++t) {
        float* proj = proj_.data() + t * d + cols.begin;
        if (l.bo) AddTo(proj, l.bo + cols.begin, cols.size());
        AddTo(x_.data() + t * d + cols.begin, proj, cols.size());
      }
      ctx.Sync();
      // FFN norm and its quantization for the experts.
      for (size_t t = tok.begin; t < tok.end; ++t) {
        RmsNorm(x_.data() + t * d, l.ffn_norm, d, c_.rms_eps, act_d_.mutable_f32(t));
        QuantizeFor(act_d_, t, {0, d}, l.gate_exps, l.up_exps);
      }
      ctx.Sync();
      // Router in f32 on the unquantized norm, its rows (experts) split across workers.
      MatMulRows(l.router, 0, ctx.Share(c_.n_expert), act_d_, all, all, router_.data(), c_.n_expert,
                 s.mm);
      ctx.Sync();
      for (size_t t = tok.begin; t < tok.end; ++t) {
        if (l.router_bias) AddTo(router_.data() + t * c_.n_expert, l.router_bias, c_.n_expert);
        Route(static_cast<int>(t));
      }
      if (ctx.index() == 0) expert_tasks_.Reset();
      ctx.Sync();
      Experts(ctx, il, n);
    }
    const size_t m = heads_.size();
    if (m == 0) return;
    ctx.Sync();
    const Range own = ctx.Share(m);
    for (size_t i = own.begin; i < own.end; ++i) {
      RmsNorm(x_.data() + heads_[i].row * d, w_.output_norm, d, c_.rms_eps, act_out_.mutable_f32(i));
      act_out_.Quantize(i, {0, d}, ActFormatFor(w_.output.type));
    }
    ctx.Sync();
    // Rows whose logits lie n_vocab apart (one row, or every row of one entry): straight
    // into their logits; scattered rows: into head_out_, copied out below.
    const bool contiguous = HeadsContiguous();
    const absl::Span<const int32_t> outs = absl::MakeConstSpan(iota_.data(), m);
    MatMulRows(w_.output, 0, ctx.Share(c_.n_vocab, 16), act_out_, outs, outs,
               contiguous ? heads_[0].logits : head_out_.data(), c_.n_vocab, s.mm);
    if (contiguous) return;
    ctx.Sync();
    const Range cols = ctx.Share(c_.n_vocab);
    for (size_t i = 0; i < m; ++i) {
      std::copy(head_out_.data() + i * c_.n_vocab + cols.begin, head_out_.data() + i * c_.n_vocab + cols.end,
                heads_[i].logits + cols.begin);
    }
  });
}

// Writes sel_ids_ / sel_w_ of token t from its router logits: gpt-oss takes the top k
// logits and a softmax over them; qwen3moe a softmax over all experts, the top k
// probabilities, renormalized to sum 1 (llama.cpp's order of float operations).
void MoeModel::Route(int t) {
  const uint32_t ne = c_.n_expert, k = c_.n_expert_used;
  float* logit = router_.data() + t * ne;
  if (c_.arch == ModelArch::kQwen3Moe) Softmax(logit, ne);
  int32_t* ids = sel_ids_.data() + t * k;
  float* wts = sel_w_.data() + t * k;
  std::vector<int32_t> order(ne);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int32_t a, int32_t b) { return logit[a] > logit[b] || (logit[a] == logit[b] && a < b); });
  std::copy(order.begin(), order.begin() + k, ids);
  if (c_.arch == ModelArch::kQwen3Moe) {
    double total = 0;  // ggml's sum_rows: a double sum, rounded to float once
    for (uint32_t j = 0; j < k; ++j) total += logit[ids[j]];
    const float sum = static_cast<float>(total);
    for (uint32_t j = 0; j < k; ++j) wts[j] = logit[ids[j]] / sum;
    return;
  }
  for (uint32_t j = 0; j < k; ++j) wts[j] = logit[ids[j]];
  Softmax(wts, k);
}

// Stages 3-5 of a layer: q/k norms, RoPE and cache writes per head; attention per
// (token, head); quantization of the attention output per token.
void MoeModel::Attention(const WorkerContext& ctx, uint32_t il, int n) {
  const LayerWeights& l = w_.layers[il];
  const uint32_t hd = c_.head_dim, nh = c_.n_head, nkv = c_.n_head_kv, half = hd / 2;
  const size_t qd = c_.q_dim(), kvd = c_.kv_dim();
  // Units are (token, head): per KV head, the KV head (norm, RoPE and the cache store, the
  // dearer unit) then its query heads, so an even split spreads the KV heads.
  const uint32_t group = nh / nkv;
  const Range units = ctx.Share(static_cast<size_t>(n) * (nh + nkv));
  for (size_t u = units.begin; u < units.end; ++u) {
    const size_t t = u / (nh + nkv), j = u % (nh + nkv) / (group + 1), i = u % (nh + nkv) % (group + 1);
    const size_t h = i == 0 ? nh + j : j * group + i - 1;  // h >= nh: KV head h - nh
    const float* cs = rope_cos_.data() + t * half;
    const float* sn = rope_sin_.data() + t * half;
    if (h < nh) {
      float* head = q_.data() + t * qd + h * hd;
      if (l.q_norm) RmsNorm(head, l.q_norm, hd, c_.rms_eps, head);
      RopeNeox(head, 1, hd, hd, cs, sn);
    } else {
      const size_t j = h - nh;
      float* head = k_.data() + t * kvd + j * hd;
      if (l.k_norm) RmsNorm(head, l.k_norm, hd, c_.rms_eps, head);
      RopeNeox(head, 1, hd, hd, cs, sn);
      rows_[t].session->cache().Store(il, rows_[t].pos, j * hd, hd, head, v_.data() + t * kvd + j * hd);
    }
  }
  ctx.Sync();
  const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
  std::vector<float>& value_lanes = scratch_[ctx.index()].value_lanes;
  value_lanes.resize(64 * size_t{hd});
  // Units are (KV head, token), KV-head-major: a token's cost grows with its position, so
  // a token-major split would hand the last worker the longest rows of a prompt. A unit
  // runs the `group` query heads that share the KV head.
  const Range units_kv = ctx.Share(static_cast<size_t>(n) * nkv);
  for (size_t u = units_kv.begin; u < units_kv.end; ++u) {
    const uint32_t t = u % n, kvh = u / n, pos = rows_[t].pos;
    MoeSession& session = *rows_[t].session;
    KvCache& cache = session.cache();
    float* const score_buf = session.scores(ctx.index());
    const size_t stride = session.score_stride();
    const bool f32 = cache.type() == KvCacheType::kF32;
    const uint32_t first = c_.IsSlidingLayer(il) && pos + 1 > c_.sliding_window ? pos + 1 - c_.sliding_window : 0;
    const float* q = q_.data() + t * qd + kvh * group * hd;  // the group's first query head
    float* out = act_attn_.mutable_f32(t) + kvh * group * hd;
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
  for (size_t t = tok.begin; t < tok.end; ++t) act_attn_.Quantize(t, {0, qd}, wo_format);
  ctx.Sync();
}

// The FFN of a layer. When at least as many experts are routed as there are workers
// (decode's k experts, a prompt's many), each expert's gate/up (with SwiGLU) and then its
// down are tasks that free workers claim, so each matrix is streamed front to back by one
// worker and a slower worker takes fewer tasks; otherwise each expert's gate/up rows,
// then its down rows, are split across workers. Either way each expert's down outputs
// land in eo_ rows in expert order, and each worker then adds its columns of the k slots,
// in slot order, to the residual.
void MoeModel::Experts(const WorkerContext& ctx, uint32_t il, int n) {
  WorkerScratch& s = scratch_[ctx.index()];
  const uint32_t k = c_.n_expert_used;
  const size_t d = c_.n_embd;
  for (auto& e : s.entries) e.clear();
  for (int i = 0; i < n * static_cast<int>(k); ++i) s.entries[sel_ids_[i]].push_back(i);
  s.active.clear();
  s.down_row.resize(static_cast<size_t>(n) * k);
  int32_t row = 0;
  for (uint32_t e = 0; e < c_.n_expert; ++e) {
    if (s.entries[e].empty()) continue;
    s.active.push_back(e);
    for (int32_t entry : s.entries[e]) s.down_row[entry] = row++;
  }
  if (ctx.index() == 0) {
    bytes_read_.fetch_add(s.active.size() * expert_bytes_[il], std::memory_order_relaxed);
    if (warmer_) WarmAhead(s.active, il, n);
  }
  const size_t ff = c_.n_ff_exp;
  const size_t m = s.active.size();
  // This worker's rows of every down output, and then its columns of the residual: the
  // same range, so the split path needs no sync between them. 16-row cuts (as
  // ShareRowsByBytes): whole row tiles and groups of repacked rows.
  const Range own = ctx.Share(d, 16);
  if (m >= static_cast<size_t>(ctx.n_workers())) {
    // Tasks: gate/up of active expert i for i < m, then its down (task m + i), claimed
    // by whichever worker is free.
    for (size_t task; (task = expert_tasks_.Claim()) < 2 * m;) {
      if (task < m) {
        GateUp(s, il, s.active[task], {0, ff});
        expert_tasks_.MarkDone(task);
      } else {
        expert_tasks_.WaitDone(task - m);
        Down(s, il, s.active[task - m], {0, d});
      }
    }
    ctx.Sync();
  } else {
    const ActFormat down_format = ActFormatFor(w_.layers[il].down_exps.type);
    const Range rows = ctx.Share(ff, FormatBlock(down_format));
    for (uint32_t e : s.active) GateUp(s, il, e, rows);
    ctx.Sync();
    for (uint32_t e : s.active) Down(s, il, e, own);
  }
  const LayerWeights& l = w_.layers[il];
  for (int t = 0; t < n; ++t) {
    for (size_t i = own.begin; i < own.end; ++i) {
      float acc = 0;
      for (uint32_t j = 0; j < k; ++j) {
        const size_t e = sel_ids_[t * k + j];
        const float bias = l.down_bias ? l.down_bias[e * d + i] : 0.0f;
        acc += (eo_[s.down_row[t * k + j] * d + i] + bias) * sel_w_[t * k + j];
      }
      x_[t * d + i] += acc;
    }
  }
}

// Rows `rows` of expert e's gate and up for its tokens (one gather for both), SwiGLU,
// and the hidden activations' quantization for down (rows are whole blocks of it).
void MoeModel::GateUp(WorkerScratch& s, uint32_t il, uint32_t e, Range rows) {
  const LayerWeights& l = w_.layers[il];
  const std::vector<int32_t>& entries = s.entries[e];
  const uint32_t k = c_.n_expert_used, ff = c_.n_ff_exp;
  if (rows.size() == 0) return;
  s.tokens.clear();
  for (int32_t entry : entries) s.tokens.push_back(entry / k);
  const absl::Span<const int32_t> local = absl::MakeConstSpan(iota_.data(), entries.size());
  const GatheredRows x = GatherRows(act_d_, ActFormatFor(l.gate_exps.type), s.tokens, s.mm);
  MatMulGathered(l.gate_exps, e, rows, x, local, s.gate.data(), ff, s.mm);
  if (ActFormatFor(l.up_exps.type) == x.format) {
    MatMulGathered(l.up_exps, e, rows, x, local, s.up.data(), ff, s.mm);
  } else {
    MatMulRows(l.up_exps, e, rows, act_d_, s.tokens, local, s.up.data(), ff, s.mm);
  }
  const float* bg = l.gate_bias ? l.gate_bias + static_cast<size_t>(e) * ff : nullptr;
  const float* bu = l.up_bias ? l.up_bias + static_cast<size_t>(e) * ff : nullptr;
  const ActFormat down_format = ActFormatFor(l.down_exps.type);
  for (size_t i = 0; i < entries.size(); ++i) {
    float* g = s.gate.data() + i * ff + rows.begin;
    float* u = s.up.data() + i * ff + rows.begin;
    if (bg) AddTo(g, bg + rows.begin, rows.size());
    if (bu) AddTo(u, bu + rows.begin, rows.size());
    float* h = hidden_.mutable_f32(entries[i]) + rows.begin;
    if (c_.arch == ModelArch::kGptOss) {
      SwigluOai(g, u, rows.size(), kOaiAlpha, kOaiLimit, h);
    } else {
      Swiglu(g, u, rows.size(), h);
    }
    hidden_.Quantize(entries[i], rows, down_format);
  }
}

// Asks the warmer for the pages layer il's `active` experts will read, in the order the
// workers take them (every gate/up, then every down), then for the next layer's dense
// weights (the output head after the last layer), of a pass of n tokens.
void MoeModel::WarmAhead(const std::vector<uint32_t>& active, uint32_t il, int n) {
  const LayerWeights& l = w_.layers[il];
  warm_spans_.clear();
  auto add = [&](const WeightMatrix& m, uint32_t e) {
    // A repacked copy's pages are re-validated too (in memory or the cache file's), where
    // the pass reads them rather than the model file's.
    if (ReadsRepackedCopy(m, static_cast<size_t>(n))) {
      warm_spans_.push_back({m.repacked + e * m.repacked_bytes, m.repacked_bytes});
    } else {
      warm_spans_.push_back({m.Row(e, 0), static_cast<size_t>(m.rows) * m.row_bytes});
    }
  };
  for (uint32_t e : active) {
    add(l.gate_exps, e);
    add(l.up_exps, e);
  }
  for (uint32_t e : active) add(l.down_exps, e);
  if (il + 1 < c_.n_layer) {
    const LayerWeights& next = w_.layers[il + 1];
    for (const WeightMatrix* m : {&next.wq, &next.wk, &next.wv, &next.wo, &next.router}) add(*m, 0);
  } else {
    add(w_.output, 0);
  }
  warmer_->Warm(warm_spans_);
}

// Rows `rows` of expert e's down for its tokens, into its rows of eo_.
void MoeModel::Down(WorkerScratch& s, uint32_t il, uint32_t e, Range rows) {
  const std::vector<int32_t>& entries = s.entries[e];
  const int32_t first = s.down_row[entries[0]];
  const absl::Span<const int32_t> out = absl::MakeConstSpan(iota_.data() + first, entries.size());
  MatMulRows(w_.layers[il].down_exps, e, rows, hidden_, entries, out, eo_.data(), c_.n_embd, s.mm);
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> NewMoeModel(GgufFile file, ModelConfig config,
                                                   ModelWeights weights,
                                                   const ModelOptions& options) {
  if (options.max_batch_tokens < 1) {
    return absl::InvalidArgumentError(Cat("model: max_batch_tokens is ", options.max_batch_tokens,
                                          "; a pass takes at least one token"));
  }
  if (config.head_dim > kMaxGroupDim) {
    return absl::UnimplementedError(Cat("model: head dimension ", config.head_dim,
                                        " is above the ", kMaxGroupDim, " the attention kernels take"));
  }
  for (uint32_t il = 0; il < config.n_layer; ++il) {
    const LayerWeights& l = weights.layers[il];
    if (ActFormatFor(l.router.type) != ActFormat::kF32) {
      return absl::UnimplementedError(Cat("model: router ", l.router.name, " has type ",
                                          TypeName(l.router.type), "; the router runs in f32 on a float type"));
    }
  }
  const int threads = options.n_threads > 0 ? options.n_threads : PhysicalCoreCount();
  return std::unique_ptr<Model>(
      new MoeModel(std::move(file), std::move(config), std::move(weights), options, threads));
}

}  // namespace cpubrrr
