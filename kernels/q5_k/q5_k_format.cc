// The Q5_K descriptor: Q8K activations and this CPU's best Q5_K kernels. Q5_K has no
// repacked layout: it reaches the models as the mixed-quant companion of Q4_K (attention
// and a few feed-forward tensors in Q4_K_M files), where the row-major gemm serves.
#include "kernels/q5_k/q5_k_format.h"

#include "kernels/common/weight_format_adapters.h"
#include "kernels/q5_k/q5_k.h"
#include "quant/q5_k.h"
#include "quant/q8_k.h"

namespace cpubrrr {

const WeightFormat& Q5KFormat() {
  static const WeightFormat format{GgmlType::kQ5_K,
                                   kQ5KBlockSize,
                                   sizeof(BlockQ5K),
                                   ActFormat::kQ8K,
                                   ProductsOf<BlockQ5K, BlockQ8K>(BestQ5KKernels()),
                                   DequantizeRowOf<BlockQ5K, DequantizeRowQ5K>,
                                   std::nullopt};
  return format;
}

}  // namespace cpubrrr
