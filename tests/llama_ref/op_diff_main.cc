// Replays llama.cpp's graph nodes with our ops on llama.cpp's own inputs and counts differing bits.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "ggml-backend.h"
#include "ggml.h"
#include "kernels/f32/attention.h"
#include "kernels/f32/rmsnorm.h"
#include "kernels/f32/rope.h"
#include "kernels/f32/rope_table.h"
#include "kernels/f32/softmax.h"
#include "kernels/f32/swiglu.h"
#include "llama.h"
#include "models/common/activation_batch.h"
#include "models/common/linear.h"
#include "models/common/model_config.h"
#include "models/common/tensor_binding.h"
#include "runtime/gguf/gguf_file.h"
#include "tests/llama_ref/tiny_models.h"

namespace cpubrrr {
namespace {

struct Src {
  std::string name;
  const void* ptr = nullptr;
  int64_t ne[4] = {0, 0, 0, 0};
  int type = 0;
};
struct Node {
  std::string name, op;
  int type;
  int64_t ne[4];
  std::vector<float> f;    // F32 contents, contiguous
  std::vector<int32_t> i;  // I32 contents
  Src src[4];
  int32_t params[16];
};

struct Recorder {
  std::vector<Node> nodes;
  std::map<const void*, int> by_ptr;
  int phase = 0;
  int want_phase = 0;
};

// Copies `t` (F32, F16 as floats, I32) into the recorder, with its sources' names.
void Record(Recorder* r, const ggml_tensor* t) {
  Node n;
  n.name = t->name;
  n.op = ggml_op_desc(t);
  n.type = t->type;
  for (int d = 0; d < 4; ++d) n.ne[d] = t->ne[d];
  std::memcpy(n.params, t->op_params, sizeof(n.params));
  for (int s = 0; s < 4; ++s) {
    if (t->src[s]) {
      n.src[s].name = t->src[s]->name;
      n.src[s].ptr = t->src[s];
      n.src[s].type = t->src[s]->type;
      for (int d = 0; d < 4; ++d) n.src[s].ne[d] = t->src[s]->ne[d];
    }
  }
  if (t->type == GGML_TYPE_F32 || t->type == GGML_TYPE_I32 || t->type == GGML_TYPE_F16) {
    std::vector<char> host(ggml_nbytes(t));
    ggml_backend_tensor_get(t, host.data(), 0, host.size());
    for (int64_t i3 = 0; i3 < t->ne[3]; ++i3)
      for (int64_t i2 = 0; i2 < t->ne[2]; ++i2)
        for (int64_t i1 = 0; i1 < t->ne[1]; ++i1)
          for (int64_t i0 = 0; i0 < t->ne[0]; ++i0) {
            const char* p = host.data() + i0 * t->nb[0] + i1 * t->nb[1] + i2 * t->nb[2] + i3 * t->nb[3];
            if (t->type == GGML_TYPE_F16) {
              ggml_fp16_t h;
              std::memcpy(&h, p, 2);
              n.f.push_back(ggml_fp16_to_fp32(h));
            } else if (t->type == GGML_TYPE_F32) {
              float v;
              std::memcpy(&v, p, 4);
              n.f.push_back(v);
            } else {
              int32_t v;
              std::memcpy(&v, p, 4);
              n.i.push_back(v);
            }
          }
  }
  r->by_ptr[t] = static_cast<int>(r->nodes.size());
  r->nodes.push_back(std::move(n));
}

// Records each computed node, and first its activation sources that the scheduler does
// not report (views and graph inputs such as positions and the mask; weights have no op
// and are read from our own mapping instead).
bool Callback(ggml_tensor* t, bool ask, void* ud) {
  auto* r = static_cast<Recorder*>(ud);
  if (ask) return r->phase == r->want_phase;
  for (const ggml_tensor* src : t->src) {
    if (src && !r->by_ptr.count(src) &&
        (src->op != GGML_OP_NONE || (src->flags & GGML_TENSOR_FLAG_INPUT))) {
      Record(r, src);
    }
  }
  Record(r, t);
  return true;
}

struct Stats {
  size_t n = 0, diff = 0;
  double max_abs = 0;
  void Add(float want, float got) {
    ++n;
    uint32_t a, b;
    std::memcpy(&a, &want, 4);
    std::memcpy(&b, &got, 4);
    if (a != b && !(std::isinf(want) && std::isinf(got))) {
      ++diff;
      max_abs = std::max(max_abs, std::abs(double(want) - got));
    }
  }
  std::string Str() const {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%zu/%zu differ, max %.3g", diff, n, max_abs);
    return buf;
  }
};

class Replayer {
 public:
  Replayer(const Recorder& rec, const GgufFile& file, const ModelConfig& c)
      : rec_(rec), binder_(file), c_(c) {}

