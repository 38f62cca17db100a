// The Q5_K descriptor: Q8K activations and this CPU's best Q5_K kernels. Q5_K has no
// repacked layout yet: a Q5_K_M file's matrices run on the file's rows.
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
