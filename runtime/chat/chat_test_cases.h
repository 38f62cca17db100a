// Loads the shared chat template test cases (testdata/chat_cases.json) for tests.
#ifndef CPUBRRR_RUNTIME_CHAT_CHAT_TEST_CASES_H_
#define CPUBRRR_RUNTIME_CHAT_CHAT_TEST_CASES_H_

#include <string>
#include <vector>

#include "runtime/chat/chat_types.h"

namespace cpubrrr {

struct ChatCase {
  std::string name;
  ChatRequest request;
};

// Returns the file's bytes, or "" when it cannot be read (`ok` tells which).
std::string ReadTestFile(const std::string& path, bool* ok = nullptr);

// Returns every case of the runfile runtime/chat/testdata/chat_cases.json; fails the
// calling test (ADD_FAILURE) on a malformed case.
std::vector<ChatCase> LoadChatCases();

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_CHAT_TEST_CASES_H_
