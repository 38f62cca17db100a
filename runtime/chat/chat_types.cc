// Names of the chat data model's enums.
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

const char* ReasoningEffortName(ReasoningEffort effort) {
  switch (effort) {
    case ReasoningEffort::kLow:
      return "low";
    case ReasoningEffort::kHigh:
      return "high";
    case ReasoningEffort::kMedium:
      break;
  }
  return "medium";
}

}  // namespace cpubrrr
