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

bool ReasoningEffortFromName(const std::string& name, ReasoningEffort& effort) {
  for (ReasoningEffort e : {ReasoningEffort::kLow, ReasoningEffort::kMedium, ReasoningEffort::kHigh}) {
    if (name == ReasoningEffortName(e)) {
      effort = e;
      return true;
    }
  }
  return false;
}

}  // namespace cpubrrr
