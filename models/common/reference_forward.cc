// The double-precision reference forward pass, written for clarity, not speed.
#include "models/common/reference_forward.h"

#include <algorithm>
#include <cmath>
#include <numeric>


namespace cpubrrr {
namespace {

using Vec = std::vector<double>;

// Matrix `mat` of `w` decoded to double, rows x cols row-major.
struct DenseMatrix {
  int64_t rows = 0, cols = 0;
  Vec v;
};

DenseMatrix Decode(const WeightMatrix& w, int64_t mat) {
  DenseMatrix m{w.rows, w.cols, Vec(static_cast<size_t>(w.rows * w.cols))};
  std::vector<float> row(w.cols);
  for (int64_t r = 0; r < w.rows; ++r) {
    w.DequantizeRow(mat, r, row.data());
    std::copy(row.begin(), row.end(), m.v.begin() + r * w.cols);
  }
  return m;
}

// Returns m x + bias (bias may be null).
Vec MatVec(const DenseMatrix& m, const Vec& x, const float* bias) {
  Vec y(m.rows);
  for (int64_t r = 0; r < m.rows; ++r) {
    double s = 0;
    const double* row = m.v.data() + r * m.cols;
    for (int64_t c = 0; c < m.cols; ++c) s += row[c] * x[c];
    y[r] = s + (bias ? bias[r] : 0.0);
  }
  return y;
}

// Replaces x[0, n) by rmsnorm(x) * weight.
void RmsNorm(double* x, int64_t n, const float* weight, double eps) {
  double ss = 0;
  for (int64_t i = 0; i < n; ++i) ss += x[i] * x[i];
  const double scale = 1.0 / std::sqrt(ss / n + eps);
  for (int64_t i = 0; i < n; ++i) x[i] = x[i] * scale * weight[i];
}

// Rotates NeoX pairs (i, i + hd/2) of one head at position `pos` (MODEL_SPEC.md 2).
void Rope(double* head, int hd, int pos, const RopeConfig& rope) {
  const int half = hd / 2;
  double low = 0, high = 0, mscale = rope.attn_factor;
  if (rope.yarn) {
    auto corr = [&](double beta) {
      return hd * std::log(rope.original_context / (beta * 2 * M_PI)) / (2 * std::log(rope.freq_base));
    };
    low = std::max(0.0, std::floor(corr(rope.beta_fast)));
    high = std::min(hd - 1.0, std::ceil(corr(rope.beta_slow)));
    mscale *= 1.0 + 0.1 * std::log(rope.factor);
  }
  for (int i = 0; i < half; ++i) {
    const double theta_ex = pos * std::pow(static_cast<double>(rope.freq_base), -2.0 * i / hd);
    double theta = theta_ex;
    if (rope.yarn) {
      const double theta_in = theta_ex / rope.factor;
      const double y = (i - low) / std::max(0.001, high - low);
      const double mix = 1 - std::clamp(y, 0.0, 1.0);
      theta = theta_in * (1 - mix) + theta_ex * mix;
    }
    const double c = std::cos(theta) * mscale, s = std::sin(theta) * mscale;
    const double a = head[i], b = head[i + half];
    head[i] = a * c - b * s;
    head[i + half] = a * s + b * c;
  }
}

// Returns the selected experts and their weights for router logits `logits`.
void Route(const ModelConfig& c, const Vec& logits, std::vector<int>* ids, Vec* weights) {
  std::vector<int> order(logits.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return logits[a] > logits[b]; });
  ids->assign(order.begin(), order.begin() + c.n_expert_used);
  // Softmax over the selected logits equals qwen3's softmax over all then renormalize.
  const double mx = logits[(*ids)[0]];
  weights->clear();
  double sum = 0;
  for (int e : *ids) {
    weights->push_back(std::exp(logits[e] - mx));
    sum += weights->back();
  }
  for (double& w : *weights) w /= sum;
}

double ExpertActivation(const ModelConfig& c, double g, double u) {
  if (c.arch == ModelArch::kGptOss) {
    constexpr double kLimit = 7.0, kAlpha = 1.702;  // gpt-oss's clamped SwiGLU
    g = std::min(g, kLimit);
    u = std::clamp(u, -kLimit, kLimit);
    return g / (1 + std::exp(-kAlpha * g)) * (u + 1);
  }
  return g / (1 + std::exp(-g)) * u;
}

}  // namespace

