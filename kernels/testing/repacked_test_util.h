// Test fixture of the repacked kernels (kernels/mxfp4, kernels/q8_0, kernels/q4_k, kernels/q6_k):
// each against a GGUF-layout kernel of its format, bit for bit, over whole matrices and
// group ranges.
#ifndef CPUBRRR_KERNELS_TESTING_REPACKED_TEST_UTIL_H_
#define CPUBRRR_KERNELS_TESTING_REPACKED_TEST_UTIL_H_

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/common/cpu_features.h"
#include "kernels/testing/dot_test_util.h"
#include "kernels/common/repacked_layout.h"
#include "kernels/testing/variant_test_util.h"
#include "quant/q8_0.h"
#include "quant/test_util.h"

namespace cpubrrr::testing {

// Returns n_blocks Q8_0 activation blocks with random quants (-127..127) and random fp16
// scales of every finite magnitude and both signs, subnormals included.
inline std::vector<BlockQ8_0> RandomActivations(size_t n_blocks, std::mt19937& rng) {
  std::uniform_int_distribution<int> d_bits(0, 0x7BFF), sign(0, 1);
  std::vector<BlockQ8_0> x = RandomQ8_0Blocks(n_blocks, 0, rng);
  for (BlockQ8_0& b : x) b.d = static_cast<uint16_t>(d_bits(rng) | (sign(rng) << 15));
  return x;
}

// `Format` provides Block, Activation (the activation block), Shape (a RepackedShape),
// Repack, the repacked Gemv and Gemm (if it has one), kName and kRequired (the variant's
// name and the CpuFeature bits it needs; the test skips without them), and GemvFn / GemmFn:
// the GGUF-layout kernel types they are compared with.
template <typename Format>
class RepackedKernelTest : public ::testing::Test {
 protected:
  using Block = typename Format::Block;
  using Shape = typename Format::Shape;
  using Activation = typename Format::Activation;

  void SetUp() override {
    struct {
      const char* name;
      uint32_t required;
    } const kernels = {Format::kName, Format::kRequired};
    SkipUnlessCpuRuns(kernels);
  }

  // Returns w (rows of n_blocks blocks, row_stride apart) repacked into 64-byte aligned
  // storage owned by the fixture (valid until the next call).
  const uint8_t* Repack(const std::vector<Block>& w, size_t row_stride, const Shape& shape) {
    storage_.assign(shape.Bytes() + 64, 0);
    uint8_t* packed = storage_.data() + (64 - reinterpret_cast<uintptr_t>(storage_.data()) % 64) % 64;
    Format::Repack(w.data(), row_stride, shape.rows, shape.n_blocks, packed);
    return packed;
  }

  // The repacked gemv against `want_fn` on x, over the whole matrix and over each group
  // alone (group_begin > 0 included); nothing may be written past the rows.
  void CompareGemv(const std::vector<Block>& w, size_t row_stride, const Shape& shape,
                   const Activation* x, typename Format::GemvFn want_fn) {
    const uint8_t* packed = Repack(w, row_stride, shape);
    const size_t rows = shape.rows;
    std::vector<float> want(rows), got(shape.Groups() * Shape::kGroupRows + 1, kCanary);
    want_fn(w.data(), row_stride, rows, x, shape.n_blocks, want.data());
    Format::Gemv(packed, shape, 0, shape.Groups(), x, got.data());
    const std::string where = "rows " + std::to_string(rows) + ", n_blocks " + std::to_string(shape.n_blocks);
    ASSERT_EQ(FloatBitsDiff(got.data(), want.data(), rows), "") << where;
    for (size_t r = rows; r < got.size(); ++r) ASSERT_EQ(got[r], kCanary) << "wrote past rows; " << where;
    for (size_t g = 0; g < shape.Groups(); ++g) {
      std::vector<float> one(Shape::kGroupRows, kCanary);
      Format::Gemv(packed, shape, g, 1, x, one.data());
      for (size_t i = 0; i < Shape::kGroupRows && g * Shape::kGroupRows + i < rows; ++i) {
        ASSERT_EQ(FloatBitsDiff(&one[i], &want[g * Shape::kGroupRows + i], 1), "") << "group " << g << "; " << where;
      }
    }
  }

  // The repacked gemm against `want_fn` (x: n_tokens tokens x_stride blocks apart), from
  // group 0 and from the last group, with a result row stride wider than the rows.
  void CompareGemm(const std::vector<Block>& w, const Shape& shape, const Activation* x,
                   size_t x_stride, size_t n_tokens, typename Format::GemmFn want_fn) {
    const uint8_t* packed = Repack(w, shape.n_blocks, shape);
    const size_t n_blocks = shape.n_blocks;
    for (size_t g0 : {size_t{0}, shape.Groups() - 1}) {
      const size_t first = g0 * Shape::kGroupRows, n_rows = shape.rows - first;
      const size_t y_stride = shape.Groups() * Shape::kGroupRows + 3;
      std::vector<float> want(n_tokens * y_stride, kCanary), got(want);
      want_fn(w.data() + first * n_blocks, n_blocks, n_rows, x, x_stride, n_tokens, n_blocks,
              want.data(), y_stride);
      Format::Gemm(packed, shape, g0, shape.Groups() - g0, x, x_stride, n_tokens, got.data(), y_stride);
      ASSERT_EQ(FloatBitsDiff(got.data(), want.data(), got.size()), "")
          << "rows " << shape.rows << ", n_blocks " << n_blocks << ", n_tokens " << n_tokens
          << ", from group " << g0;
    }
  }

 private:
  static constexpr float kCanary = -1234.5f;
  std::vector<uint8_t> storage_;
};

// Checks a format's table of repacked variants against the expected names in order, each
// naming as its twin a GGUF-layout variant of `gguf`; and, where one runs (`best`), that its
// twin is the GGUF variant this CPU picks (`gguf_best`): the models fall back to the GGUF
// rows for row ranges off the groups and promise the same bits.
template <class Repacked, class Gguf>
void CheckRepackedRegistry(std::span<const Repacked> all, const Repacked* best, std::span<const Gguf> gguf,
                           const Gguf& gguf_best, const std::vector<std::string>& names) {
  ASSERT_EQ(all.size(), names.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].name, names[i]);
    bool found = false;
    for (const Gguf& twin : gguf) found |= std::string(twin.name) == all[i].same_bits_as;
    EXPECT_TRUE(found) << all[i].name << " names no GGUF variant: " << all[i].same_bits_as;
  }
  if (best != nullptr) EXPECT_STREQ(best->same_bits_as, gguf_best.name);
}

}  // namespace cpubrrr::testing

#endif  // CPUBRRR_KERNELS_TESTING_REPACKED_TEST_UTIL_H_
