// Interleaves MXFP4 rows per block so a row tile reads one sequential stream.
#include "kernels/mxfp4/mxfp4_kernels.h"

namespace cpubrrr {

void RepackMxfp4Rows(const BlockMxfp4* w, size_t row_stride, size_t rows, size_t n_blocks,
                     BlockMxfp4* out) {
  const BlockMxfp4 zero{};
  for (size_t g = 0; g * kMxfp4RepackRows < rows; ++g) {
    for (size_t b = 0; b < n_blocks; ++b) {
      for (size_t i = 0; i < kMxfp4RepackRows; ++i) {
        const size_t r = g * kMxfp4RepackRows + i;
        *out++ = r < rows ? w[r * row_stride + b] : zero;
      }
    }
  }
}

}  // namespace cpubrrr
