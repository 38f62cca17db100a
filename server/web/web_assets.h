// The web page's files, compiled into the binary: the server reads nothing from disk.
#ifndef CPUBRRR_SERVER_WEB_WEB_ASSETS_H_
#define CPUBRRR_SERVER_WEB_WEB_ASSETS_H_

#include <string_view>
#include <vector>

namespace cpubrrr::server {

struct WebAsset {
  std::string_view path;          // "/web/index.html"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view body;
};

// Every file of server/web/ that the page is made of.
const std::vector<WebAsset>& WebAssets();

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_WEB_WEB_ASSETS_H_
