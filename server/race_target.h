// Where the web page's race may send requests: one OpenAI-compatible base URL, checked.
#ifndef CPUBRRR_SERVER_RACE_TARGET_H_
#define CPUBRRR_SERVER_RACE_TARGET_H_

#include <string>

#include "absl/status/statusor.h"

namespace cpubrrr::server {

struct RaceTarget {
  std::string host;       // a name or an address, IPv6 without brackets
  int port = 80;
  std::string base_path;  // "/v1", or "" for the server's root; no trailing '/'
};

// Parses `url` ("http://HOST[:PORT][/PATH]") as the base of an OpenAI-compatible API. With
// `allowed` empty, HOST must be a loopback address or "localhost"; otherwise `url` must be
// `allowed` (trailing slashes aside). Refuses credentials, queries, fragments, "..", and
// paths under /race (a race that proxies itself would never end). Fails with
// InvalidArgument or PermissionDenied saying why.
absl::StatusOr<RaceTarget> ParseRaceTarget(const std::string& url, const std::string& allowed);

// Checks who asks for a race, so that the pass-through reaches loopback only for this
// machine's own pages: `host` (the request's Host header) must name loopback or the
// server's `bind` address, an `origin` header must be that same http origin (a page from
// elsewhere, or a rebound DNS name, is refused), and a server bound beyond loopback races
// only with `allowed` (--race-url) set. Fails with PermissionDenied saying why.
absl::Status CheckRaceCaller(const std::string& host, const std::string& origin, const std::string& bind,
                             const std::string& allowed);

}  // namespace cpubrrr::server

#endif  // CPUBRRR_SERVER_RACE_TARGET_H_
