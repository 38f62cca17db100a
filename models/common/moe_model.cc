// One WorkerPool::Run per pass runs every layer's attention block and MoE block, then
// the output head; ForwardBatch packs the entries' tokens into passes.
#include "models/common/moe_model.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <vector>

#include "absl/status/status.h"
#include "kernels/f32/attention.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope_table.h"
#include "models/common/activation_batch.h"
#include "models/common/attention_block.h"
#include "models/common/kernel_report.h"
#include "models/common/linear.h"
#include "models/common/moe_feed_forward.h"
#include "models/common/moe_session.h"
#include "models/common/pass_buffers.h"
#include "models/common/prepare_weights.h"
#include "models/common/repacked_weights.h"
#include "models/common/warm_ahead.h"
#include "runtime/gguf/page_in.h"
#include "runtime/gguf/str_cat.h"
#include "runtime/kv_cache/rewindable_kv_cache.h"
#include "runtime/threading/page_warmer.h"
#include "runtime/threading/physical_cores.h"
#include "runtime/threading/worker_pool.h"

namespace cpubrrr {
namespace {

// Copies of the sliding-window rings a session keeps for rewinds past them (each one the
// rings' size: for gpt-oss-20b, 12 layers x 639 positions x 2 KiB = 15.7 MB at f16).
constexpr size_t kRingCheckpoints = 4;

class MoeModel : public Model {
 public:
  MoeModel(GgufFile file, ModelConfig config, const ArchSpec& spec, ModelWeights weights,
           const ModelOptions& options, int n_threads);

  const ModelInfo& info() const override { return info_; }
  absl::StatusOr<std::unique_ptr<Session>> NewSession(uint32_t context_length) override;
  absl::Status Forward(Session& session, absl::Span<const int32_t> tokens,
                       absl::Span<float> logits) override;
  absl::Status ForwardBatch(absl::Span<const ForwardEntry> entries) override;
  uint64_t weight_bytes_read() const override { return bytes_read_.load(std::memory_order_relaxed); }
  uint32_t DefaultContextLength() const override;
  uint64_t SessionBytes(uint32_t context_length) const override;

 private:
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
  // Runs buf_.rows through every layer in one WorkerPool::Run and the output head over
  // heads_.
  void Pass();
  // Runs the output head over heads_ (after the last layer).
  void Head(const WorkerContext& ctx);

