// The kernel report names each weight type with the variant its products run and the
// bytes it holds, a repacked copy as "_repacked", and the CPU features.
#include "models/common/kernel_report.h"

#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/few_tokens.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "kernels/q8_0/q8_0.h"
#include "kernels/q8_0/q8_0_repacked.h"

namespace cpubrrr {
namespace {

WeightMatrix Matrix(GgmlType type, int64_t rows, size_t row_bytes, const uint8_t* data) {
  WeightMatrix m;
  m.type = type;
  m.rows = rows;
  m.cols = 32;
  m.row_bytes = row_bytes;
  m.data = data;
  return m;
}

TEST(KernelReport, NamesEachTypesVariantBytesAndTheCpu) {
  const std::vector<uint8_t> bytes(3 << 20);
  ModelWeights w;
  w.layers.resize(2);
  for (LayerWeights& l : w.layers) l.wq = Matrix(GgmlType::kQ8_0, 1 << 15, 34, bytes.data());
  w.output = Matrix(GgmlType::kMXFP4, 1 << 16, 17, bytes.data());
  const bool repacks = BestMxfp4RepackedKernels() != nullptr;
  if (repacks) w.output.repacked = bytes.data();  // as if repacked (a copy exists only where a variant runs)
  const std::string report = KernelReport(w);
  EXPECT_NE(report.find(std::string("q8_0 ") + BestQ8_0Kernels().name + " 2.1 MiB"), std::string::npos) << report;
  const std::string mxfp4 =
      repacks ? std::string(BestMxfp4RepackedKernels()->name) + "_repacked" : std::string(BestMxfp4Kernels().name);
  EXPECT_NE(report.find("mxfp4 " + mxfp4 + " 1.1 MiB"), std::string::npos) << report;
  EXPECT_NE(report.find("; CPU: "), std::string::npos) << report;
  EXPECT_EQ(report.find("f32"), std::string::npos) << "matrices without data are left out: " << report;
  // The lane tile's switch point is named exactly when an AVX-512 MXFP4 gemm runs.
  const bool avx512 = mxfp4.rfind("avx512", 0) == 0;
  EXPECT_EQ(report.find("; gemm lane tile from " + std::to_string(Avx512LaneTileFrom()) + " tokens (" +
                        Avx512LaneTileChoice().why + ")") != std::string::npos,
            avx512)
      << report;
}

// A repacked Q8_0 matrix runs its gemv on the file's rows and its gemm on the copy; the
// report names both (a copy exists only where a repacked Q8_0 variant runs).
TEST(KernelReport, NamesQ8_0sGemvAndRepackedGemm) {
  const std::vector<uint8_t> bytes(1 << 20);
  ModelWeights w;
  w.output = Matrix(GgmlType::kQ8_0, 1 << 14, 34, bytes.data());
  const bool repacks = BestQ8_0RepackedKernels() != nullptr;
  if (repacks) w.output.repacked = bytes.data();
  const std::string report = KernelReport(w);
  const std::string gemm =
      repacks ? std::string(" (gemm ") + BestQ8_0RepackedKernels()->name + "_repacked)" : std::string();
  EXPECT_NE(report.find(std::string("q8_0 ") + BestQ8_0Kernels().name + gemm + " 544 KiB"), std::string::npos)
      << report;
}

}  // namespace
}  // namespace cpubrrr
