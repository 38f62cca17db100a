// A deterministic fake model and session for engine and driver tests.
#include "runtime/engine/fake_model.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "runtime/engine/gguf_tokenizer.h"
#include "runtime/gguf/gguf_file.h"

namespace cpubrrr {
namespace {

class FakeSession : public Session {
 public:
  FakeSession(uint32_t context_length, uint32_t rewind_limit)
      : context_length_(context_length), rewind_limit_(rewind_limit) {}
  uint32_t position() const override { return history.size(); }
  uint32_t context_length() const override { return context_length_; }
  uint32_t KeepablePrefix(uint32_t position) const override {
    const uint32_t target = std::min<uint32_t>(position, history.size());
    if (history.size() - target <= rewind_limit_) return target;
    uint32_t kept = 0;
    for (uint32_t c : checkpoints_) {
      if (c <= target) kept = c;
    }
    return kept;
  }
  uint32_t Truncate(uint32_t position) override {
    history.resize(KeepablePrefix(position));
    while (!checkpoints_.empty() && checkpoints_.back() > history.size()) checkpoints_.pop_back();
    return history.size();
  }
  void Checkpoint() override {
    if (checkpoints_.empty() || checkpoints_.back() != history.size()) checkpoints_.push_back(history.size());
  }

  std::vector<int32_t> history;

 private:
  uint32_t context_length_;
  uint32_t rewind_limit_;
  std::vector<uint32_t> checkpoints_;  // ascending
};

}  // namespace

FakeModel::FakeModel(ModelInfo info, NextToken next) : info_(std::move(info)), next_(std::move(next)) {}

absl::StatusOr<std::unique_ptr<Session>> FakeModel::NewSession(uint32_t context_length) {
  if (context_length == 0) context_length = info_.n_ctx_train;
  return std::make_unique<FakeSession>(context_length, rewind_limit_);
}

absl::Status FakeModel::ForwardBatch(absl::Span<const ForwardEntry> entries) {
  if (entries.size() > widest_batch_.load()) widest_batch_.store(entries.size());
  return Model::ForwardBatch(entries);
}

absl::Status FakeModel::Forward(Session& session, absl::Span<const int32_t> tokens,
                                absl::Span<float> logits) {
  FakeSession& s = static_cast<FakeSession&>(session);
  if (s.history.size() + tokens.size() > s.context_length()) {
    return absl::OutOfRangeError("tokens do not fit the context");
  }
  for (int32_t id : tokens) {
    if (id < 0 || static_cast<uint32_t>(id) >= info_.n_vocab) {
      return absl::OutOfRangeError(absl::StrCat("token id ", id, " out of range"));
    }
  }
  if (step_delay_.count() > 0) std::this_thread::sleep_for(step_delay_);
  s.history.insert(s.history.end(), tokens.begin(), tokens.end());
  evaluated_ += tokens.size();
  ++forward_calls_;
  std::fill(logits.begin(), logits.end(), 0.0f);
  logits[next_(s.history)] = 10.0f;
  return absl::OkStatus();
}

FakeModel::NextToken HashNextToken(uint32_t n) {
  return [n](absl::Span<const int32_t> history) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (int32_t id : history) h = (h ^ static_cast<uint32_t>(id)) * 1099511628211ull;
    return static_cast<int32_t>(h % n);
  };
}

FakeModel::NextToken ScriptedNextToken(std::vector<int32_t> cue, std::vector<int32_t> script,
                                       FakeModel::NextToken otherwise) {
  std::vector<int32_t> cued = std::move(cue);
  const size_t cue_size = cued.size();
  cued.insert(cued.end(), script.begin(), script.end());
  return [cued, cue_size, otherwise](absl::Span<const int32_t> history) {
    // The longest cue + script prefix the history ends in picks the next script token.
    for (size_t j = cued.size() - 1; j + 1 > cue_size; --j) {
      if (j <= history.size() && std::equal(cued.begin(), cued.begin() + j, history.end() - j)) return cued[j];
    }
    return otherwise(history);
  };
}

Architecture FakeArchitecture(const std::string& architecture, ChatFormat chat_format, uint32_t hash_range,
                              FakeAnswer answer) {
  return {architecture, chat_format,
          [architecture, hash_range, answer](GgufFile file, const ModelOptions& options)
              -> absl::StatusOr<std::unique_ptr<Model>> {
            absl::StatusOr<absl::Span<const std::string_view>> tokens =
                file.GetStringArray("tokenizer.ggml.tokens");
            if (!tokens.ok()) return tokens.status();
            ModelInfo info;
            info.architecture = architecture;
            info.name = "fake";
            info.n_vocab = static_cast<uint32_t>(tokens->size());
            info.n_ctx_train = 4096;
            FakeModel::NextToken next = HashNextToken(std::min<uint32_t>(hash_range, info.n_vocab));
            if (!answer.text.empty()) {
              absl::StatusOr<std::unique_ptr<BpeTokenizer>> tokenizer = TokenizerFromGguf(file);
              if (!tokenizer.ok()) return tokenizer.status();
              next = ScriptedNextToken((*tokenizer)->Encode(answer.cue, false, true),
                                       (*tokenizer)->Encode(answer.text, false, true), std::move(next));
            }
            if (options.progress) options.progress(1.0);
            auto model = std::make_unique<FakeModel>(info, std::move(next));
            model->set_step_delay(answer.step_delay);
            return model;
          }};
}

}  // namespace cpubrrr
