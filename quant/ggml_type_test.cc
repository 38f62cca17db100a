// Checks GeometryOf and TypeName against llama.cpp's type traits for every type this project reads.
#include <string>

#include "ggml.h"
#include "gtest/gtest.h"
#include "quant/ggml_type.h"

namespace cpubrrr {
namespace {

constexpr GgmlType kSupported[] = {GgmlType::kF32,  GgmlType::kF16,  GgmlType::kBF16,
                                   GgmlType::kQ8_0, GgmlType::kQ4_K, GgmlType::kQ5_K,
                                   GgmlType::kQ6_K, GgmlType::kQ8_K, GgmlType::kMXFP4};

TEST(GgmlTypeVsGgml, GeometryAndNameMatchForEverySupportedType) {
  for (GgmlType t : kSupported) {
    const auto id = static_cast<ggml_type>(t);
    const TypeGeometry g = GeometryOf(t);
    EXPECT_EQ(g.block_elems, ggml_blck_size(id)) << TypeName(t);
    EXPECT_EQ(g.block_bytes, ggml_type_size(id)) << TypeName(t);
    EXPECT_EQ(std::string(TypeName(t)), ggml_type_name(id));
  }
}

}  // namespace
}  // namespace cpubrrr
