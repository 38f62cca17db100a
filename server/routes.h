// The route tables, one function per API family.
#ifndef CPUBRRR_SERVER_ROUTES_H_
#define CPUBRRR_SERVER_ROUTES_H_

#include "httplib.h"
#include "server/server_state.h"

namespace cpubrrr::server {

// /v1/models, /v1/chat/completions, /v1/completions (also without /v1).
void AddOpenAiRoutes(httplib::Server& http, ServerState& state);
// /api/version, /api/tags, /api/ps, /api/show, /api/chat, /api/generate.
void AddOllamaRoutes(httplib::Server& http, ServerState& state);
// /v1/responses (OpenAI's Responses API, stateless).
void AddResponsesRoutes(httplib::Server& http, ServerState& state);
// /v1/messages (Anthropic's Messages API).
void AddAnthropicRoutes(httplib::Server& http, ServerState& state);
// /health, /props, /slots, /tokenize, /detokenize, /apply-template, /metrics.
void AddNativeRoutes(httplib::Server& http, ServerState& state);
// / and /web/*: the web page (or Ollama's "Ollama is running" for non-browsers).
void AddWebRoutes(httplib::Server& http, ServerState& state);
// /race/models, /race/chat/completions: the page's pass-through to the endpoint it races.
void AddRaceRoutes(httplib::Server& http, ServerState& state);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_ROUTES_H_