  const Node* Find(const Src& s) const {
    auto it = rec_.by_ptr.find(s.ptr);
    return it == rec_.by_ptr.end() ? nullptr : &rec_.nodes[it->second];
  }

  void Run() {
    for (const Node& n : rec_.nodes) {
      std::string out;
      if (n.op == "RMS_NORM") out = RmsNormCheck(n);
      else if (n.op == "MUL_MAT") out = MulMatCheck(n);
      else if (n.op == "MUL_MAT_ID") out = MulMatIdCheck(n);
      else if (n.op == "SOFT_MAX") out = SoftMaxCheck(n);
      else if (n.op == "ROPE") out = RopeCheck(n);
      else if (n.op == "GLU" || n.op.find("SWIGLU") != std::string::npos) out = GluCheck(n);
      else if (n.op == "SUM_ROWS") out = SumRowsCheck(n);
      if (!out.empty()) std::printf("%-28s %-10s %s\n", n.name.c_str(), n.op.c_str(), out.c_str());
    }
  }

 private:
  std::string RmsNormCheck(const Node& n) {
    const Node* x = Find(n.src[0]);
    if (!x) return "no src";
    float eps;
    std::memcpy(&eps, n.params, 4);
    const int64_t d = n.ne[0], rows = n.f.size() / d;
    Stats s, sr;
    std::vector<float> y(d);
    for (int64_t r = 0; r < rows; ++r) {
      RmsNorm(x->f.data() + r * d, nullptr, d, eps, y.data());
      for (int64_t i = 0; i < d; ++i) s.Add(n.f[r * d + i], y[i]);
      RmsNormRef(x->f.data() + r * d, nullptr, d, eps, y.data());
      for (int64_t i = 0; i < d; ++i) sr.Add(n.f[r * d + i], y[i]);
    }
    return "hwy " + s.Str() + " | ref " + sr.Str();
  }

  // Returns the weight matrix a ggml source names, or an error when it is an activation.
  absl::StatusOr<WeightMatrix> Weight(const Src& s) {
    return binder_.Matrix({s.name}, s.ne[0], s.ne[1], s.ne[2]);
  }

  std::string MulMatCheck(const Node& n) {
    const Node* x = Find(n.src[1]);
    if (!x) return "no src1";
    absl::StatusOr<WeightMatrix> w = Weight(n.src[0]);
    if (w.ok()) {
      const int64_t cols = w->cols, rows = w->rows, toks = x->f.size() / cols;
      ActivationBatch act(toks, cols, true, cols % 256 == 0);
      for (int64_t t = 0; t < toks; ++t) {
        std::memcpy(act.mutable_f32(t), x->f.data() + t * cols, cols * 4);
        act.Quantize(t, {0, size_t(cols)}, ActFormatFor(w->type));
      }
      std::vector<int32_t> ids(toks);
      for (int64_t t = 0; t < toks; ++t) ids[t] = t;
      std::vector<float> y(toks * rows);
      MatMulScratch scratch;
      MatMulRows(*w, 0, {0, size_t(rows)}, act, ids, ids, y.data(), rows, scratch);
      Stats s;
      for (size_t i = 0; i < y.size(); ++i) s.Add(n.f[i], y[i]);
      // One token at a time (the gemv).
      Stats s1;
      for (int64_t t = 0; t < toks; ++t) {
        int32_t id = t;
        MatMulRows(*w, 0, {0, size_t(rows)}, act, {&id, 1}, {&id, 1}, y.data(), rows, scratch);
      }
      for (size_t i = 0; i < y.size(); ++i) s1.Add(n.f[i], y[i]);
      return std::string(TypeName(w->type)) + " gemm " + s.Str() + " | gemv " + s1.Str();
    }
    // Activation x activation (attention): dst[i, j, h] = dot(src0 row i of head h / group,
    // src1 row j of head h), against a sequential float sum and our DotRows.
    const Node* a = Find(n.src[0]);
    if (!a) return "no src0";
    const int64_t K = a->ne[0], M = a->ne[1], H0 = a->ne[2], N = x->ne[1], H = x->ne[2];
    Stats seq, dr;
    for (int64_t h = 0; h < H; ++h) {
      const int64_t h0 = h / (H / H0);
      for (int64_t j = 0; j < N; ++j) {
        const float* q = x->f.data() + (h * N + j) * K;
        std::vector<float> out(M);
        DotRows(q, a->f.data() + h0 * M * K, K, M, K, 1.0f, out.data());
        for (int64_t i = 0; i < M; ++i) {
          const float* k = a->f.data() + (h0 * M + i) * K;
          float acc = 0;
          for (int64_t e = 0; e < K; ++e) acc += q[e] * k[e];
          const float want = n.f[(h * N + j) * M + i];
          seq.Add(want, acc);
          dr.Add(want, out[i]);
        }
      }
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "act K=%ld M=%ld N=%ld H=%ld ", K, M, N, H);
    return buf + std::string("seq ") + seq.Str() + " | DotRows " + dr.Str();
  }

