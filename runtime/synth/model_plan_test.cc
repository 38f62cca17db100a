// Checks the synthetic model plans: sizes of the full models, types per layer, errors.
#include "runtime/synth/model_plan.h"

#include "gtest/gtest.h"

namespace cpubrrr::synth {
namespace {

// Returns a vocabulary of `rows` tokens holding the special tokens both families need.
BpeVocab FakeVocab(size_t rows) {
  BpeVocab v;
  for (size_t i = 0; i < rows; ++i) v.tokens.push_back("t" + std::to_string(i));
  v.token_types.assign(rows, kTokenNormal);
  const char* specials[] = {"<|startoftext|>", "<|return|>", "<|endoftext|>", "<|im_end|>"};
  for (size_t i = 0; i < 4; ++i) v.tokens[rows - 1 - i] = specials[i];
  v.merges = {"t a", "t b"};
  return v;
}

ModelPlan Plan(const std::string& preset, PlanOptions options = {}) {
  ModelShape shape = *ShapePreset(preset);
  absl::StatusOr<ModelPlan> plan = PlanModel(shape, options, FakeVocab(shape.n_vocab));
  EXPECT_TRUE(plan.ok()) << plan.status();
  return *plan;
}

const PlannedTensor& Find(const ModelPlan& plan, const std::string& name) {
  for (const PlannedTensor& t : plan.tensors) {
    if (t.name == name) return t;
  }
  ADD_FAILURE() << "no tensor " << name;
  return plan.tensors.front();
}

TEST(ModelPlan, GptOss20bIsAbout12GB) {
  ModelPlan plan = Plan("gpt-oss-20b");
  EXPECT_NEAR(PlannedTensorBytes(plan) / 1e9, 12.1, 0.1);
  EXPECT_EQ(plan.tensors.size(), 3u + 24u * 19u);
  EXPECT_EQ(Find(plan, "blk.5.ffn_gate_exps.weight").type, GgmlType::kMXFP4);
  EXPECT_EQ(Find(plan, "blk.5.attn_q.weight").type, GgmlType::kQ8_0);
  EXPECT_EQ(Find(plan, "blk.5.ffn_down_exps.weight").dims, (std::vector<uint64_t>{2880, 2880, 32}));
}

TEST(ModelPlan, Qwen3Moe30bIsAbout18point6GBWithQ6KWhereQ4KMPutsIt) {
  ModelPlan plan = Plan("qwen3moe-30b-a3b");
  EXPECT_NEAR(PlannedTensorBytes(plan) / 1e9, 18.6, 0.2);
  EXPECT_EQ(Find(plan, "output.weight").type, GgmlType::kQ6_K);
  EXPECT_EQ(Find(plan, "blk.0.ffn_down_exps.weight").type, GgmlType::kQ6_K);   // first eighth
  EXPECT_EQ(Find(plan, "blk.7.ffn_down_exps.weight").type, GgmlType::kQ4_K);
  EXPECT_EQ(Find(plan, "blk.8.attn_v.weight").type, GgmlType::kQ6_K);          // (8-6) % 3 == 2
  EXPECT_EQ(Find(plan, "blk.47.attn_v.weight").type, GgmlType::kQ6_K);         // last eighth
  EXPECT_EQ(Find(plan, "blk.3.ffn_gate_inp.weight").type, GgmlType::kF32);
}

TEST(ModelPlan, Q5KMPresetHasQ5KWhereQ4KMHasQ4K) {
  ModelPlan plan = Plan("qwen3moe-tiny-q5_k_m");
  EXPECT_EQ(Find(plan, "blk.0.attn_q.weight").type, GgmlType::kQ5_K);
  EXPECT_EQ(Find(plan, "blk.0.ffn_down_exps.weight").type, GgmlType::kQ5_K);
  EXPECT_EQ(Find(plan, "blk.2.ffn_down_exps.weight").type, GgmlType::kQ6_K);  // last eighth
  EXPECT_EQ(Find(plan, "blk.1.ffn_gate_exps.weight").type, GgmlType::kQ5_K);
  EXPECT_EQ(Find(plan, "output.weight").type, GgmlType::kQ6_K);
  for (const auto& [key, value] : plan.metadata) {
    if (key == "general.file_type") EXPECT_EQ(std::get<uint32_t>(value), 17u);  // LLAMA_FTYPE_MOSTLY_Q5_K_M
  }
}

TEST(ModelPlan, RowsThatKQuantsCannotHoldFallBackToQ8_0) {
  ModelPlan plan = Plan("qwen3moe-tiny-odd");  // 3 heads x 64 = 192-wide attention output
  EXPECT_EQ(Find(plan, "blk.0.attn_output.weight").type, GgmlType::kQ8_0);
  EXPECT_EQ(Find(plan, "blk.0.attn_q.weight").type, GgmlType::kQ4_K);
}

TEST(ModelPlan, TrainedShapesQuantizeAsTheRealModelsAndHaveAnF32Twin) {
  ModelPlan gpt = Plan("gpt-oss-trained");
  EXPECT_EQ(Find(gpt, "token_embd.weight").dims, (std::vector<uint64_t>{128, 4096}));
  EXPECT_EQ(Find(gpt, "blk.3.ffn_up_exps.weight").type, GgmlType::kMXFP4);
  EXPECT_EQ(Find(gpt, "blk.3.attn_k.weight").type, GgmlType::kQ8_0);
  ModelPlan qwen = Plan("qwen3moe-trained");
  EXPECT_EQ(Find(qwen, "blk.0.ffn_down_exps.weight").type, GgmlType::kQ4_K);  // 4 / 8 = 0: no first eighth
  EXPECT_EQ(Find(qwen, "blk.2.ffn_down_exps.weight").type, GgmlType::kQ6_K);  // (2 - 0) % 3 == 2
  EXPECT_EQ(Find(qwen, "blk.3.attn_v.weight").type, GgmlType::kQ6_K);         // last eighth
  EXPECT_EQ(Find(qwen, "blk.1.ffn_gate_exps.weight").type, GgmlType::kQ4_K);
  for (const char* preset : {"gpt-oss-trained", "qwen3moe-trained"}) {
    ModelPlan twin = Plan(preset, {.all_f32 = true});
    for (const PlannedTensor& t : twin.tensors) EXPECT_EQ(t.type, GgmlType::kF32) << t.name;
    for (const auto& [key, value] : twin.metadata) {
      if (key == "general.file_type") EXPECT_EQ(std::get<uint32_t>(value), 0u);  // all f32
    }
  }
}

TEST(ModelPlan, RejectsMismatchedVocabularyAndBadShapes) {
  ModelShape shape = *ShapePreset("gpt-oss-tiny");
  EXPECT_FALSE(PlanModel(shape, {}, FakeVocab(1000)).ok());
  shape.n_expert_used = shape.n_expert + 1;
  EXPECT_FALSE(PlanModel(shape, {}, FakeVocab(shape.n_vocab)).ok());
  shape = *ShapePreset("gpt-oss-tiny");
  shape.n_embd = 40;  // not a multiple of the 32-element block
  EXPECT_FALSE(PlanModel(shape, {}, FakeVocab(shape.n_vocab)).ok());
  EXPECT_FALSE(ShapePreset("gpt-oss-7b").ok());
}

}  // namespace
}  // namespace cpubrrr::synth
