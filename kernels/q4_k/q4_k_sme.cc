// aarch64 SME Q4_K x Q8_K gemm (gemv = the gemm on one token) on the K-quant ZA tile.
#include "kernels/q4_k/q4_k_sme.h"

#include "kernels/tiles/sme_kquant_tile.h"
#include "kernels/kquant/q4_k_scales.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

// S0 = elements 0..127 of the block, S1 = 128..255 (each at most 128 * 945 * 128 < 2^24),
// S2 = the mins against the 16 bsums.
constexpr SmeKQuantShape kShape = {
    {kSmeQ8KQuantChunks / 2, kSmeQ8KQuantChunks / 2, kSmeQ8KBsumChunks},
    {0, kSmeQ8KQuantChunks / 2, kSmeQ8KQuantChunks},
    kSmeQ8KQuantChunks + kSmeQ8KBsumChunks};

// Packs block b into lane i: chunk c holds sc_j * q for elements 2c, 2c + 1 (sub-block
// j = c / 16; nibbles of qs[32 (j / 2) ..], low for even j), then chunk 128 + j holds
// (m_j, m_j) for bsums 2j, 2j + 1.
void PackBlock(const BlockQ4K& b, size_t i, size_t n, int16_t* q, float* d, float* dmin) {
  const size_t step = SmeChunkInt16s(n);
  const Q4KScalesMins u = UnpackQ4KScales(b.scales);
  for (int j = 0; j < 8; ++j) {
    const int16_t sc = static_cast<int16_t>((u.sc >> (8 * j)) & 0xFF);
    const int16_t m = static_cast<int16_t>((u.m >> (8 * j)) & 0xFF);
    const uint8_t* qs = b.qs + 32 * (j / 2);
    const int shift = 4 * (j % 2);
    for (int e = 0; e < 32; ++e) {
      q[(16 * j + e / 2) * step + 2 * i + e % 2] = static_cast<int16_t>(sc * ((qs[e] >> shift) & 0xF));
    }
    int16_t* mins = q + (kSmeQ8KQuantChunks + j) * step + 2 * i;
    mins[0] = mins[1] = m;
  }
  d[i] = Fp16ToFp32(b.d);
  dmin[i] = Fp16ToFp32(b.dmin);
}

}  // namespace

void Q4KGemmSme(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  SmeKQuantGemm(kShape, PackBlock, w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
}

void Q4KGemvSme(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                size_t n_blocks, float* y) {
  Q4KGemmSme(w, row_stride, rows, x, n_blocks, /*n_tokens=*/1, n_blocks, y, rows);
}

}  // namespace cpubrrr
