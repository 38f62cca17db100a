// When at least as many experts are routed as there are workers (decode's k experts, a
// prompt's many), each expert's gate/up (with the activation) and then its down are tasks
// that free workers claim, so each matrix is streamed front to back by one worker and a
// slower worker takes fewer tasks; otherwise each expert's gate/up rows, then its down
// rows, are split across workers. Either way each expert's down outputs land in eo rows
// in expert order, and each worker then adds its columns of the k slots, in slot order,
// to the residual.
#include "models/common/moe_feed_forward.h"

#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/swiglu.h"
#include "kernels/f32/vec.h"
#include "models/common/linear.h"
#include "models/common/routing.h"

namespace cpubrrr {

MoeFeedForward::MoeFeedForward(const ModelConfig& config, const ArchSpec& spec, int max_rows, int n_workers)
    : c_(config), spec_(spec), tasks_(config.n_expert), scratch_(n_workers) {
  for (Scratch& s : scratch_) {
    s.gate.resize(size_t{config.n_ff_exp} * max_rows);
    s.up.resize(size_t{config.n_ff_exp} * max_rows);
    s.entries.resize(config.n_expert);
  }
}

void MoeFeedForward::Run(const WorkerContext& ctx, const LayerWeights& l, uint32_t il, PassBuffers& buf,
                         absl::FunctionRef<void(const std::vector<uint32_t>& active)> on_routed) {
  const int n = static_cast<int>(buf.rows.size());
  const size_t d = c_.n_embd;
  const uint32_t ne = c_.n_expert, k = c_.n_expert_used;
  const absl::Span<const int32_t> all = absl::MakeConstSpan(buf.iota.data(), n);
  const Range tok = ctx.Share(n);
  ctx.Sync();
  // FFN norm and its quantization for the experts.
  for (size_t t = tok.begin; t < tok.end; ++t) {
    RmsNorm(buf.x.data() + t * d, l.ffn_norm, d, c_.rms_eps, buf.normed.mutable_f32(t));
    QuantizeFor(buf.normed, t, {0, d}, l.gate_exps, l.up_exps);
  }
  ctx.Sync();
  // Router in f32 on the unquantized norm, its rows (experts) split across workers.
  MatMulRows(l.router, 0, ctx.Share(ne), buf.normed, all, all, buf.router.data(), ne, buf.mm[ctx.index()]);
  ctx.Sync();
  for (size_t t = tok.begin; t < tok.end; ++t) {
    float* logits = buf.router.data() + t * ne;
    if (l.router_bias) AddTo(logits, l.router_bias, ne);
    RouteToken(spec_.router, logits, ne, k, buf.sel_ids.data() + t * k, buf.sel_w.data() + t * k);
  }
  if (ctx.index() == 0) tasks_.Reset();
  ctx.Sync();
  Scratch& s = scratch_[ctx.index()];
  for (auto& e : s.entries) e.clear();
  for (int i = 0; i < n * static_cast<int>(k); ++i) s.entries[buf.sel_ids[i]].push_back(i);
  s.active.clear();
  s.down_row.resize(static_cast<size_t>(n) * k);
  int32_t row = 0;
  for (uint32_t e = 0; e < ne; ++e) {
    if (s.entries[e].empty()) continue;
    s.active.push_back(e);
    for (int32_t entry : s.entries[e]) s.down_row[entry] = row++;
  }
  if (ctx.index() == 0) on_routed(s.active);
  Experts(ctx, l, buf);
}

void MoeFeedForward::Experts(const WorkerContext& ctx, const LayerWeights& l, PassBuffers& buf) {
  Scratch& s = scratch_[ctx.index()];
  MatMulScratch& mm = buf.mm[ctx.index()];
  const int n = static_cast<int>(buf.rows.size());
  const uint32_t k = c_.n_expert_used;
  const size_t d = c_.n_embd, ff = c_.n_ff_exp;
  const size_t m = s.active.size();
  // This worker's rows of every down output, and then its columns of the residual: the
  // same range, so the split path needs no sync between them.
  const Range own = RowShare(ctx, d, {&l.down_exps});
  const size_t workers = static_cast<size_t>(ctx.n_workers());
  if (m >= workers) {
    // Tasks: gate/up of active expert i for i < m, then the downs in expert order, claimed
    // by whichever worker is free. In a layer of few tasks (decode of one sequence), the
    // last `workers` experts' downs are two tasks each (halves of their rows), so the
    // workers finish the layer closer together; with many tasks (several sequences, a
    // prompt) the halves measured slower (docs/RESEARCH_LOG.md).
    const size_t halved = workers > 1 && m <= 4 * workers ? workers : 0;
    const size_t whole = m - halved;  // experts whose down is one task
    const size_t n_tasks = m + whole + 2 * halved;
    for (size_t task; (task = tasks_.Claim()) < n_tasks;) {
      if (task < m) {
        GateUp(s, mm, l, s.active[task], {0, ff}, buf);
        tasks_.MarkDone(task);
        continue;
      }
      const size_t down = task - m;
      const size_t i = down < whole ? down : whole + (down - whole) / 2;
      const Range rows = down < whole ? Range{0, d}
                                      : RowPart(d, static_cast<int>((down - whole) % 2), 2, {&l.down_exps});
      tasks_.WaitDone(i);
      Down(s, mm, l, s.active[i], rows, buf);
    }
    ctx.Sync();
  } else {
    const Range rows = RowShare(ctx, ff, {&l.gate_exps, &l.up_exps}, ActBlockElems(ActFormatFor(l.down_exps.type)));
    for (uint32_t e : s.active) GateUp(s, mm, l, e, rows, buf);
    ctx.Sync();
    for (uint32_t e : s.active) Down(s, mm, l, e, own, buf);
  }
  for (int t = 0; t < n; ++t) {
    for (size_t i = own.begin; i < own.end; ++i) {
      float acc = 0;
      for (uint32_t j = 0; j < k; ++j) {
        const size_t e = buf.sel_ids[t * k + j];
        const float bias = l.down_bias ? l.down_bias[e * d + i] : 0.0f;
        acc += (buf.eo[s.down_row[t * k + j] * d + i] + bias) * buf.sel_w[t * k + j];
      }
      buf.x[t * d + i] += acc;
    }
  }
}

// Rows `rows` of expert e's gate and up for its entries (one gather for both), the
// activation, and the hidden activations' quantization for down (rows are whole blocks of
// it).
void MoeFeedForward::GateUp(Scratch& s, MatMulScratch& mm, const LayerWeights& l, uint32_t e, Range rows,
                            PassBuffers& buf) {
  const std::vector<int32_t>& entries = s.entries[e];
  const uint32_t k = c_.n_expert_used, ff = c_.n_ff_exp;
  if (rows.size() == 0) return;
  s.entry_rows.clear();
  for (int32_t entry : entries) s.entry_rows.push_back(entry / k);
  const absl::Span<const int32_t> local = absl::MakeConstSpan(buf.iota.data(), entries.size());
  const GatheredRows x = GatherRows(buf.normed, ActFormatFor(l.gate_exps.type), s.entry_rows, mm);
  MatMulGathered(l.gate_exps, e, rows, x, local, s.gate.data(), ff, mm);
  if (ActFormatFor(l.up_exps.type) == x.format) {
    MatMulGathered(l.up_exps, e, rows, x, local, s.up.data(), ff, mm);
  } else {
    MatMulRows(l.up_exps, e, rows, buf.normed, s.entry_rows, local, s.up.data(), ff, mm);
  }
  const float* bg = l.gate_bias ? l.gate_bias + static_cast<size_t>(e) * ff : nullptr;
  const float* bu = l.up_bias ? l.up_bias + static_cast<size_t>(e) * ff : nullptr;
  const ActFormat down_format = ActFormatFor(l.down_exps.type);
  for (size_t i = 0; i < entries.size(); ++i) {
    float* g = s.gate.data() + i * ff + rows.begin;
    float* u = s.up.data() + i * ff + rows.begin;
    if (bg) AddTo(g, bg + rows.begin, rows.size());
    if (bu) AddTo(u, bu + rows.begin, rows.size());
    float* h = buf.hidden.mutable_f32(entries[i]) + rows.begin;
    if (spec_.activation == ExpertActivation::kClampedSwiglu) {
      SwigluOai(g, u, rows.size(), spec_.swiglu_alpha, spec_.swiglu_limit, h);
    } else {
      Swiglu(g, u, rows.size(), h);
    }
    buf.hidden.Quantize(entries[i], rows, down_format);
  }
}

// Rows `rows` of expert e's down for its entries, into its rows of eo.
void MoeFeedForward::Down(Scratch& s, MatMulScratch& mm, const LayerWeights& l, uint32_t e, Range rows,
                          PassBuffers& buf) {
  const std::vector<int32_t>& entries = s.entries[e];
  const int32_t first = s.down_row[entries[0]];
  const absl::Span<const int32_t> out = absl::MakeConstSpan(buf.iota.data() + first, entries.size());
  MatMulRows(l.down_exps, e, rows, buf.hidden, entries, out, buf.eo.data(), c_.n_embd, mm);
}

}  // namespace cpubrrr
