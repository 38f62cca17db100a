// AVX2 gemm with one weight row per int32 lane, for 32-value block formats against Q8_0
// activations, in the scalar oracle's float order; formats supply a block decoder. Its
// transpose, broadcasts, stores, token tiles and repacked panels also serve the K-quant
// AVX2 lane tiles (kernels/q4_k, kernels/q6_k). Include from a translation unit compiled with AVX2, FMA, F16C and -ffp-contract=off
// (the oracle's multiplies and adds are separate roundings).
//
// Eight rows share a register: lane i holds four weight bytes of row i, so one vpmaddubsw
// with the matching four activation bytes broadcast advances eight rows' dots. Small
// weights enter as unsigned bytes (value plus the format's offset, at most kMaxUnsigned),
// so the int16 sums of four vpmaddubsw (eight products) cannot saturate, and vpmaddwd
// widens each half block to int32. Full-range signed weights (Q8_0) enter as they are:
// vpmaddubsw takes |w| and the activations with w's sign, and each product pair widens at
// once (two pairs could saturate). The float step runs once per block for eight rows:
// sum += (d_w * d_x) * isum, block by block, as the oracles do, so every result equals the
// oracle's bit for bit, whatever the tile. Each 8-row panel is decoded once per call into
// a scratch buffer and then meets every token in tiles of up to four.
#ifndef CPUBRRR_KERNELS_TILES_LANE_TILE_AVX2_INL_H_
#define CPUBRRR_KERNELS_TILES_LANE_TILE_AVX2_INL_H_

#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernels/common/avx2_variant_name.h"
#include "kernels/common/repacked_layout.h"
#include "kernels/tiles/token_tiles.h"
#include "kernels/tiles/q8_0_token_pack.h"
#include "quant/q8_0.h"

// Compiled with AVX-VNNI (-mavxvnni) the tiles take vpdpbusd instead (the same integer
// sums, so the same bits); the functions then live in their own inline namespace, so the
// two builds of this header never share a symbol.

namespace cpubrrr::lane_tile_avx2 {
inline namespace CPUBRRR_AVX2_VARIANT_NAMESPACE {

constexpr int kPanelRows = 8;  // rows per register
constexpr int kTokenTile = 4;  // tokens per register tile

// The largest unsigned weight byte a decoder may write: eight products of at most
// kMaxUnsigned * 127 (or * 128) each stay below 32768 in an int16 lane.
constexpr int kMaxUnsigned = 31;

// One block of eight rows ready for vpmaddubsw: q[k] holds in lane i the values
// 4k .. 4k + 3 of row i as unsigned bytes (value plus the format's offset); d holds each
// lane's weight scale d_w.
struct alignas(32) LaneBlock {
  __m256i q[8];
  __m256 d;
};

// out[d] lane i = in[i] dword d, for eight vectors of eight dwords.
__attribute__((always_inline)) inline void Transpose8(const __m256i in[8], __m256i out[8]) {
  __m256i a[8], b[8];
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    a[2 * j] = _mm256_unpacklo_epi32(in[2 * j], in[2 * j + 1]);
    a[2 * j + 1] = _mm256_unpackhi_epi32(in[2 * j], in[2 * j + 1]);
  }
  // b[4q + c], 128-bit lane L: dword 4L + c of in[4q] .. in[4q + 3].
#pragma GCC unroll 2
  for (int q = 0; q < 2; ++q) {
    b[4 * q] = _mm256_unpacklo_epi64(a[4 * q], a[4 * q + 2]);
    b[4 * q + 1] = _mm256_unpackhi_epi64(a[4 * q], a[4 * q + 2]);
    b[4 * q + 2] = _mm256_unpacklo_epi64(a[4 * q + 1], a[4 * q + 3]);
    b[4 * q + 3] = _mm256_unpackhi_epi64(a[4 * q + 1], a[4 * q + 3]);
  }
#pragma GCC unroll 4
  for (int c = 0; c < 4; ++c) {
    out[c] = _mm256_permute2x128_si256(b[c], b[4 + c], 0x20);
    out[4 + c] = _mm256_permute2x128_si256(b[c], b[4 + c], 0x31);
  }
}

// One token's activations as the tile reads them (the weights enter plus the format's offset).
using TokenView = Q8_0TokenView;

// Returns the four bytes at p in every lane.
__attribute__((always_inline)) inline __m256i BroadcastBytes4(const void* p) {
  int32_t four;
  std::memcpy(&four, p, 4);
  return _mm256_set1_epi32(four);
}

// Returns the four activation bytes 4k .. 4k + 3 of block b in every lane.
__attribute__((always_inline)) inline __m256i Broadcast4(const TokenView& token, size_t b, int k) {
  return BroadcastBytes4(token.q + 32 * b + 4 * k);
}

// Writes lanes 0 .. n_rows - 1 of acc[t] to y + t * y_stride for each of T tokens.
template <int T>
__attribute__((always_inline)) inline void StoreRows(const __m256 (&acc)[T], float* y, size_t y_stride, int n_rows) {
  const __m256i valid = _mm256_cmpgt_epi32(_mm256_set1_epi32(n_rows), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) _mm256_maskstore_ps(y + t * y_stride, valid, acc[t]);
}

// Calls tile(count, t0) for the token tiles [t0, t0 + count) of n_tokens tokens, count a
// std::integral_constant of 1 .. kTokenTile.
template <class Tile>
void ForTokenTiles(size_t n_tokens, Tile tile) {
  for (size_t t0 = 0; t0 < n_tokens; t0 += kTokenTile) {
    WithCount<kTokenTile>(std::min(n_tokens - t0, size_t{kTokenTile}), [&](auto count) { tile(count, t0); });
  }
}

// The 8-row panels of a matrix in the file's layout: `rows` rows of Blocks, row_stride
// blocks apart.
template <class Block>
struct RowPanels {
  const Block* w;
  size_t row_stride, rows;

