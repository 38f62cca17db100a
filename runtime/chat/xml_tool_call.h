// Qwen3-Coder's XML tool calls: <function=NAME><parameter=KEY>VALUE</parameter></function>,
// read into a name and JSON arguments typed by the request's tool schemas.
#ifndef CPUBRRR_RUNTIME_CHAT_XML_TOOL_CALL_H_
#define CPUBRRR_RUNTIME_CHAT_XML_TOOL_CALL_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"
#include "runtime/chat/chat_types.h"

namespace cpubrrr {

// For each tool, its parameters with a declared type: true for those whose schema admits
// only strings ("type": "string"), whose values stay text even when they look like JSON;
// false for the others, whose values may also be Python's True, False and None (the
// template prints booleans and null so when it renders a call).
using StringParameters = std::map<std::string, std::map<std::string, bool>>;

// Reads them from OpenAI-style tool entries ({"type": "function", "function": {"name",
// "parameters": {"properties": {...}}}}); entries of another shape are skipped.
StringParameters StringParametersOf(const std::vector<nlohmann::ordered_json>& tools);

// Parses the body of a <tool_call> block: "<function=NAME>", then "<parameter=KEY>\n" VALUE
// "\n</parameter>" for each argument, then "</function>", whitespace around the tags
// allowed. A value runs to the first "</parameter>" (or, when the model left it out, to
// the next line starting "<parameter=" or "</function>"): a value holding that text
// itself is cut there, the format has no escape. A value is text for a string parameter, else JSON when it parses as JSON, else
// text (a typed parameter's True / False / None read as true / false / null). Returns nullopt when the body is not of this form (the caller shows it as text).
// The call's id is left empty.
std::optional<ToolCall> ParseXmlToolCall(std::string_view body, const StringParameters& strings);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_XML_TOOL_CALL_H_
