// Marker search over streamed text.
#include "runtime/chat/marker_scan.h"

#include <algorithm>

namespace cpubrrr {

MarkerHit FindFirstMarker(std::string_view text, std::initializer_list<std::string_view> markers) {
  MarkerHit best;
  size_t i = 0;
  for (std::string_view m : markers) {
    size_t pos = text.find(m);
    if (pos < best.pos) best = {pos, i, m.size()};
    ++i;
  }
  return best;
}

size_t PartialMarkerSuffix(std::string_view text, std::initializer_list<std::string_view> markers) {
  size_t best = 0;
  for (std::string_view m : markers) {
    for (size_t len = std::min(text.size(), m.size() - 1); len > best; --len) {
      if (text.substr(text.size() - len) == m.substr(0, len)) {
        best = len;
        break;
      }
    }
  }
  return best;
}

}  // namespace cpubrrr
