// The Q8_0 descriptor: Q8_0 activations, this CPU's best Q8_0 kernels, and the
// repacked layout where a repacked variant runs here.
#include "kernels/q8_0/q8_0_format.h"

#include "kernels/common/weight_format_adapters.h"
#include "kernels/q8_0/q8_0.h"
#include "kernels/q8_0/q8_0_repacked.h"
#include "quant/q8_0.h"

namespace cpubrrr {

const WeightFormat& Q8_0Format() {
  static const WeightFormat format = [] {
    WeightFormat f{GgmlType::kQ8_0, kQ8_0BlockSize, sizeof(BlockQ8_0), ActFormat::kQ8_0,
                   ProductsOf<BlockQ8_0, BlockQ8_0>(BestQ8_0Kernels()), DequantizeRowOf<BlockQ8_0, DequantizeRowQ8_0>,
                   std::nullopt};
    if (const auto* variant = BestQ8_0RepackedKernels()) {
      // The variant has no gemv, so the copy serves the gemm only: a gemv on it computed
      // faster than the file-layout one but read cold memory slower.
      f.repacked = RepackedLayoutOf<BlockQ8_0, BlockQ8_0, Q8_0RepackedShape, RepackQ8_0>(*variant, 0);
    }
    return f;
  }();
  return format;
}

}  // namespace cpubrrr
