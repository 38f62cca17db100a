// The f16 descriptor: f32 activations, this CPU's best f16 kernels, no repacked layout.
#include "kernels/f16/f16_format.h"

#include <cstring>

#include "kernels/f16/f16.h"
#include "kernels/common/weight_format_adapters.h"
#include "quant/fp16.h"

namespace cpubrrr {
namespace {

void DequantizeRow(const uint8_t* src, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    uint16_t h;
    std::memcpy(&h, src + 2 * i, 2);
    out[i] = Fp16ToFp32(h);
  }
}

}  // namespace

const WeightFormat& F16Format() {
  static const WeightFormat format{GgmlType::kF16, 1, 2, ActFormat::kF32,
                                   ProductsOf<uint16_t, float>(BestF16Kernels()), DequantizeRow,
                                   std::nullopt};
  return format;
}

}  // namespace cpubrrr
