// The MXFP4 descriptor: Q8_0 activations, this CPU's best MXFP4 kernels, and the
// repacked layout where a repacked variant runs here.
#include "kernels/mxfp4/mxfp4_format.h"

#include "kernels/common/weight_format_adapters.h"
#include "kernels/mxfp4/mxfp4.h"
#include "kernels/mxfp4/mxfp4_repacked.h"
#include "quant/mxfp4.h"
#include "quant/q8_0.h"

namespace cpubrrr {

const WeightFormat& Mxfp4Format() {
  static const WeightFormat format = [] {
    WeightFormat f{GgmlType::kMXFP4, kMxfp4BlockSize, sizeof(BlockMxfp4), ActFormat::kQ8_0,
                   ProductsOf<BlockMxfp4, BlockQ8_0>(BestMxfp4Kernels()), DequantizeRowOf<BlockMxfp4, DequantizeRowMxfp4>,
                   std::nullopt};
    if (const auto* variant = BestMxfp4RepackedKernels()) {
      f.repacked = RepackedLayoutOf<BlockMxfp4, BlockQ8_0, Mxfp4RepackedShape, RepackMxfp4>(*variant, 0);
    }
    return f;
  }();
  return format;
}

}  // namespace cpubrrr
