// The layout of repacked weight matrices (kernels/mxfp4, kernels/q8_0, kernels/q4_k,
// kernels/q6_k): rows interleaved in groups (four to a stream, or sixteen for Q8_0's lane
// layout), each unit of blocks' scales stored apart from its quants.
#ifndef CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_
#define CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_

#include <algorithm>
#include <cstddef>

namespace cpubrrr {

inline constexpr size_t kRepackedRows = 4;        // rows per group (one stream) by default
inline constexpr size_t kRepackedChunkUnits = 8;  // units (of kUnitBlocks blocks) per chunk

// A matrix of `rows` rows of n_blocks blocks, repacked: rows in groups of kGroupRows
// (the last padded with zero rows) and blocks in units of kUnitBlocks (pairs for the
// 32-value formats, single superblocks for the K-quants; a short last unit padded with
// zero blocks). A group is one stream of chunks of up to kRepackedChunkUnits units: first
// the chunk's scales, kScaleBytes per unit in whole 64-byte lines (unused bytes 0), then
// kUnitBytes of quants per unit. Every line starts a multiple of 64 bytes after the
// group's start, and every group a multiple of 64 bytes after the matrix's.
template <size_t kScaleBytes, size_t kUnitBytes, size_t kUnitBlocks, size_t kRowsPerGroup = kRepackedRows>
struct RepackedShape {
  static constexpr size_t kGroupRows = kRowsPerGroup;
  static constexpr size_t kScaleLineBytes = kRepackedChunkUnits * kScaleBytes;
  static constexpr size_t kChunkBytes = kScaleLineBytes + kRepackedChunkUnits * kUnitBytes;
  static_assert(kScaleLineBytes % 64 == 0 && kUnitBytes % 64 == 0, "lines must stay whole");

  size_t rows, n_blocks;

  size_t Units() const { return (n_blocks + kUnitBlocks - 1) / kUnitBlocks; }
  size_t Groups() const { return (rows + kGroupRows - 1) / kGroupRows; }
  size_t GroupBytes() const {
    const size_t chunks = (Units() + kRepackedChunkUnits - 1) / kRepackedChunkUnits;
    return chunks * kScaleLineBytes + Units() * kUnitBytes;
  }
  size_t Bytes() const { return Groups() * GroupBytes(); }

  // Offsets of unit u's scales and of its quants from its group's start.
  static size_t ScaleOffset(size_t u) {
    return u / kRepackedChunkUnits * kChunkBytes + kScaleBytes * (u % kRepackedChunkUnits);
  }
  static size_t QuantOffset(size_t u) {
    return u / kRepackedChunkUnits * kChunkBytes + kScaleLineBytes +
           kUnitBytes * (u % kRepackedChunkUnits);
  }
};

// Returns the end of the groups [group_begin, group_begin + n_groups) that lie inside a
// matrix of `shape`.
template <class Shape>
size_t GroupRangeEnd(const Shape& shape, size_t group_begin, size_t n_groups) {
  return std::min(group_begin + n_groups, shape.Groups());
}

// Calls group(g, valid_rows) for each group g of [group_begin, group_begin + n_groups)
// inside a matrix of `shape`, valid_rows being its rows below shape.rows (1 to kGroupRows).
template <class Shape, class Fn>
void ForEachGroup(const Shape& shape, size_t group_begin, size_t n_groups, Fn group) {
  const size_t end = GroupRangeEnd(shape, group_begin, n_groups);
  for (size_t g = group_begin; g < end; ++g) {
    group(g, std::min(Shape::kGroupRows, shape.rows - g * Shape::kGroupRows));
  }
}

// Calls group(g, t, valid_rows) for each group g as ForEachGroup does and, within it, for
// each token t < n_tokens: a gemm that runs its gemv's group code token by token, so that
// a group's weights, read once from memory, stay in L1 or L2 while its tokens pass.
template <class Shape, class Fn>
void ForEachGroupThenToken(const Shape& shape, size_t group_begin, size_t n_groups, size_t n_tokens, Fn group) {
  ForEachGroup(shape, group_begin, n_groups, [&](size_t g, size_t valid_rows) {
    for (size_t t = 0; t < n_tokens; ++t) group(g, t, valid_rows);
  });
}

}  // namespace cpubrrr

#endif  // CPUBRRR_KERNELS_COMMON_REPACKED_LAYOUT_H_
