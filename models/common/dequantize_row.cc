// Per-type dispatch of row decoding to the scalar decoders in quant/.
#include "models/common/dequantize_row.h"

#include <cstring>

#include "quant/bf16.h"
#include "quant/fp16.h"
#include "quant/mxfp4.h"
#include "quant/q4_k.h"
#include "quant/q6_k.h"
#include "quant/q8_0.h"

namespace cpubrrr {

void DequantizeWeightRow(const WeightMatrix& w, int64_t mat, int64_t row, float* out) {
  const uint8_t* src = w.Row(mat, row);
  const int64_t n = w.cols;
  switch (w.type) {
    case GgmlType::kF32:
      std::memcpy(out, src, n * sizeof(float));
      return;
    case GgmlType::kF16:
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        out[i] = Fp16ToFp32(h);
      }
      return;
    case GgmlType::kBF16:
      for (int64_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        out[i] = Bf16ToFp32(h);
      }
      return;
    case GgmlType::kQ8_0:
      DequantizeRowQ8_0(reinterpret_cast<const BlockQ8_0*>(src), out, n);
      return;
    case GgmlType::kMXFP4:
      DequantizeRowMxfp4(reinterpret_cast<const BlockMxfp4*>(src), out, n);
      return;
    case GgmlType::kQ4_K:
      DequantizeRowQ4K(reinterpret_cast<const BlockQ4K*>(src), out, n);
      return;
    case GgmlType::kQ6_K:
      DequantizeRowQ6K(reinterpret_cast<const BlockQ6K*>(src), out, n);
      return;
    default:
      std::memset(out, 0, n * sizeof(float));
      return;
  }
}

}  // namespace cpubrrr
