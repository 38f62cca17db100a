// The bf16 descriptor: f32 activations, this CPU's best bf16 kernels, no repacked layout.
#include "kernels/bf16/bf16_format.h"

#include <cstring>

#include "kernels/bf16/bf16.h"
#include "kernels/common/weight_format_adapters.h"
#include "quant/bf16.h"

namespace cpubrrr {
namespace {

void DequantizeRow(const uint8_t* src, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, src + 2 * i, 2);
    out[i] = Bf16ToFp32(h);
  }
}

}  // namespace

const WeightFormat& Bf16Format() {
  static const WeightFormat format{GgmlType::kBF16, 1, 2, ActFormat::kF32,
                                   ProductsOf<uint16_t, float>(BestBf16Kernels()), DequantizeRow,
                                   std::nullopt};
  return format;
}

}  // namespace cpubrrr