  std::string MulMatIdCheck(const Node& n) {
    const Node* x = Find(n.src[1]);
    const Node* ids = Find(n.src[2]);
    if (!x || !ids) return "no src";
    absl::StatusOr<WeightMatrix> w = Weight(n.src[0]);
    if (!w.ok()) return std::string(w.status().message());
    const int64_t cols = w->cols, rows = w->rows;
    const int64_t k = n.ne[1], toks = n.ne[2], xk = x->ne[1];
    ActivationBatch act(toks * xk, cols, true, cols % 256 == 0);
    for (int64_t r = 0; r < toks * xk; ++r) {
      std::memcpy(act.mutable_f32(r), x->f.data() + r * cols, cols * 4);
      act.Quantize(r, {0, size_t(cols)}, ActFormatFor(w->type));
    }
    Stats s;
    MatMulScratch scratch;
    std::vector<float> y(rows);
    for (int64_t t = 0; t < toks; ++t) {
      for (int64_t j = 0; j < k; ++j) {
        const int32_t e = ids->i[t * ids->ne[0] + j];
        const int32_t in = t * xk + (xk == 1 ? 0 : j), zero = 0;
        MatMulRows(*w, e, {0, size_t(rows)}, act, {&in, 1}, {&zero, 1}, y.data(), rows, scratch);
        for (int64_t r = 0; r < rows; ++r) s.Add(n.f[(t * k + j) * rows + r], y[r]);
      }
    }
    return std::string(TypeName(w->type)) + " " + s.Str();
  }

  std::string SoftMaxCheck(const Node& n) {
    const Node* x = Find(n.src[0]);
    if (!x) return "no src";
    float scale, max_bias;
    std::memcpy(&scale, n.params, 4);
    std::memcpy(&max_bias, n.params + 1, 4);
    const Node* mask = n.src[1].ptr ? Find(n.src[1]) : nullptr;
    const float* sinks = nullptr;
    if (n.src[2].ptr) {
      absl::StatusOr<const float*> sk = binder_.F32({n.src[2].name}, n.src[2].ne[0]);
      if (sk.ok()) sinks = *sk;
    }
    const int64_t nc = n.ne[0], rows = n.f.size() / nc, nr1 = n.ne[1];
    Stats s, sref;
    std::vector<float> v;
    for (int64_t r = 0; r < rows; ++r) {
      v.clear();
      const int64_t i1 = r % nr1, head = r / nr1;
      for (int64_t i = 0; i < nc; ++i) {
        const float m = mask ? mask->f[(i1 % mask->ne[1]) * mask->ne[0] + i] : 0.0f;
        if (std::isinf(m)) break;
        v.push_back(x->f[r * nc + i] * scale + m);
      }
      std::vector<float> v2 = v;
      // The engine pads to whole runs of 16 cells with -inf (exp 0), as llama.cpp's n_kv is.
      const size_t n_real = v.size();
      v.resize((n_real + 15) / 16 * 16, -INFINITY);
      if (sinks) {
        SoftmaxWithSink(v.data(), v.size(), sinks[head % n.src[2].ne[0]]);
        SoftmaxWithSinkRef(v2.data(), v2.size(), sinks[head % n.src[2].ne[0]]);
      } else {
        Softmax(v.data(), v.size());
        SoftmaxRef(v2.data(), v2.size());
      }
      for (size_t i = 0; i < n_real; ++i) {
        s.Add(n.f[r * nc + i], v[i]);
        sref.Add(n.f[r * nc + i], v2[i]);
      }
    }
    return "hwy " + s.Str() + " | ref " + sref.Str();
  }

