// Session rewinds on both architectures: a prompt that diverges from the cache at every
// distance, from one position to beyond the sliding-window ring, continues with the logits
// of a fresh session fed the same tokens by the same calls, bit for bit.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "models/load_model.h"
#include "models/testing/synth_model.h"

namespace cpubrrr {
namespace {

constexpr uint32_t kPrompt = 40;   // the first call's tokens; a checkpoint follows it

std::unique_ptr<Model> Load(const std::string& preset, int batch, KvCacheType kv) {
  absl::StatusOr<std::string> path = WriteSynthModel(preset, false, 5, "-rewind");
  EXPECT_TRUE(path.ok()) << path.status();
  if (!path.ok()) return nullptr;
  absl::StatusOr<std::unique_ptr<Model>> model =
      LoadModel(*path, {.n_threads = 1, .kv_type = kv, .max_batch_tokens = batch});
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *std::move(model) : nullptr;
}

std::vector<int32_t> Tokens(uint32_t n, uint32_t salt) {
  std::vector<int32_t> t;
  for (uint32_t i = 0; i < n; ++i) t.push_back(static_cast<int32_t>((i * 7919 + salt * 104729 + 13) % 1000));
  return t;
}

// The Forward calls that fill a session: [begin, end) of the tokens each.
using Calls = std::vector<std::pair<uint32_t, uint32_t>>;

// Returns a fresh session fed tokens [0, upto) by `calls` cut at `upto`, with a checkpoint
// after the first call. (A cut call gives the same bits only with one-token passes.)
std::unique_ptr<Session> Feed(Model& model, const std::vector<int32_t>& tokens, const Calls& calls,
                              uint32_t upto) {
  absl::StatusOr<std::unique_ptr<Session>> session = model.NewSession(512);
  EXPECT_TRUE(session.ok());
  std::vector<float> logits(model.info().n_vocab);
  for (size_t i = 0; i < calls.size(); ++i) {
    const auto [begin, end] = calls[i];
    if (begin >= upto) break;
    const uint32_t stop = std::min(end, upto);
    EXPECT_TRUE(model.Forward(**session, absl::MakeConstSpan(tokens).subspan(begin, stop - begin),
                              absl::MakeSpan(logits)).ok());
    if (i == 0) (*session)->Checkpoint();
  }
  return *std::move(session);
}

// For every divergence point q = L-1 .. 0 of a history of L tokens fed by `calls`: the
// session keeps `expected_kept(q)` positions, and the logits after the new tokens equal
// those of a fresh session fed the kept prefix by the same calls, then the new tokens.
void ExpectEveryRewindExact(Model& model, const Calls& calls,
                            const std::function<uint32_t(uint32_t)>& expected_kept) {
  const uint32_t length = calls.back().second;
  const std::vector<int32_t> history = Tokens(length, 1);
  std::vector<float> got(model.info().n_vocab), want(model.info().n_vocab);
  for (uint32_t d = 1; d <= length; ++d) {
    const uint32_t q = length - d;
    SCOPED_TRACE("diverging " + std::to_string(d) + " positions back");
    std::vector<int32_t> next(history.begin(), history.begin() + q);
    for (int32_t t : Tokens(3, 2)) next.push_back(t == history[q] ? t + 1 : t);

    std::unique_ptr<Session> a = Feed(model, history, calls, length);
    const uint32_t kept = a->KeepablePrefix(q);
    ASSERT_EQ(kept, expected_kept(q));
    ASSERT_EQ(a->Truncate(q), kept);
    ASSERT_EQ(a->position(), kept);
    const absl::Span<const int32_t> rest = absl::MakeConstSpan(next).subspan(kept);
    ASSERT_TRUE(model.Forward(*a, rest, absl::MakeSpan(got)).ok());

    std::unique_ptr<Session> b = Feed(model, next, calls, kept);
    ASSERT_EQ(b->position(), kept);
    ASSERT_TRUE(model.Forward(*b, rest, absl::MakeSpan(want)).ok());
    ASSERT_TRUE(got == want) << "first different logit: "
                             << std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin();
  }
}

// One-token passes run every matmul as a gemv, so any split of the tokens into calls gives
// the same bits and every divergence point can be checked against one fresh call.
TEST(SessionRewind, OneTokenPassesEveryDistance) {
  for (const char* preset : {"gpt-oss-tiny", "qwen3moe-tiny"}) {
    SCOPED_TRACE(preset);
    std::unique_ptr<Model> model = Load(preset, 1, KvCacheType::kF32);
    ASSERT_NE(model, nullptr);
    const bool ring = model->info().architecture == "gpt-oss";
    // 200 positions: past the 128-position ring (a window plus a one-token pass).
    const uint32_t length = 200;
    ExpectEveryRewindExact(*model, {{0, kPrompt}, {kPrompt, length}}, [&](uint32_t q) -> uint32_t {
      if (!ring || length - q <= 1) return q;  // the ring's slack is one pass
      return q >= kPrompt ? kPrompt : 0;       // the checkpoint, or nothing
    });
  }
}

// With 8-token passes the ring keeps 8 positions of slack: the history ends in 8 decode
// steps (one-token calls), as a conversation's cache does, so the fresh session can
// repeat exactly the calls before any point a rewind keeps.
TEST(SessionRewind, EightTokenPassesEveryDistanceOnTheRing) {
  std::unique_ptr<Model> model = Load("gpt-oss-tiny", 8, KvCacheType::kF16);
  ASSERT_NE(model, nullptr);
  const uint32_t length = 180;  // past the ring of 128 + 8 - 1 positions
  Calls calls = {{0, kPrompt}, {kPrompt, length - 8}};
  for (uint32_t p = length - 8; p < length; ++p) calls.push_back({p, p + 1});
  ExpectEveryRewindExact(*model, calls, [&](uint32_t q) -> uint32_t {
    if (length - q <= 8) return q;
    return q >= kPrompt ? kPrompt : 0;
  });
}

}  // namespace
}  // namespace cpubrrr
