// The web page: / and /web/* from the files compiled in (never from disk), and Ollama's
// "Ollama is running" for a / that does not ask for HTML.
#include <string>

#include "absl/strings/str_replace.h"
#include "server/routes.h"
#include "server/web/web_assets.h"

namespace cpubrrr::server {
namespace {

// The page talks to this server only (the race goes through /race/), and is never framed.
constexpr char kContentSecurityPolicy[] =
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

void SendAsset(const WebAsset& asset, httplib::Response& res) {
  res.set_header("Content-Security-Policy", kContentSecurityPolicy);
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Cache-Control", "no-cache");
  res.set_content(asset.body.data(), asset.body.size(), std::string(asset.content_type).c_str());
}

const WebAsset* FindAsset(const std::string& path) {
  for (const WebAsset& asset : WebAssets()) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

}  // namespace

void AddWebRoutes(httplib::Server& http, ServerState& state) {
  for (const WebAsset& asset : WebAssets()) {
    // Routes are regular expressions: match the name literally.
    http.Get(absl::StrReplaceAll(std::string(asset.path), {{".", "\\."}}),
             [&asset](const httplib::Request&, httplib::Response& res) { SendAsset(asset, res); });
  }
  const WebAsset* index = FindAsset("/web/index.html");
  http.Get("/", [index](const httplib::Request& req, httplib::Response& res) {
    if (index && req.get_header_value("Accept").find("text/html") != std::string::npos) return SendAsset(*index, res);
    res.set_content("Ollama is running", "text/plain");
  });
}

}  // namespace cpubrrr::server
