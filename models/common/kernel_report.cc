// Which kernels a loaded model runs on this CPU, and why (models/common/kernel_report.h).
#include "models/common/kernel_report.h"

#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "kernels/common/cpu_features.h"
#include "kernels/common/few_tokens.h"
#include "models/common/linear.h"
#include "quant/ggml_type.h"

namespace cpubrrr {

std::string KernelReport(const ModelWeights& w) {
  // Bytes per (type, variant), in type order.
  std::map<std::pair<int, std::string>, uint64_t> bytes;
  auto add = [&bytes](const WeightMatrix& m) {
    if (m.data != nullptr) bytes[{static_cast<int>(m.type), KernelVariant(m)}] += m.bytes();
  };
  for (const LayerWeights& l : w.layers) {
    for (const WeightMatrix* m : {&l.wq, &l.wk, &l.wv, &l.wo, &l.router, &l.gate_exps, &l.up_exps, &l.down_exps}) {
      add(*m);
    }
  }
  add(w.output);
  std::vector<std::string> parts;
  bool few_token_tiles = false;  // an AVX-512 gemm of MXFP4, Q4_K or Q6_K runs
  for (const auto& [key, n] : bytes) {
    const auto type = static_cast<GgmlType>(key.first);
    few_token_tiles |= key.second.rfind("avx512", 0) == 0 &&
                       (type == GgmlType::kMXFP4 || type == GgmlType::kQ4_K || type == GgmlType::kQ6_K);
    const std::string size = n >= (uint64_t{1} << 30)   ? absl::StrFormat("%.2f GiB", n / double(uint64_t{1} << 30))
                             : n >= (uint64_t{1} << 20) ? absl::StrFormat("%.1f MiB", n / double(uint64_t{1} << 20))
                             : n >= 1024                ? absl::StrFormat("%.0f KiB", n / 1024.0)
                                                        : absl::StrFormat("%u B", static_cast<unsigned>(n));
    parts.push_back(absl::StrCat(TypeName(static_cast<GgmlType>(key.first)), " ", key.second, " ", size));
  }
  std::string cpu = CpuFeatureNames(DetectCpuFeatures());
  if (const char* mask = std::getenv("CPUBRRR_CPU_MASK")) cpu += absl::StrFormat(" (CPUBRRR_CPU_MASK=%s)", mask);
  const std::string lane_tile =
      few_token_tiles ? absl::StrFormat("; gemm lane tile from %u tokens (%s)", Avx512LaneTileFrom(),
                                        Avx512LaneTileChoice().why)
                      : "";
  return absl::StrCat(absl::StrJoin(parts, ", "), "; CPU: ", cpu.empty() ? "no SIMD features" : cpu,
                      lane_tile);
}

}  // namespace cpubrrr
