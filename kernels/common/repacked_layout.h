// The layout of repacked weight matrices (kernels/mxfp4, kernels/q8_0): rows interleaved
// four to a stream, each pair of blocks' scales stored apart from its quants.
#ifndef CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_
#define CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_

#include <algorithm>
#include <cstddef>

namespace cpubrrr {

inline constexpr size_t kRepackedRows = 4;        // rows per group (one stream)
inline constexpr size_t kRepackedChunkPairs = 8;  // block pairs per chunk

// A matrix of `rows` rows of n_blocks blocks, repacked: rows in groups of kRepackedRows
// (the last padded with zero rows) and blocks in pairs (an odd last block padded with a
// zero block). A group is one stream of chunks of up to kRepackedChunkPairs pairs: first
// the chunk's scales, kScaleBytes per pair in whole 64-byte lines (unused bytes 0), then
// kPairBytes of quants per pair. Every line starts a multiple of 64 bytes after the
// group's start, and every group a multiple of 64 bytes after the matrix's.
template <size_t kScaleBytes, size_t kPairBytes>
struct RepackedShape {
  static constexpr size_t kScaleLineBytes = kRepackedChunkPairs * kScaleBytes;
  static constexpr size_t kChunkBytes = kScaleLineBytes + kRepackedChunkPairs * kPairBytes;
  static_assert(kScaleLineBytes % 64 == 0 && kPairBytes % 64 == 0, "lines must stay whole");

  size_t rows, n_blocks;

  size_t Pairs() const { return (n_blocks + 1) / 2; }
  size_t Groups() const { return (rows + kRepackedRows - 1) / kRepackedRows; }
  size_t GroupBytes() const {
    const size_t chunks = (Pairs() + kRepackedChunkPairs - 1) / kRepackedChunkPairs;
    return chunks * kScaleLineBytes + Pairs() * kPairBytes;
  }
  size_t Bytes() const { return Groups() * GroupBytes(); }

  // Offsets of pair p's scales and of its quants from its group's start.
  static size_t ScaleOffset(size_t p) {
    return p / kRepackedChunkPairs * kChunkBytes + kScaleBytes * (p % kRepackedChunkPairs);
  }
  static size_t QuantOffset(size_t p) {
    return p / kRepackedChunkPairs * kChunkBytes + kScaleLineBytes +
           kPairBytes * (p % kRepackedChunkPairs);
  }
};

// Calls group(g, valid_rows) for each group g of [group_begin, group_begin + n_groups)
// inside a matrix of `shape`, valid_rows being its rows below shape.rows (1 to 4).
template <class Shape, class Fn>
void ForEachGroup(const Shape& shape, size_t group_begin, size_t n_groups, Fn group) {
  const size_t end = std::min(group_begin + n_groups, shape.Groups());
  for (size_t g = group_begin; g < end; ++g) {
    group(g, std::min(kRepackedRows, shape.rows - g * kRepackedRows));
  }
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_
