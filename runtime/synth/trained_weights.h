// Trained float32 weights (tools/train's weights-f32.gguf) quantized into a planned model.
#ifndef CPUBRRR_RUNTIME_SYNTH_TRAINED_WEIGHTS_H_
#define CPUBRRR_RUNTIME_SYNTH_TRAINED_WEIGHTS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/gguf/gguf_file.h"
#include "runtime/synth/model_plan.h"

namespace cpubrrr::synth {

// Writes `elems` floats (whole rows of the type's block size) as `type` into `dst`:
// F32 copied, F16/BF16 rounded, block types quantized by quant/'s reference quantizers.
// Fails for a type it cannot write.
absl::Status QuantizeValues(GgmlType type, const float* src, uint64_t elems, uint8_t* dst);

// A GGUF of float32 tensors named as the model's tensors.
class TrainedWeights {
 public:
  static absl::StatusOr<TrainedWeights> Open(const std::string& path);

  // Checks that the file holds exactly the plan's tensors, each float32 with the
  // planned dimensions; the error names the first tensor that differs.
  absl::Status CheckMatches(const ModelPlan& plan) const;

  // Writes tensor `t` (already checked) in its planned type into `dst` (`bytes` long).
  absl::Status Fill(const PlannedTensor& t, uint8_t* dst, size_t bytes) const;

  // general.name of the weights file, or "" when it has none.
  std::string Name() const;

 private:
  explicit TrainedWeights(GgufFile file) : file_(std::move(file)) {}
  GgufFile file_;
};

}  // namespace cpubrrr::synth

#endif  // CPUBRRR_RUNTIME_SYNTH_TRAINED_WEIGHTS_H_
