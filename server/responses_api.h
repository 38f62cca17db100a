// OpenAI's Responses API (stateless): request bodies read as chat completion bodies, and
// the response object and its stream events written from an answer.
#ifndef CPUBRRR_SERVER_RESPONSES_API_H_
#define CPUBRRR_SERVER_RESPONSES_API_H_

#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/engine/generation.h"
#include "server/json_fields.h"

namespace cpubrrr::server {

// POST /v1/responses as the /v1/chat/completions body it means: `instructions` as a
// system message; `input` a string (one user message) or items (messages with string or
// input_text / output_text parts, roles user, system, developer, assistant;
// function_call; function_call_output; reasoning with reasoning_text content), where
// consecutive reasoning, assistant message and function_call items make one assistant
// turn; function `tools` (flat) nested as chat tools, other tool types left out;
// `tool_choice`; `max_output_tokens`; `reasoning.effort`; `text.format` as
// response_format; the sampling fields as they are. Fails with InvalidArgument naming the
// item, or Unimplemented for previous_response_id, conversation, prompt, background, item
// references and images: this server keeps no responses.
absl::StatusOr<Json> ResponsesToChatBody(const Json& body);

// The response object of a finished answer: reasoning, message and function_call output
// items; status "completed", or "incomplete" with incomplete_details when max tokens cut
// it; usage with cached and reasoning token details. `request` is the Responses body it
// answers (its settings are echoed).
Json ResponseObject(const std::string& id, int64_t created, const std::string& model, const Json& request,
                    const GenerateResult& result);

// Writes a streamed answer as the Responses API's events: response.created and
// .in_progress, then per output item .output_item.added, .content_part.added, the text
// or argument deltas, their .done events, .content_part.done and .output_item.done, then
// response.completed (or .incomplete). Each event carries its sequence_number.
class ResponsesEvents {
 public:
  // send(type, data): one event; data holds `type` and `sequence_number` already.
  using Send = std::function<void(const std::string& type, const Json& data)>;

  ResponsesEvents(std::string id, int64_t created, std::string model, Json request, Send send);

  void Start();
  void Delta(const ChatDelta& delta);
  void Finish(const GenerateResult& result);
  // An "error" event: the answer failed after the stream started.
  void Fail(const std::string& code, const std::string& message);

 private:
  enum class Item { kNone, kReasoning, kMessage };

  void Emit(const std::string& type, Json data);
  // Makes `kind` the open item, closing another first.
  void Open(Item kind);
  void Close();
  Json Shell(const char* status) const;

  std::string id_;
  int64_t created_;
  std::string model_;
  Json request_;
  Send send_;
  int64_t sequence_ = 0;
  Json output_ = Json::array();  // the items so far, the open one last
  Item open_ = Item::kNone;
  std::string text_;             // the open item's text so far
};

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_RESPONSES_API_H_
