// aarch64 SME Q6_K x Q8_K gemm (gemv = the gemm on one token) on the K-quant ZA tile.
#include "kernels/q6_k/q6_k_sme.h"

#include "kernels/tiles/sme_kquant_tile.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// A weight w = scales_s * (q - 32) (|w| <= 4096) is not exact in fp16, so it is split into
// w & ~63 (a multiple of 64, |.| <= 4096) for S0 and w & 63 for S1, both against all 256
// quants: S0 + S1 = isum. S0's partial sums are multiples of 64 below 2^27, S1's below 2^21,
// all exact in fp32. No mins: no S2, dmin stays 0.
constexpr SmeKQuantShape kShape = {
    {kSmeQ8KQuantChunks, kSmeQ8KQuantChunks, 0}, {0, 0, 0}, kSmeQ8KQuantChunks};

// Returns quant e (0..63) of b: in half h = e / 128, quarter g, position l, the low nibble
// of ql[64h + l] (g = 0), ql[64h + 32 + l] (g = 1) or their high nibbles (g = 2, 3), and
// bits 2g, 2g + 1 of qh[32h + l] (quant/q6_k.h).
int Quant(const BlockQ6K& b, int e) {
  const int h = e / 128, g = e % 128 / 32, l = e % 32;
  const int low = (b.ql[64 * h + 32 * (g % 2) + l] >> (4 * (g / 2))) & 0xF;
  return low | ((b.qh[32 * h + l] >> (2 * g)) & 3) << 4;
}

// Packs block b into lane i: chunk c holds the high parts of elements 2c, 2c + 1, chunk
// 128 + c their low parts.
void PackBlock(const BlockQ6K& b, size_t i, size_t n, int16_t* q, float* d, float*) {
  const size_t step = SmeChunkInt16s(n);
  int16_t* high = q + 2 * i;
  int16_t* low = high + kSmeQ8KQuantChunks * step;
  for (int e = 0; e < kQ6KBlockSize; ++e) {
    const int w = b.scales[e / 16] * (Quant(b, e) - 32);
    high[e / 2 * step + e % 2] = static_cast<int16_t>(w & ~63);
    low[e / 2 * step + e % 2] = static_cast<int16_t>(w & 63);
  }
  d[i] = Fp16ToFp32(b.d);
}

}  // namespace

void Q6KGemmSme(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  SmeKQuantGemm(kShape, PackBlock, w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

void Q6KGemvSme(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  Q6KGemmSme(w, row_stride, rows, x, n_blocks, /*n_tokens=*/1, n_blocks, y, rows);
}

}  // namespace cpubrrr
