// What the order of expert reads costs: one thread runs the routed experts' gemvs of every
// layer (gate, up, down per expert, as decode does) with k random experts per layer and
// token, and again with the same k experts every token, and prints GB/s of each next to
// the read yardstick. On the 2-vCPU VMs of docs/RESEARCH_LOG.md random experts read
// slower than a fixed set: the hypervisor re-validates every page periodically, and the
// first read of a page after that is slow.
//   bazel run -c opt //models:expert_access_bench -- MODEL.gguf [tokens=16] [rounds=3]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/common/read_bandwidth.h"
#include "models/common/activation_batch.h"
#include "models/common/linear.h"
#include "models/common/model_config.h"
#include "models/common/moe_weights.h"
#include "models/gpt_oss/gpt_oss_weights.h"
#include "models/qwen3moe/qwen3moe_weights.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {
namespace {

// Runs every layer's gate, up and down gemvs of experts[token][layer] (k each) and
// returns the bytes read per second.
double ExpertReadGBs(const ModelWeights& w, const std::vector<std::vector<std::vector<int>>>& experts) {
  const LayerWeights& l0 = w.layers[0];
  const int64_t d = l0.gate_exps.cols, ff = l0.gate_exps.rows;
  ActivationBatch x(1, d, true, true), h(1, ff, true, true);
  for (ActFormat f : {ActFormat::kQ8_0, ActFormat::kQ8K}) {
    x.Quantize(0, {0, static_cast<size_t>(d)}, f);
    h.Quantize(0, {0, static_cast<size_t>(ff)}, f);
  }
  std::vector<float> y(std::max(d, ff));
  MatMulScratch scratch;
  const int32_t zero = 0;
  double bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& token : experts) {
    for (size_t il = 0; il < w.layers.size(); ++il) {
      const LayerWeights& l = w.layers[il];
      for (int e : token[il]) {
        for (const auto* m : {&l.gate_exps, &l.up_exps}) {
          MatMulRows(*m, e, {0, static_cast<size_t>(ff)}, x, {&zero, 1}, {&zero, 1}, y.data(), 0, scratch);
        }
        MatMulRows(l.down_exps, e, {0, static_cast<size_t>(d)}, h, {&zero, 1}, {&zero, 1}, y.data(), 0, scratch);
        bytes += static_cast<double>(l.gate_exps.bytes() + l.up_exps.bytes() + l.down_exps.bytes()) / l.gate_exps.n_mat;
      }
    }
  }
  return bytes / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / 1e9;
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: expert_access_bench MODEL.gguf [tokens=16] [rounds=3]\n");
    return 2;
  }
  const int tokens = argc > 2 ? std::atoi(argv[2]) : 16;
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 3;
  absl::StatusOr<GgufFile> file = OpenGguf(argv[1]);
  absl::StatusOr<ModelConfig> config = file.ok() ? ReadModelConfig(*file) : file.status();
  absl::StatusOr<ModelWeights> weights =
      !config.ok() ? config.status()
      : config->arch == ModelArch::kGptOss ? BindGptOssWeights(*file, *config)
                                           : BindQwen3MoeWeights(*file, *config);
  if (!weights.ok()) {
    std::fprintf(stderr, "%s\n", std::string(weights.status().message()).c_str());
    return 1;
  }
  const int n_layer = static_cast<int>(weights->layers.size());
  const int n_expert = static_cast<int>(config->n_expert), k = static_cast<int>(config->n_expert_used);
  // random[t][l]: k distinct random experts; fixed: token 0's choice every token.
  std::mt19937 rng(1);
  std::vector<std::vector<std::vector<int>>> random(tokens, std::vector<std::vector<int>>(n_layer));
  for (auto& token : random) {
    for (auto& layer : token) {
      std::vector<int> all(n_expert);
      for (int e = 0; e < n_expert; ++e) all[e] = e;
      std::shuffle(all.begin(), all.end(), rng);
      layer.assign(all.begin(), all.begin() + k);
    }
  }
  const std::vector<std::vector<std::vector<int>>> fixed(tokens, random[0]);
  ExpertReadGBs(*weights, random);  // warm-up: pages the experts in
  for (int r = 0; r < rounds; ++r) {
    const double yardstick = MeasureReadBandwidthGBs(size_t{1} << 30, 3);
    const double rnd = ExpertReadGBs(*weights, random), fix = ExpertReadGBs(*weights, fixed);
    std::printf("round %d: yardstick %.1f GB/s; random experts %.1f GB/s (%.0f%%), fixed experts %.1f GB/s (%.0f%%)\n",
                r + 1, yardstick, rnd, 100 * rnd / yardstick, fix, 100 * fix / yardstick);
  }
  return 0;
}

}  // namespace
}  // namespace cpubrrr

int main(int argc, char** argv) { return cpubrrr::Main(argc, argv); }
