// Test-only loader of the shared chat template cases.
#include "runtime/chat/chat_test_cases.h"

#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "runtime/chat/chat_json.h"

namespace cpubrrr {

std::string ReadTestFile(const std::string& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  if (ok) *ok = static_cast<bool>(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<ChatCase> LoadChatCases() {
  std::vector<ChatCase> cases;
  bool ok = false;
  std::string text = ReadTestFile("runtime/chat/testdata/chat_cases.json", &ok);
  if (!ok) {
    ADD_FAILURE() << "cannot read chat_cases.json";
    return cases;
  }
  auto json = nlohmann::ordered_json::parse(text, nullptr, false);
  if (!json.is_array()) {
    ADD_FAILURE() << "chat_cases.json is not a JSON array";
    return cases;
  }
  for (const auto& c : json) {
    absl::StatusOr<ChatRequest> request = ChatRequestFromJson(c);
    if (!request.ok()) {
      ADD_FAILURE() << c.value("name", "?") << ": " << request.status();
      continue;
    }
    cases.push_back({c.value("name", ""), *std::move(request)});
  }
  return cases;
}

}  // namespace cpubrrr
