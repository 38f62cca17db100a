// Renders function tools the way the official gpt-oss chat template does: a TypeScript-like
// `namespace functions { ... }` block in the developer message.
#ifndef CPUBRRR_RUNTIME_CHAT_HARMONY_TOOLS_H_
#define CPUBRRR_RUNTIME_CHAT_HARMONY_TOOLS_H_

#include <string>
#include <vector>

#include "nlohmann/json.hpp"

namespace cpubrrr {

// Returns the TypeScript-like type of JSON schema `schema`, byte for byte as the template's
// render_typescript_type macro prints it (including its stray newlines and indentation).
std::string HarmonyTypeScriptType(const nlohmann::ordered_json& schema);

// Returns "## functions\n\nnamespace functions {...} // namespace functions" for OpenAI-style
// tool entries ({"type": "function", "function": {...}}; a bare function object is accepted).
std::string HarmonyToolNamespace(const std::vector<nlohmann::ordered_json>& tools);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_HARMONY_TOOLS_H_