  GgufFile file_;
  ModelConfig c_;
  int batch_;  // rows per pass (ModelOptions::max_batch_tokens)
  ModelWeights w_;
  ModelOptions options_;
  ModelInfo info_;
  WorkerPool pool_;
  // The repacked copies (MXFP4, Q4_K and Q6_K experts and attention, Q8_0 attention, a
  // Q6_K or Q8_0 output head), if any; declared before warmer_, so they are unmapped only
  // after the warmer's thread, which may still be reading them, has stopped.
  RepackedWeights repacked_;
  std::unique_ptr<PageWarmer> warmer_;  // null: off, or no idle core
  std::vector<ByteSpan> warm_spans_;
  PassBuffers buf_;
  AttentionBlock attention_;
  MoeFeedForward ffn_;
  std::vector<HeadRow> heads_;   // rows whose logits are wanted, in row order
  std::vector<float> head_out_;  // logits of several head rows, n_vocab apart
  uint64_t dense_bytes_ = 0;     // a pass's attention and router weights, all layers
  std::vector<uint64_t> expert_bytes_;  // per layer: one expert's gate, up and down
  std::atomic<uint64_t> bytes_read_{0};  // weight_bytes_read(): a server thread may ask mid-pass
  RopeParams rope_;
};

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

MoeModel::MoeModel(GgufFile file, ModelConfig config, const ArchSpec& spec, ModelWeights weights,
                   const ModelOptions& options, int n_threads)
    : file_(std::move(file)),
      c_(std::move(config)),
      batch_(options.max_batch_tokens),
      w_(std::move(weights)),
      options_(options),
      pool_(n_threads),
      buf_(c_, w_, batch_, n_threads),
      attention_(c_, n_threads),
      ffn_(c_, spec, batch_, n_threads),
      rope_(RopeParamsFor(c_)) {
  const size_t k = c_.n_expert_used;
  if (options.warm_pages && n_threads < PhysicalCoreCount()) warmer_ = std::make_unique<PageWarmer>();
  PreparedWeights prepared = PrepareWeights(file_, w_, pool_, options);
  repacked_ = std::move(prepared.repacked);
  info_.repack_cache = prepared.repack_cache;
  info_.repack_cache_written = prepared.cache_written;
  info_.repack_cache_error = prepared.cache_error;
  info_.not_repacked = prepared.not_repacked;

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
    buf_.rows.clear();
    heads_.clear();
    std::vector<std::pair<MoeSession*, uint32_t>> advance;  // each session's rows in this pass
    for (size_t i = first; i < entries.size() && buf_.rows.size() < static_cast<size_t>(batch_); ++i) {
      const ForwardEntry& e = entries[i];
      const size_t n = std::min(e.tokens.size() - done[i], batch_ - buf_.rows.size());
      const bool every_row = e.tokens.size() > 1 && e.logits.size() == e.tokens.size() * c_.n_vocab;
      for (size_t j = 0; j < n; ++j) {
        buf_.rows.push_back({sessions[i], e.tokens[done[i] + j], sessions[i]->position() + static_cast<uint32_t>(j)});
        if (every_row) {
          heads_.push_back({static_cast<int32_t>(buf_.rows.size() - 1), e.logits.data() + (done[i] + j) * c_.n_vocab});
        }
      }
      done[i] += n;
      advance.push_back({sessions[i], static_cast<uint32_t>(n)});
      if (!every_row && done[i] == e.tokens.size() && !e.logits.empty()) {
        heads_.push_back({static_cast<int32_t>(buf_.rows.size() - 1), e.logits.data()});
      }
    }
    if (!HeadsContiguous()) head_out_.resize(heads_.size() * c_.n_vocab);
    Pass();
    bytes_read_.fetch_add(dense_bytes_ + buf_.rows.size() * w_.token_embd.row_bytes + (heads_.empty() ? 0 : w_.output.bytes()),
                          std::memory_order_relaxed);
    for (const auto& [session, n] : advance) session->Advance(n);
    while (first < entries.size() && done[first] == entries[first].tokens.size()) ++first;
  }
  return absl::OkStatus();
}

void MoeModel::Pass() {
  const int n = static_cast<int>(buf_.rows.size());
  const size_t d = c_.n_embd, half = c_.head_dim / 2;
  pool_.Run([&](const WorkerContext& ctx) {
    const Range tok = ctx.Share(n);
    for (size_t t = tok.begin; t < tok.end; ++t) {
      w_.token_embd.DequantizeRow(0, buf_.rows[t].token, buf_.x.data() + t * d);
      RopeTable(rope_, buf_.rows[t].pos, buf_.rope_cos.data() + t * half, buf_.rope_sin.data() + t * half);
    }
    for (uint32_t il = 0; il < c_.n_layer; ++il) {
      const LayerWeights& l = w_.layers[il];
      attention_.Run(ctx, l, il, buf_);
      ffn_.Run(ctx, l, il, buf_, [&](const std::vector<uint32_t>& active) {
        bytes_read_.fetch_add(active.size() * expert_bytes_[il], std::memory_order_relaxed);
        if (warmer_) WarmAhead(*warmer_, w_, active, il, n, warm_spans_);
      });
    }
    if (!heads_.empty()) Head(ctx);
  });
}

void MoeModel::Head(const WorkerContext& ctx) {
  const size_t d = c_.n_embd, m = heads_.size();
  MatMulScratch& mm = buf_.mm[ctx.index()];
  ctx.Sync();
  const Range own = ctx.Share(m);
  for (size_t i = own.begin; i < own.end; ++i) {
    RmsNorm(buf_.x.data() + heads_[i].row * d, w_.output_norm, d, c_.rms_eps, buf_.head_in.mutable_f32(i));
    buf_.head_in.Quantize(i, {0, d}, ActFormatFor(w_.output.type));
  }
  ctx.Sync();
  // Rows whose logits lie n_vocab apart (one row, or every row of one entry): straight
  // into their logits; scattered rows: into head_out_, copied out below.
  const bool contiguous = HeadsContiguous();
  const absl::Span<const int32_t> outs = absl::MakeConstSpan(buf_.iota.data(), m);
  MatMulRows(w_.output, 0, RowShare(ctx, c_.n_vocab, {&w_.output}), buf_.head_in, outs, outs,
             contiguous ? heads_[0].logits : head_out_.data(), c_.n_vocab, mm);
  if (contiguous) return;
  ctx.Sync();
  const Range cols = ctx.Share(c_.n_vocab);
  for (size_t i = 0; i < m; ++i) {
    std::copy(head_out_.data() + i * c_.n_vocab + cols.begin, head_out_.data() + i * c_.n_vocab + cols.end,
              heads_[i].logits + cols.begin);
  }
}

}  // namespace

absl::StatusOr<std::unique_ptr<Model>> NewMoeModel(GgufFile file, ModelConfig config, const ArchSpec& spec,
                                                   ModelWeights weights, const ModelOptions& options) {
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
      new MoeModel(std::move(file), std::move(config), spec, std::move(weights), options, threads));
}

absl::StatusOr<std::unique_ptr<Model>> OpenMoeModel(GgufFile file, const ArchSpec& spec, BindWeightsFn bind,
                                                    const ModelOptions& options) {
  absl::StatusOr<ModelConfig> config = ReadModelConfig(file);
  if (!config.ok()) return config.status();
  absl::StatusOr<ModelWeights> weights = bind(file, *config);
  if (!weights.ok()) return weights.status();
  return NewMoeModel(std::move(file), *std::move(config), spec, *std::move(weights), options);
}

}  // namespace cpubrrr
