// AVX2 Q6_K x Q8_K gemv and gemm: per block the oracle's integer sum, with vpmaddubsw on
// the unsigned 6-bit quants (0..63), vpmaddwd by the sub-block scales, and the offset of
// 32 taken back through the activations' 16-element sums; then the oracle's float step
// (compiled without contraction), so every result is its bits. Built twice: the Avx2
// functions and, with AVX-VNNI, the AvxVnni ones (vpdpwssd scales and adds at once).
#include "kernels/q6_k/q6_k_avx2.h"

#include <immintrin.h>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/tiles/avx2_dot-inl.h"
#include "kernels/tiles/token_tiles.h"

namespace cpubrrr {
namespace {

using avx2::Load;
using avx2::SumInt32;

// The oracle's float step of block w with token block x: x.d * (d * isum).
inline float BlockDot(const BlockQ6K& w, const BlockQ8K& x) {
  const __m256i low4 = _mm256_set1_epi8(0x0F), two = _mm256_set1_epi8(0x03);
  // Scales as int16: sub-blocks 2k and 2k+1 fill the low and high halves of scale pair k.
  const __m256i scales16 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w.scales)));
  __m256i acc = _mm256_setzero_si256();
  for (int h = 0; h < 2; ++h) {
    const __m256i ql0 = Load(w.ql + 64 * h), ql1 = Load(w.ql + 64 * h + 32), qh = Load(w.qh + 32 * h);
    // Elements 128h + 32k + l for k = 0..3 (MODEL layout in quant/q6_k.h).
    const __m256i q[4] = {
        _mm256_or_si256(_mm256_and_si256(ql0, low4), _mm256_slli_epi16(_mm256_and_si256(qh, two), 4)),
        _mm256_or_si256(_mm256_and_si256(ql1, low4), _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 2), two), 4)),
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql0, 4), low4),
                        _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 4), two), 4)),
        _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(ql1, 4), low4),
                        _mm256_slli_epi16(_mm256_and_si256(_mm256_srli_epi16(qh, 6), two), 4)),
    };
    for (int k = 0; k < 4; ++k) {
      const int s = 8 * h + 2 * k;  // the first of the two sub-blocks these 32 elements hold
      // Pairs of quant * int8 products fit int16 (2 * 63 * 128).
      const __m256i pairs = _mm256_maddubs_epi16(q[k], Load(x.qs + 16 * s));
      const __m256i scale = _mm256_set_m128i(_mm_set1_epi16(w.scales[s + 1]), _mm_set1_epi16(w.scales[s]));
      acc = avx2::AddPairProducts(acc, pairs, scale);
    }
  }
  // isum = sum_s scale_s * (dot_s - 32 * bsum_s).
  const int32_t offset = SumInt32(_mm256_madd_epi16(Load(x.bsums), scales16));
  const int32_t isum = SumInt32(acc) - 32 * offset;
  return x.d * (avx2::HalfToFloat(w.d) * static_cast<float>(isum));
}

// y[t * y_stride] = dot(row, x + t * x_stride) for t < T.
template <int T>
void RowTile(const BlockQ6K* row, const BlockQ8K* x, size_t x_stride, size_t n_blocks, float* y,
             size_t y_stride) {
  float sum[T] = {};
  for (size_t b = 0; b < n_blocks; ++b) {
    for (int t = 0; t < T; ++t) sum[t] += BlockDot(row[b], x[t * x_stride + b]);
  }
  for (int t = 0; t < T; ++t) y[t * y_stride] = sum[t];
}

// RowTile<T>, as the token-tile loops call it.
constexpr auto kRowTile = [](auto tokens, auto... args) { RowTile<decltype(tokens)::value>(args...); };

}  // namespace

void CPUBRRR_AVX2_VARIANT_NAME(Q6KGemv)(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                       size_t n_blocks, float* y) {
  GemvByRows(w, row_stride, rows, x, n_blocks, y, kRowTile);
}

void CPUBRRR_AVX2_VARIANT_NAME(Q6KGemm)(const BlockQ6K* w, size_t row_stride, size_t rows, const BlockQ8K* x,
                                       size_t x_stride, size_t n_tokens, size_t n_blocks, float* y, size_t y_stride) {
  // Tiles of 4 tokens share each decoded weight block.
  GemmByTokenTiles<4>(w, row_stride, rows, x, x_stride, n_tokens, n_blocks, y, y_stride, kRowTile);
}

}  // namespace cpubrrr
