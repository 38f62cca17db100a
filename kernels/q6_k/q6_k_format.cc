// The Q6_K descriptor: Q8K activations, this CPU's best Q6_K kernels, and the
// repacked layout where a repacked variant runs here.
#include "kernels/q6_k/q6_k_format.h"

#include "kernels/common/weight_format_adapters.h"
#include "kernels/q6_k/q6_k.h"
#include "kernels/q6_k/q6_k_repacked.h"
#include "quant/q6_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

const WeightFormat& Q6KFormat() {
  static const WeightFormat format = [] {
    WeightFormat f{GgmlType::kQ6_K, kQ6KBlockSize, sizeof(BlockQ6K), ActFormat::kQ8K,
                   ProductsOf<BlockQ6K, BlockQ8K>(BestQ6KKernels()), DequantizeRowOf<BlockQ6K, DequantizeRowQ6K>,
                   std::nullopt};
    if (const auto* variant = BestQ6KRepackedKernels()) {
      f.repacked = RepackedLayoutOf<BlockQ6K, BlockQ8K, Q6KRepackedShape, RepackQ6K>(*variant, 0);
    }
    return f;
  }();
  return format;
}

}  // namespace cpubrrr
