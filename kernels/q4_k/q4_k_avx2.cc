// AVX2 Q4_K x Q8_K gemv and gemm: per block the integer sums the oracle defines, with
// vpmaddubsw on the unsigned nibbles and vpmaddwd by each sub-block's scale, then the
// oracle's float step (compiled without contraction), so every result is its bits. The
// gemm of kQ4KAvx2LaneTileFrom tokens or more runs the lane tile (q4_k_gemm_avx2.cc). Built
// twice: the Avx2 functions and, with AVX-VNNI, the AvxVnni ones (vpdpwssd scales and adds
// at once).
#include "kernels/q4_k/q4_k_avx2.h"

#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/tiles/token_tiles.h"
#include "kernels/kquant/q4_k_scales.h"

namespace cpubrrr {
namespace {

using avx2::Load;
using avx2::SumInt32;

// A block's scales and mins, unpacked once for every token it meets.
struct BlockScales {
  __m256i sc;    // the eight int16 scales in both halves, for avx2::SpreadInt16
  __m256i mins;  // min of sub-block j in int16 lanes 2j and 2j+1, the lanes of its two bsums
  float d, dmin;

  explicit BlockScales(const BlockQ4K& w) {
    const Q4KScalesMins sm = UnpackQ4KScales(w.scales);
    sc = _mm256_broadcastsi128_si256(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.sc))));
    const __m128i m8 = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<int64_t>(sm.m)));
    mins = _mm256_set_m128i(_mm_unpackhi_epi16(m8, m8), _mm_unpacklo_epi16(m8, m8));
    d = _cvtsh_ss(w.d);
    dmin = _cvtsh_ss(w.dmin);
  }
};

// The oracle's float step of block w with token block x: x.d * (d * isum - dmin * msum).
inline float BlockDot(const BlockQ4K& w, const BlockScales& s, const BlockQ8K& x) {
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  __m256i acc = _mm256_setzero_si256();
#pragma GCC unroll 4
  for (int p = 0; p < 4; ++p) {
    const __m256i bytes = Load(w.qs + 32 * p);
    // Pairs of nibble * int8 products fit int16 (2 * 15 * 128); scaled pairs fit int32.
    const __m256i lo = _mm256_maddubs_epi16(_mm256_and_si256(bytes, low4), Load(x.qs + 64 * p));
    const __m256i hi = _mm256_maddubs_epi16(_mm256_and_si256(_mm256_srli_epi16(bytes, 4), low4), Load(x.qs + 64 * p + 32));
    acc = avx2::AddPairProducts(acc, lo, avx2::SpreadInt16(s.sc, 2 * p));
    acc = avx2::AddPairProducts(acc, hi, avx2::SpreadInt16(s.sc, 2 * p + 1));
  }
  const int32_t msum = SumInt32(_mm256_madd_epi16(Load(x.bsums), s.mins));
  return x.d * (s.d * static_cast<float>(SumInt32(acc)) - s.dmin * static_cast<float>(msum));
}

// y[t * y_stride] = dot(row, x + t * x_stride) for t < T.
template <int T>
void RowTile(const BlockQ4K* row, const BlockQ8K* x, size_t x_stride, size_t n_blocks, float* y,
             size_t y_stride) {
  float sum[T] = {};
  for (size_t b = 0; b < n_blocks; ++b) {
    const BlockScales scales(row[b]);
    for (int t = 0; t < T; ++t) sum[t] += BlockDot(row[b], scales, x[t * x_stride + b]);
  }
  for (int t = 0; t < T; ++t) y[t * y_stride] = sum[t];
}

// RowTile<1>, as the gemv's row loop calls it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q4KGemv)(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                      size_t n_blocks, float* y) {
  GemvByRows(w, row_stride, rows, x, n_blocks, y, kRowTile);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q4KGemm)(const BlockQ4K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                      size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  if (n_tokens >= kQ4KAvx2LaneTileFrom) {
    CPUBRRR_AVX2_VARIANT_NAME(Q4KLaneGemm)(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride);
    return;
  }
  WithCount<kQ4KAvx2LaneTileFrom - 1>(n_tokens, [&](auto tokens) {
    for (size_t r = 0; r < rows; ++r) {
      RowTile<decltype(tokens)::value>(w + r * row_stride, x, x_stride, n_blocks, y + r, y_stride);
    }
  });
}

}  // namespace cpubrrr