  std::string RopeCheck(const Node& n) {
    const Node* x = Find(n.src[0]);
    const Node* pos = Find(n.src[1]);
    if (!x || !pos) return "no src";
    const int64_t hd = n.ne[0], heads = n.ne[1], toks = n.ne[2];
    RopeParams p;
    const RopeConfig& r = c_.rope;
    if (r.yarn) {
      p = YarnRopeParams(c_.head_dim, r.freq_base, r.factor, r.original_context, r.beta_fast, r.beta_slow, r.attn_factor);
    } else {
      p = PlainRopeParams(c_.head_dim, r.freq_base);
      p.attn_factor = r.attn_factor;
    }
    std::vector<float> cs(hd / 2), sn(hd / 2), y(hd);
    Stats s, sref;
    for (int64_t t = 0; t < toks; ++t) {
      RopeTable(p, pos->i[t], cs.data(), sn.data());
      for (int64_t h = 0; h < heads; ++h) {
        const float* src = x->f.data() + (t * heads + h) * hd;
        std::copy(src, src + hd, y.begin());
        RopeNeox(y.data(), 1, hd, hd, cs.data(), sn.data());
        for (int64_t i = 0; i < hd; ++i) s.Add(n.f[(t * heads + h) * hd + i], y[i]);
        std::copy(src, src + hd, y.begin());
        RopeNeoxRef(y.data(), 1, hd, hd, cs.data(), sn.data());
        for (int64_t i = 0; i < hd; ++i) sref.Add(n.f[(t * heads + h) * hd + i], y[i]);
      }
    }
    return "hwy " + s.Str() + " | ref " + sref.Str();
  }

  std::string GluCheck(const Node& n) {
    const Node* g = Find(n.src[0]);
    const Node* u = Find(n.src[1]);
    if (!g || !u) return "no src";
    const size_t len = n.f.size();
    std::vector<float> y(len), yr(len);
    const bool oai = c_.arch == ModelArch::kGptOss;
    float alpha, limit;
    std::memcpy(&alpha, n.params + 2, 4);
    std::memcpy(&limit, n.params + 3, 4);
    const int64_t ff = n.ne[0];
    for (size_t r = 0; r < len / ff; ++r) {
      if (oai) {
        SwigluOai(g->f.data() + r * ff, u->f.data() + r * ff, ff, alpha, limit, y.data() + r * ff);
        SwigluOaiRef(g->f.data() + r * ff, u->f.data() + r * ff, ff, alpha, limit, yr.data() + r * ff);
      } else {
        Swiglu(g->f.data() + r * ff, u->f.data() + r * ff, ff, y.data() + r * ff);
        SwigluRef(g->f.data() + r * ff, u->f.data() + r * ff, ff, yr.data() + r * ff);
      }
    }
    Stats s, sr;
    for (size_t i = 0; i < len; ++i) {
      s.Add(n.f[i], y[i]);
      sr.Add(n.f[i], yr[i]);
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "alpha %g limit %g ", alpha, limit);
    return buf + std::string("hwy ") + s.Str() + " | ref " + sr.Str();
  }

  std::string SumRowsCheck(const Node& n) {
    const Node* x = Find(n.src[0]);
    if (!x) return "no src";
    const int64_t k = x->ne[0];
    Stats s;
    for (size_t r = 0; r < n.f.size(); ++r) {
      float acc = 0;
      for (int64_t j = 0; j < k; ++j) acc += x->f[r * k + j];
      s.Add(n.f[r], acc);
    }
    return "float seq " + s.Str();
  }