std::vector<double> ReferenceNextTokenLogits(const ModelConfig& c, const ModelWeights& w,
                                             absl::Span<const int32_t> tokens) {
  const int n = static_cast<int>(tokens.size());
  const int64_t d = c.n_embd, hd = c.head_dim;
  std::vector<Vec> x(n, Vec(d));
  std::vector<float> row(d);
  for (int t = 0; t < n; ++t) {
    w.token_embd.DequantizeRow(0, tokens[t], row.data());
    std::copy(row.begin(), row.end(), x[t].begin());
  }
  for (uint32_t il = 0; il < c.n_layer; ++il) {
    const LayerWeights& l = w.layers[il];
    const DenseMatrix wq = Decode(l.wq, 0), wk = Decode(l.wk, 0), wv = Decode(l.wv, 0),
                      wo = Decode(l.wo, 0), router = Decode(l.router, 0);
    std::vector<Vec> q(n), k(n), v(n);
    for (int t = 0; t < n; ++t) {
      Vec xn = x[t];
      RmsNorm(xn.data(), d, l.attn_norm, c.rms_eps);
      q[t] = MatVec(wq, xn, l.bq);
      k[t] = MatVec(wk, xn, l.bk);
      v[t] = MatVec(wv, xn, l.bv);
      for (uint32_t h = 0; h < c.n_head; ++h) {
        if (l.q_norm) RmsNorm(q[t].data() + h * hd, hd, l.q_norm, c.rms_eps);
        Rope(q[t].data() + h * hd, hd, t, c.rope);
      }
      for (uint32_t h = 0; h < c.n_head_kv; ++h) {
        if (l.k_norm) RmsNorm(k[t].data() + h * hd, hd, l.k_norm, c.rms_eps);
        Rope(k[t].data() + h * hd, hd, t, c.rope);
      }
    }
    const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
    const int group = c.n_head / c.n_head_kv;
    for (int t = 0; t < n; ++t) {
      const int first = c.IsSlidingLayer(il) ? std::max(0, t - static_cast<int>(c.sliding_window) + 1) : 0;
      Vec attn(c.q_dim(), 0.0);
      for (uint32_t h = 0; h < c.n_head; ++h) {
        const int kvh = h / group;
        Vec s(t + 1 - first);
        double mx = l.sinks ? static_cast<double>(l.sinks[h]) : -INFINITY;
        for (int j = first; j <= t; ++j) {
          double dot = 0;
          for (int64_t i = 0; i < hd; ++i) dot += q[t][h * hd + i] * k[j][kvh * hd + i];
          s[j - first] = dot * scale;
          mx = std::max(mx, s[j - first]);
        }
        double sum = l.sinks ? std::exp(l.sinks[h] - mx) : 0.0;
        for (double& e : s) {
          e = std::exp(e - mx);
          sum += e;
        }
        for (int j = first; j <= t; ++j) {
          for (int64_t i = 0; i < hd; ++i) attn[h * hd + i] += s[j - first] / sum * v[j][kvh * hd + i];
        }
      }
      const Vec o = MatVec(wo, attn, l.bo);
      for (int64_t i = 0; i < d; ++i) x[t][i] += o[i];
    }
    for (int t = 0; t < n; ++t) {
      Vec xn = x[t];
      RmsNorm(xn.data(), d, l.ffn_norm, c.rms_eps);
      const Vec logits = MatVec(router, xn, l.router_bias);
      std::vector<int> ids;
      Vec gate_w;
      Route(c, logits, &ids, &gate_w);
      for (size_t s = 0; s < ids.size(); ++s) {
        const int e = ids[s];
        const DenseMatrix g = Decode(l.gate_exps, e), u = Decode(l.up_exps, e),
                          dn = Decode(l.down_exps, e);
        const Vec gv = MatVec(g, xn, l.gate_bias ? l.gate_bias + e * c.n_ff_exp : nullptr);
        const Vec uv = MatVec(u, xn, l.up_bias ? l.up_bias + e * c.n_ff_exp : nullptr);
        Vec h(c.n_ff_exp);
        for (uint32_t i = 0; i < c.n_ff_exp; ++i) h[i] = ExpertActivation(c, gv[i], uv[i]);
        const Vec out = MatVec(dn, h, l.down_bias ? l.down_bias + e * d : nullptr);
        for (int64_t i = 0; i < d; ++i) x[t][i] += gate_w[s] * out[i];
      }
    }
  }
  Vec last = x[n - 1];
  RmsNorm(last.data(), d, w.output_norm, c.rms_eps);
  Vec logits(w.output.rows);
  std::vector<float> orow(d);
  for (int64_t r = 0; r < w.output.rows; ++r) {
    w.output.DequantizeRow(0, r, orow.data());
    double s = 0;
    for (int64_t i = 0; i < d; ++i) s += orow[i] * last[i];
    logits[r] = s;
  }
  return logits;
}

}  // namespace cpubrrr
