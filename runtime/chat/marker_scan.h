// Finds special-token texts in streamed text: the first complete one, and a trailing
// partial one that must be held back until the next piece decides it.
#ifndef CPUBRRR_RUNTIME_CHAT_MARKER_SCAN_H_
#define CPUBRRR_RUNTIME_CHAT_MARKER_SCAN_H_

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace cpubrrr {

struct MarkerHit {
  size_t pos = std::string_view::npos;  // npos: none found
  size_t index = 0;                     // which marker
  size_t length = 0;
};

// Returns the earliest occurrence of any of `markers` in `text` (the first listed wins a tie).
MarkerHit FindFirstMarker(std::string_view text, std::initializer_list<std::string_view> markers);

// Returns the length of the longest suffix of `text` that is a proper prefix of one of
// `markers`: text that cannot be emitted yet because the next piece may complete a marker.
size_t PartialMarkerSuffix(std::string_view text, std::initializer_list<std::string_view> markers);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_MARKER_SCAN_H_
