// The walk of the K-quant AVX-512 gemms: rows in groups, blocks in chunks, each
// row's float state carried from one chunk to the next.
#ifndef CPUBRRR_KERNELS_KQUANT_GEMM_GROUPS_H_
#define CPUBRRR_KERNELS_KQUANT_GEMM_GROUPS_H_

#include <cstddef>
#include <vector>

namespace cpubrrr::kquant {

// Blocks per pass: 16 tokens x 8 blocks x 256 quants = 32 KB of activations,
// which stays in a 48 KB L1 data cache while the rows of a group stream past
// it.
inline constexpr size_t kGemmChunk = 8;

// Rows per group: their states (Q4_K: 12 vectors each, 24 KB) carry between
// chunks.
inline constexpr size_t kGemmGroupRows = 32;

// For each group of rows and each chunk of blocks, calls row_chunk(row, b0, n,
// state) per row with that row's State (value-initialized, so zero, at the
// first chunk) for blocks [b0, b0 + n); once a group has seen every block,
// calls finish(row, state) per row.
template <typename State, typename RowChunk, typename Finish>
void GemmByGroups(size_t rows, size_t n_blocks, RowChunk &&row_chunk,
                  Finish &&finish) {
  thread_local std::vector<State> states;
  if (states.size() < kGemmGroupRows)
    states.resize(kGemmGroupRows);
  for (size_t r0 = 0; r0 < rows; r0 += kGemmGroupRows) {
    const size_t group =
        rows - r0 < kGemmGroupRows ? rows - r0 : kGemmGroupRows;
    for (size_t b0 = 0; b0 < n_blocks; b0 += kGemmChunk) {
      const size_t n = n_blocks - b0 < kGemmChunk ? n_blocks - b0 : kGemmChunk;
      for (size_t r = 0; r < group; ++r) {
        State s = b0 == 0 ? State{} : states[r];
        row_chunk(r0 + r, b0, n, s);
        states[r] = s;
      }
    }
    for (size_t r = 0; r < group; ++r)
      finish(r0 + r, states[r]);
  }
}

} // namespace cpubrrr::kquant

#endif // CPUBRRR_KERNELS_KQUANT_GEMM_GROUPS_H_
