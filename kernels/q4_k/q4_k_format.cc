// The Q4_K descriptor: Q8K activations, this CPU's best Q4_K kernels, and the
// repacked layout where a repacked variant runs here.
#include "kernels/q4_k/q4_k_format.h"

#include "kernels/common/weight_format_adapters.h"
#include "kernels/q4_k/q4_k.h"
#include "kernels/q4_k/q4_k_repacked.h"
#include "quant/q4_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

const WeightFormat& Q4KFormat() {
  static const WeightFormat format = [] {
    WeightFormat f{GgmlType::kQ4_K, kQ4KBlockSize, sizeof(BlockQ4K), ActFormat::kQ8K,
                   ProductsOf<BlockQ4K, BlockQ8K>(BestQ4KKernels()), DequantizeRowOf<BlockQ4K, DequantizeRowQ4K>,
                   std::nullopt};
    if (const auto* variant = BestQ4KRepackedKernels()) {
      f.repacked = RepackedLayoutOf<BlockQ4K, BlockQ8K, Q4KRepackedShape, RepackQ4K>(*variant, 1);
    }
    return f;
  }();
  return format;
}

}  // namespace cpubrrr
