// RepackWeights copies as many matrices as the memory allows, MXFP4 and Q6_K before Q4_K,
// Q8_0 but for experts, each copy its own matrix repacked, and leaves the others on the
// file's layout; on a CPU without AVX2 it copies nothing.
#include "models/common/repacked_weights.h"

#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/q8_0/q8_0_repacked.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "quant/q4_k.h"
#include "quant/q6_k.h"
#include "quant/q8_0.h"

namespace cpubrrr {
namespace {

constexpr int64_t kRows = 8, kCols = 512;  // two groups of two superblocks
constexpr uint64_t kSpare = uint64_t{1} << 30;
const uint64_t kQ4KBytes = Q4KRepackedShape{kRows, kCols / kQ4KBlockSize}.Bytes();
const uint64_t kQ6KBytes = Q6KRepackedShape{kRows, kCols / kQ6KBlockSize}.Bytes();

// A layer with a Q4_K q projection, two Q4_K gate experts and two Q6_K down experts, and a
// Q6_K output head, over random bytes.
class RepackWeightsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(7);
    auto matrix = [&](GgmlType type, size_t block_bytes, int64_t n_mat) {
      WeightMatrix m;
      m.type = type;
      m.rows = kRows;
      m.cols = kCols;
      m.n_mat = n_mat;
      m.row_bytes = kCols / 256 * block_bytes;
      std::vector<uint8_t>& bytes = storage_.emplace_back(m.bytes());
      for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
      m.data = bytes.data();
      return m;
    };
    w_.layers.resize(1);
    w_.layers[0].wq = matrix(GgmlType::kQ4_K, sizeof(BlockQ4K), 1);
    w_.layers[0].gate_exps = matrix(GgmlType::kQ4_K, sizeof(BlockQ4K), 2);
    w_.layers[0].down_exps = matrix(GgmlType::kQ6_K, sizeof(BlockQ6K), 2);
    w_.output = matrix(GgmlType::kQ6_K, sizeof(BlockQ6K), 1);
  }

  // Repacks with `available` bytes and returns which of wq, gate, down, output have a copy
  // (checking each copy against its own repack) and the bytes copied.
  std::vector<bool> Repacked(uint64_t available, uint64_t* bytes) {
    WorkerPool pool(2);
    copies_ = RepackWeights(w_, pool, available);
    *bytes = copies_.bytes;
    std::vector<bool> out;
    for (const WeightMatrix* m : {&w_.layers[0].wq, &w_.layers[0].gate_exps,
                                  &w_.layers[0].down_exps, &w_.output}) {
      out.push_back(m->repacked != nullptr);
      if (m->repacked == nullptr) continue;
      for (int64_t e = 0; e < m->n_mat; ++e) {
        std::vector<uint8_t> want(m->repacked_bytes);
        if (m->type == GgmlType::kQ4_K) {
          RepackQ4K(reinterpret_cast<const BlockQ4K*>(m->Row(e, 0)), kCols / 256, kRows, kCols / 256, want.data());
        } else {
          RepackQ6K(reinterpret_cast<const BlockQ6K*>(m->Row(e, 0)), kCols / 256, kRows, kCols / 256, want.data());
        }
        EXPECT_EQ(std::memcmp(m->repacked + e * m->repacked_bytes, want.data(), want.size()), 0)
            << "expert " << e;
      }
    }
    return out;
  }

  // From the CPU's features rather than the code under test: every x86-64 CPU with AVX2
  // (and only those) runs repacked Q4_K and Q6_K kernels.
  const bool repacks_ = HasFeatures(DetectCpuFeatures(), kCpuAvx2);
  std::vector<std::vector<uint8_t>> storage_;
  ModelWeights w_;
  RepackedWeights copies_;
};

TEST_F(RepackWeightsTest, CopiesEverythingThatFits) {
  uint64_t bytes = 0;
  const std::vector<bool> got = Repacked(kSpare + (uint64_t{1} << 20), &bytes);
  EXPECT_EQ(got, std::vector<bool>(4, repacks_));
  EXPECT_EQ(bytes, repacks_ ? 3 * kQ4KBytes + 3 * kQ6KBytes : 0);
}

TEST_F(RepackWeightsTest, Q6KBeforeQ4KThenWhatStillFits) {
  uint64_t bytes = 0;
  // Room for the Q6_K copies only.
  EXPECT_EQ(Repacked(kSpare + 3 * kQ6KBytes + kQ4KBytes - 1, &bytes),
            (std::vector<bool>{false, false, repacks_, repacks_}));
  EXPECT_EQ(bytes, repacks_ ? 3 * kQ6KBytes : 0);
}

TEST_F(RepackWeightsTest, SkipsWhatDoesNotFitForASmallerOneAfterIt) {
  uint64_t bytes = 0;
  // The Q6_K copies and wq, not the two gate experts.
  EXPECT_EQ(Repacked(kSpare + 3 * kQ6KBytes + 2 * kQ4KBytes, &bytes),
            (std::vector<bool>{repacks_, false, repacks_, repacks_}));
  EXPECT_EQ(bytes, repacks_ ? 3 * kQ6KBytes + kQ4KBytes : 0);
}

// Q8_0 attention and output head get a copy (for their gemm) where a repacked Q8_0
// variant runs; Q8_0 experts never do (their gemv reads the file's rows, and a copy would
// double the model).
TEST(RepackWeights, Q8_0AttentionAndHeadButNotExperts) {
  std::vector<uint8_t> bytes(kRows * kCols / 32 * sizeof(BlockQ8_0) * 2, 0);
  auto matrix = [&](int64_t n_mat) {
    WeightMatrix m;
    m.type = GgmlType::kQ8_0;
    m.rows = kRows;
    m.cols = kCols;
    m.n_mat = n_mat;
    m.row_bytes = kCols / 32 * sizeof(BlockQ8_0);
    m.data = bytes.data();
    return m;
  };
  ModelWeights w;
  w.layers.resize(1);
  w.layers[0].wq = matrix(1);
  w.layers[0].up_exps = matrix(2);
  w.output = matrix(1);
  WorkerPool pool(2);
  const RepackedWeights copies = RepackWeights(w, pool, kSpare + (uint64_t{1} << 20));
  const bool repacks = BestQ8_0RepackedKernels() != nullptr;
  EXPECT_EQ(w.layers[0].wq.repacked != nullptr, repacks);
  EXPECT_EQ(w.output.repacked != nullptr, repacks);
  EXPECT_EQ(w.layers[0].up_exps.repacked, nullptr);
  const uint64_t copy_bytes = Q8_0RepackedShape{kRows, kCols / 32}.Bytes();
  EXPECT_EQ(copies.bytes, repacks ? 2 * copy_bytes : 0);
}

TEST_F(RepackWeightsTest, NothingWithoutTheSpareGibibyte) {
  uint64_t bytes = 0;
  EXPECT_EQ(Repacked(kSpare, &bytes), std::vector<bool>(4, false));
  EXPECT_EQ(bytes, 0u);
}

}  // namespace
}  // namespace cpubrrr