  size_t Count() const { return (rows + kPanelRows - 1) / kPanelRows; }
  // Row i of panel p; rows past the matrix repeat the panel's first (their lanes are never
  // stored).
  const Block* Row(size_t p, int i) const {
    const size_t r = p * kPanelRows + i;
    return w + (r < rows ? r : p * kPanelRows) * row_stride;
  }
  // The rows of panel p below the matrix's end.
  int Rows(size_t p) const { return static_cast<int>(std::min<size_t>(kPanelRows, rows - p * kPanelRows)); }
};

// The 8-row panels of a repacked matrix (kernels/common/repacked_layout.h) over its groups
// [begin, end): panel p holds groups begin + 2p and, when inside the range, begin + 2p + 1.
struct GroupPanels {
  static constexpr size_t kGroups = kPanelRows / kRepackedRows;
  size_t begin, end, rows;  // rows: the matrix's

  size_t Count() const { return (end - begin + kGroups - 1) / kGroups; }
  // Group g (0 or 1) of panel p; a second group past the range repeats the first (its
  // lanes are never stored).
  size_t Group(size_t p, size_t g) const {
    const size_t first = begin + kGroups * p;
    return first + g < end ? first + g : first;
  }
  bool HasNext(size_t p) const { return begin + kGroups * (p + 1) < end; }
  // The rows of panel p below both the range and the matrix.
  int Rows(size_t p) const {
    const size_t first = begin + kGroups * p;
    return static_cast<int>(
        std::min({size_t{kPanelRows}, rows - kRepackedRows * first, (end - first) * kRepackedRows}));
  }
};

// Writes y[t * y_stride + r] for T tokens and the first n_rows rows of a decoded panel
// (block b at blocks[b]).
template <int T>
void PanelTile(const LaneBlock* blocks, size_t n_blocks, const TokenView* tokens, float* y,
               size_t y_stride, int n_rows) {
  [[maybe_unused]] const __m256i ones = _mm256_set1_epi16(1);
  __m256 acc[T];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const LaneBlock& block = blocks[b];
    const __m256 dw = _mm256_load_ps(reinterpret_cast<const float*>(&block.d));
    // Token by token, so the weight vectors come from L1 again for each token rather than
    // holding registers that T accumulators and T partial sums also need.
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      __m256i dot = _mm256_set1_epi32(tokens[t].seed[b]);
#if defined(__AVXVNNI__)
#pragma GCC unroll 8
      for (int k = 0; k < 8; ++k) {
        dot = _mm256_dpbusd_avx_epi32(dot, _mm256_load_si256(&block.q[k]), Broadcast4(tokens[t], b, k));
      }
#else
#pragma GCC unroll 2
      for (int h = 0; h < 2; ++h) {
        // Values 16h .. 16h + 15: four vpmaddubsw summed in int16, then widened.
        __m256i pairs = _mm256_maddubs_epi16(_mm256_load_si256(&block.q[4 * h]), Broadcast4(tokens[t], b, 4 * h));
#pragma GCC unroll 3
        for (int k = 1; k < 4; ++k) {
          pairs = _mm256_add_epi16(
              pairs, _mm256_maddubs_epi16(_mm256_load_si256(&block.q[4 * h + k]), Broadcast4(tokens[t], b, 4 * h + k)));
        }
        dot = _mm256_add_epi32(dot, _mm256_madd_epi16(pairs, ones));
      }
#endif
      const __m256 dx = _mm256_set1_ps(tokens[t].d[b]);
      acc[t] = _mm256_add_ps(acc[t], _mm256_mul_ps(_mm256_mul_ps(dw, dx), _mm256_cvtepi32_ps(dot)));
    }
  }
  StoreRows<T>(acc, y, y_stride, n_rows);
}

