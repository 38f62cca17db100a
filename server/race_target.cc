// The race target's URL check: http only, a plain host and port, loopback unless allowed.
#include "server/race_target.h"

#include <cstdlib>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace cpubrrr::server {
namespace {

absl::string_view WithoutTrailingSlashes(absl::string_view url) {
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  return url;
}

bool IsLoopback(const std::string& host) {
  if (absl::AsciiStrToLower(host) == "localhost" || host == "::1") return true;
  const std::vector<absl::string_view> parts = absl::StrSplit(host, '.');
  if (parts.size() != 4 || parts[0] != "127") return false;
  for (absl::string_view part : parts) {
    int value = 0;
    if (part.empty() || part.size() > 3 || !absl::SimpleAtoi(part, &value) || value > 255) return false;
  }
  return true;
}

bool IsHostChar(char c) { return absl::ascii_isalnum(c) || c == '.' || c == '-'; }

}  // namespace

absl::StatusOr<RaceTarget> ParseRaceTarget(const std::string& url, const std::string& allowed) {
  constexpr absl::string_view kScheme = "http://";
  if (url.empty()) return absl::InvalidArgumentError("no race endpoint given (the X-Race-Target header)");
  if (!absl::StartsWith(url, kScheme)) {
    return absl::InvalidArgumentError("the race endpoint must be an http:// URL: " + url);
  }
  for (char c : url) {
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f || c == '?' || c == '#' || c == '@' || c == '\\') {
      return absl::InvalidArgumentError("the race endpoint holds a character a base URL cannot: " + url);
    }
  }
  absl::string_view rest = absl::string_view(url).substr(kScheme.size());
  const size_t slash = rest.find('/');
  const absl::string_view authority = rest.substr(0, slash);
  RaceTarget target;
  target.base_path = std::string(WithoutTrailingSlashes(slash == absl::string_view::npos ? "" : rest.substr(slash)));
  absl::string_view port;
  if (absl::StartsWith(authority, "[")) {  // [IPv6]:port
    const size_t close = authority.find(']');
    if (close == absl::string_view::npos) return absl::InvalidArgumentError("an unclosed '[' in " + url);
    target.host = std::string(authority.substr(1, close - 1));
    const absl::string_view after = authority.substr(close + 1);
    if (!after.empty() && after[0] != ':') return absl::InvalidArgumentError("bad host in " + url);
    if (!after.empty()) port = after.substr(1);
    for (char c : target.host) {
      if (!absl::ascii_isxdigit(c) && c != ':') return absl::InvalidArgumentError("bad IPv6 address in " + url);
    }
  } else {
    const size_t colon = authority.find(':');
    target.host = std::string(authority.substr(0, colon));
    if (colon != absl::string_view::npos) port = authority.substr(colon + 1);
    for (char c : target.host) {
      if (!IsHostChar(c)) return absl::InvalidArgumentError("bad host in " + url);
    }
  }
  if (target.host.empty()) return absl::InvalidArgumentError("no host in " + url);
  if (!port.empty() && (!absl::SimpleAtoi(port, &target.port) || target.port < 1 || target.port > 65535)) {
    return absl::InvalidArgumentError("bad port in " + url);
  }
  for (absl::string_view segment : absl::StrSplit(target.base_path, '/')) {
    if (segment == ".." || segment == ".") return absl::InvalidArgumentError("'.' or '..' in the path of " + url);
  }
  if (target.base_path == "/race" || absl::StartsWith(target.base_path, "/race/")) {
    return absl::InvalidArgumentError("the race endpoint cannot be a /race/ route: " + url);
  }
  if (!allowed.empty()) {
    if (WithoutTrailingSlashes(url) != WithoutTrailingSlashes(allowed)) {
      return absl::PermissionDeniedError("this server races only against " + allowed + " (--race-url)");
    }
  } else if (!IsLoopback(target.host)) {
    return absl::PermissionDeniedError("the race endpoint must be on loopback unless the server names it with --race-url: " + url);
  }
  return target;
}

absl::Status CheckRaceCaller(const std::string& host, const std::string& origin, const std::string& bind,
                             const std::string& allowed) {
  if (!IsLoopback(bind) && allowed.empty()) {
    return absl::PermissionDeniedError("the race is off on a server that listens beyond loopback (" + bind +
                                       ") unless --race-url names the endpoint");
  }
  // The Host header without its port: "127.0.0.1:8080", "[::1]:8080", "localhost".
  absl::string_view name = host;
  if (absl::StartsWith(name, "[")) {
    name = name.substr(1, name.find(']') == absl::string_view::npos ? 0 : name.find(']') - 1);
  } else if (const size_t colon = name.find(':'); colon != absl::string_view::npos) {
    name = name.substr(0, colon);
  }
  if (!IsLoopback(std::string(name)) && name != bind) {
    return absl::PermissionDeniedError("the race takes requests addressed to this server by its own address, not '" +
                                       host + "'");
  }
  if (!origin.empty() && origin != "http://" + host) {
    return absl::PermissionDeniedError("the race takes requests from this server's own page, not from " + origin);
  }
  return absl::OkStatus();
}

}  // namespace cpubrrr::server