  const Recorder& rec_;
  TensorBinder binder_;
  const ModelConfig& c_;
};

void QuietLog(ggml_log_level level, const char* text, void*) {
  if (level == GGML_LOG_LEVEL_ERROR) std::fputs(text, stderr);
}

// Usage: bazel run //tests/llama_ref:op_diff -- [PRESET [PROMPT [DECODE_STEP]]]
// Writes PRESET (seed 5, as model_vs_llama_test), runs PROMPT through llama.cpp (f32 cache,
// no flash attention) and then DECODE_STEP greedy tokens, records every node of that
// step's graph through cb_eval, and prints per node how many outputs our op gives with
// other bits.
int Main(int argc, char** argv) {
  const std::string preset = argc > 1 ? argv[1] : "gpt-oss-tiny-wide";
  const std::string prompt = argc > 2 ? argv[2] : "Hello world, this is a test.";
  const int decode_steps = argc > 3 ? std::atoi(argv[3]) : 0;
  const char* runfiles = std::getenv("RUNFILES_DIR");
  std::string root = runfiles ? std::string(runfiles) + "/cpubrrr" : std::string(argv[0]) + ".runfiles/cpubrrr";
  if (chdir(root.c_str()) != 0) return 3;
  setenv("TEST_TMPDIR", "/tmp/op_diff", 1);
  std::filesystem::create_directories("/tmp/op_diff");
  absl::StatusOr<TinyModel> tiny = WriteTinyModel(preset, false, 5, "");
  if (!tiny.ok()) {
    std::fprintf(stderr, "%s\n", std::string(tiny.status().message()).c_str());
    return 1;
  }
  llama_log_set(QuietLog, nullptr);
  ggml_backend_load_all_from_path("external/llama_ref/bins");
  llama_backend_init();
  llama_model_params mp = llama_model_default_params();
  mp.use_extra_bufts = false;  // as greedy_vs_llama_test
  llama_model* model = llama_model_load_from_file(tiny->path.c_str(), mp);
  const llama_vocab* vocab = llama_model_get_vocab(model);
  std::vector<int> toks(prompt.size() + 8);
  int n = llama_tokenize(vocab, prompt.data(), prompt.size(), toks.data(), toks.size(), true, true);
  toks.resize(n);
  Recorder rec;
  rec.want_phase = decode_steps;
  llama_context_params cp = llama_context_default_params();
  cp.n_ctx = n + 80;
  cp.n_batch = n;
  cp.n_ubatch = 1;
  cp.n_threads = 2;
  cp.n_threads_batch = 2;
  cp.type_k = GGML_TYPE_F32;
  cp.type_v = GGML_TYPE_F32;
  cp.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;
  cp.cb_eval = Callback;
  cp.cb_eval_user_data = &rec;
  llama_context* ctx = llama_init_from_model(model, cp);
  // One token per graph (n_ubatch = 1): phase 0 records the last prompt token's graph.
  rec.phase = -1;
  if (n > 1) llama_decode(ctx, llama_batch_get_one(toks.data(), n - 1));
  rec.phase = 0;
  llama_decode(ctx, llama_batch_get_one(toks.data() + n - 1, 1));
  const int n_vocab = llama_vocab_n_tokens(vocab);
  for (int step = 1; step <= decode_steps; ++step) {
    const float* lg = llama_get_logits_ith(ctx, -1);
    int best = 0;
    for (int i = 1; i < n_vocab; ++i) best = lg[i] > lg[best] ? i : best;
    rec.phase = step;
    llama_decode(ctx, llama_batch_get_one(&best, 1));
  }
  absl::StatusOr<GgufFile> file = OpenGguf(tiny->path);
  absl::StatusOr<ModelConfig> config = ReadModelConfig(*file);
  std::printf("%s, %d prompt tokens, phase %d, %zu nodes recorded\n", preset.c_str(), n, decode_steps,
              rec.nodes.size());
  Replayer(rec, *file, *config).Run();
  llama_free(ctx);
  llama_model_free(model);
  return 0;
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) { return cpubrrr::Main(argc, argv); }