// The offset a signed tile's tokens are packed with: AVX-VNNI flips the weights' sign bit
// (w + 128 as an unsigned byte) and takes 128 times the activations' sum back off.
#if defined(__AVXVNNI__)
constexpr int32_t kSignedPackOffset = 128;
#else
constexpr int32_t kSignedPackOffset = 0;
#endif

// As PanelTile, for LaneBlocks holding signed weight bytes of any value (-128 included)
// and tokens packed with kSignedPackOffset. Four vector steps per four bytes and token
// (vpsignb, vpmaddubsw, vpmaddwd, vpaddd; |w| taken once per token tile), or with AVX-VNNI
// one vpdpbusd (the sign flip taken once per token tile).
template <int T>
void SignedPanelTile(const LaneBlock* blocks, size_t n_blocks, const TokenView* tokens, float* y,
                     size_t y_stride, int n_rows) {
  [[maybe_unused]] const __m256i ones = _mm256_set1_epi16(1);
  __m256 acc[T];
#pragma GCC unroll 4
  for (int t = 0; t < T; ++t) acc[t] = _mm256_setzero_ps();
  for (size_t b = 0; b < n_blocks; ++b) {
    const LaneBlock& block = blocks[b];
    __m256i dot[T];
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) dot[t] = _mm256_set1_epi32(tokens[t].seed[b]);
#pragma GCC unroll 8
    for (int k = 0; k < 8; ++k) {
      const __m256i w = _mm256_load_si256(&block.q[k]);
#if defined(__AVXVNNI__)
      const __m256i w_plus_128 = _mm256_xor_si256(w, _mm256_set1_epi8(static_cast<char>(0x80)));
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) dot[t] = _mm256_dpbusd_avx_epi32(dot[t], w_plus_128, Broadcast4(tokens[t], b, k));
#else
      const __m256i magnitude = _mm256_sign_epi8(w, w);
#pragma GCC unroll 4
      for (int t = 0; t < T; ++t) {
        const __m256i signed_x = _mm256_sign_epi8(Broadcast4(tokens[t], b, k), w);
        dot[t] = _mm256_add_epi32(dot[t], _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, signed_x), ones));
      }
#endif
    }
    const __m256 dw = _mm256_load_ps(reinterpret_cast<const float*>(&block.d));
#pragma GCC unroll 4
    for (int t = 0; t < T; ++t) {
      const __m256 dx = _mm256_set1_ps(tokens[t].d[b]);
      acc[t] = _mm256_add_ps(acc[t], _mm256_mul_ps(_mm256_mul_ps(dw, dx), _mm256_cvtepi32_ps(dot[t])));
    }
  }
  StoreRows<T>(acc, y, y_stride, n_rows);
}

// How a decoder's LaneBlocks hold the weights: unsigned bytes of at most kMaxUnsigned (the
// value plus an offset: PanelTile), or signed bytes of any value (SignedPanelTile).
enum class WeightBytes { kSmallUnsigned, kSigned };

// y[t * y_stride + r] = dot(row r, token t) for the n_rows rows of each panel, with
// decode(panel_index, blocks) writing panel panel_index's n_blocks LaneBlocks (rows past
// the matrix hold anything: their lanes are never stored) and rows_of(panel_index) its
// row count; n_panels panels of kPanelRows rows, token t's blocks at x + t * x_stride,
// small unsigned weights entering plus `offset` (unused for kSigned).
template <WeightBytes kWeights = WeightBytes::kSmallUnsigned, class Decode, class RowsOf>
void Gemm(size_t n_panels, size_t n_blocks, int32_t offset, const BlockQ8_0* x, size_t x_stride,
          size_t n_tokens, float* y, size_t y_stride, Decode decode, RowsOf rows_of) {
  thread_local std::vector<TokenView> tokens;
  PackQ8_0Tokens(x, x_stride, n_tokens, n_blocks, kWeights == WeightBytes::kSigned ? kSignedPackOffset : offset,
                 tokens);
  thread_local std::vector<LaneBlock> panel;
  if (panel.size() < n_blocks) panel.resize(n_blocks);
  for (size_t p = 0; p < n_panels; ++p) {
    decode(p, panel.data());
    const int n_rows = rows_of(p);
    ForTokenTiles(n_tokens, [&](auto count, size_t t0) {
      constexpr int kCount = decltype(count)::value;
      float* y_tile = y + t0 * y_stride + p * kPanelRows;
      if constexpr (kWeights == WeightBytes::kSigned) {
        SignedPanelTile<kCount>(panel.data(), n_blocks, tokens.data() + t0, y_tile, y_stride, n_rows);
      } else {
        PanelTile<kCount>(panel.data(), n_blocks, tokens.data() + t0, y_tile, y_stride, n_rows);
      }
    });
  }
}

}  // namespace CPUBRRR_AVX2_VARIANT_NAMESPACE
}  // namespace cpubrrr::lane_tile_avx2

#endif  // CPUBRRR_KERNELS_TILES_LANE_TILE_AVX2_INL_H_
