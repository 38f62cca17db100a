// AVX2 Q5_K x Q8_K gemv and gemm: per block the integer sums the oracle defines, with
// vpmaddubsw on the unsigned 5-bit quants and vpmaddwd by each sub-block's scale, then the
// oracle's float step (compiled without contraction), so every result is its bits. The
// gemm of kQ5KAvx2LaneTileFrom tokens or more runs the lane tile (q5_k_gemm_avx2.cc). Built
// twice: the Avx2 functions and, with AVX-VNNI, the AvxVnni ones (vpdpwssd scales and adds
// at once).
#include "kernels/q5_k/q5_k_avx2.h"

#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/tiles/token_tiles.h"
#include "kernels/kquant/q4_k_scales.h"

namespace cpubrrr {
namespace {

using avx2::Load;
using avx2::SumInt32;

// A block's scales and mins and its 5-bit quants, unpacked once for every token it meets.
struct BlockParts {
  __m256i q[8];  // sub-block j's 32 quants (0..31) as bytes
  __m256i sc;    // the eight int16 scales in both halves, for avx2::SpreadInt16
  __m256i mins;  // min of sub-block j in int16 lanes 2j and 2j+1, the lanes of its two bsums
  float d, dmin;

  explicit BlockParts(const BlockQ5K& w) {
    const Q4KScalesMins sm = UnpackQ4KScales(w.scales);
    sc = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.sc))));
    const __m128i m8 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.m)));
    mins = _mm256_set_m128i(_mm_unpackhi_epi16(m8, m8), _mm_unpacklo_epi16(m8, m8));
    d = _cvtsh_ss(w.d);
    dmin = _cvtsh_ss(w.dmin);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    const __m256i bit4 = _mm256_set1_epi8(0x10);
    // qh byte i holds bit j of sub-block j's element i: shifted left by 4 it lands on bit 4
    // of its byte (the 16-bit shift keeps each byte's own bits, masked per byte), and each
    // later pair of sub-blocks reads it two bits further right.
    __m256i hbits = Load(w.qh);
    for (int p = 0; p < 4; ++p) {
      const __m256i bytes = Load(w.qs + 32 * p);
      const __m256i h_lo = _mm256_and_si256(_mm256_slli_epi16(hbits, 4), bit4);
      const __m256i h_hi = _mm256_and_si256(_mm256_slli_epi16(hbits, 3), bit4);
      q[2 * p] = _mm256_or_si256(_mm256_and_si256(bytes, low4), h_lo);
      q[2 * p + 1] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(bytes, 4), low4), h_hi);
      hbits = _mm256_srli_epi16(hbits, 2);
    }
  }
};

// The oracle's float step of block w with token block x: x.d * (d * isum - dmin * msum).
inline float BlockDot(const BlockParts& w, const BlockQ8K& x) {
  __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 8
  for (int j = 0; j < 8; ++j) {
    // Pairs of 5-bit * int8 products fit int16 (2 * 31 * 128); scaled pairs fit int32.
    const __m256i pairs = _mm256_maddubs_epi16(w.q[j], Load(x.qs + 32 * j));
    acc = avx2::AddPairProducts(acc, pairs, avx2::SpreadInt16(w.sc, j));
  }
  const int32_t msum = SumInt32(_mm256_madd_epi16(Load(x.bsums), w.mins));
  return x.d * (w.d * static_cast<float>(SumInt32(acc)) - w.dmin * static_cast<float>(msum));
}

// y[t * y_stride] = dot(row, x + t * x_stride) for t < T.
template <int T>
void RowTile(const BlockQ5K* row, const BlockQ8K* x, size_t x_stride, size_t n_blocks, float* y,
             size_t y_stride) {
  float sum[T] = {};
  for (size_t b = 0; b < n_blocks; ++b) {
    const BlockParts parts(row[b]);
    for (int t = 0; t < T; ++t) sum[t] += BlockDot(parts, x[t * x_stride + b]);
  }
  for (int t = 0; t < T; ++t) y[t * y_stride] = sum[t];
}

// RowTile<T>, as the token-tile loops call it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q5KGemv)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                      size_t n_blocks, float* y) {
  GemvByRows(w, row_stride, rows, x, n_blocks, y, kRowTile);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q5KGemm)(const BlockQ5K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                      size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= kQ5KAvx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Q5KLaneGemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  GemmByTokenTiles<kQ5KAvx2LaneTileFrom - 1>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride,
                                             kRowTile);
}

}  // namespace cpubrrr
