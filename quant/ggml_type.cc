// Block geometry and names of the GGML types this project reads.
#include "quant/ggml_type.h"

namespace cpubrrr {

TypeGeometry GeometryOf(GgmlType type) {
  switch (type) {
    case GgmlType::kF32: return {1, 4};
    case GgmlType::kF16: return {1, 2};
    case GgmlType::kBF16: return {1, 2};
    case GgmlType::kQ8_0: return {32, 34};
    case GgmlType::kQ4_K: return {256, 144};
    case GgmlType::kQ5_K: return {256, 176};
    case GgmlType::kQ6_K: return {256, 210};
    case GgmlType::kQ8_K: return {256, 292};
    case GgmlType::kMXFP4: return {32, 17};
    default: return {0, 0};
  }
}

const char* TypeName(GgmlType type) {
  switch (type) {
    case GgmlType::kF32: return "f32";
    case GgmlType::kF16: return "f16";
    case GgmlType::kBF16: return "bf16";
    case GgmlType::kQ8_0: return "q8_0";
    case GgmlType::kQ4_K: return "q4_K";
    case GgmlType::kQ5_K: return "q5_K";
    case GgmlType::kQ6_K: return "q6_K";
    case GgmlType::kQ8_K: return "q8_K";
    case GgmlType::kMXFP4: return "mxfp4";
    default: return "unknown";
  }
}

}  // namespace cpubrrr
