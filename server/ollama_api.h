// Ollama's /api/chat and /api/generate bodies to engine requests, and its response lines.
#ifndef CPUBRRR_SERVER_OLLAMA_API_H_
#define CPUBRRR_SERVER_OLLAMA_API_H_

#include <string>

#include "absl/status/statusor.h"
#include "runtime/engine/generation.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

struct OllamaRequest {
  std::string model;
  GenerateRequest generate;
  bool stream = true;   // Ollama streams unless told not to
  bool load_only = false;  // /api/generate with an empty prompt: just report the model
};

// /api/chat: model, messages (role, content, thinking, tool_calls with object arguments,
// tool_name), tools, think (bool or low/medium/high), options, stream, format (unsupported
// unless empty), keep_alive (accepted). Sampling defaults are Ollama's.
absl::StatusOr<OllamaRequest> ParseOllamaChat(const Json& body);
// /api/generate: model, prompt, system, raw, think, options, stream, keep_alive.
absl::StatusOr<OllamaRequest> ParseOllamaGenerate(const Json& body);

// Returns Ollama's time format: "2025-01-02T03:04:05.123456789Z" for now.
std::string OllamaTimeNow();
// Returns Unix seconds `t` in Ollama's time format.
std::string OllamaTime(int64_t t);

// The fields of a final line: done, done_reason and the durations (ns) and counts.
Json OllamaDoneFields(const GenerateResult& result, double total_seconds);
// A tool call as Ollama writes it: {"function": {"name", "arguments": {...}}}.
Json OllamaToolCall(const ToolCall& call);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_OLLAMA_API_H_
