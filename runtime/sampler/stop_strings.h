// Stop strings over streamed text: matches across piece boundaries and holds back text
// that may be the start of a stop string until the next piece decides.
#ifndef CPUBRRR_RUNTIME_SAMPLER_STOP_STRINGS_H_
#define CPUBRRR_RUNTIME_SAMPLER_STOP_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace cpubrrr {

class StopStringMatcher {
 public:
  struct Result {
    std::string text;      // safe to emit now
    bool stopped = false;  // a stop string matched; `text` ends right before it
  };

  // Empty stop strings are ignored.
  explicit StopStringMatcher(std::vector<std::string> stops);

  // Consumes `piece`; after a stop, returns nothing more.
  Result Feed(std::string_view piece);
  // Returns the held-back text at the end of generation (no stop matched).
  std::string Flush();
  bool stopped() const { return stopped_; }

 private:
  std::vector<std::string> stops_;
  std::string held_;
  bool stopped_ = false;
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_SAMPLER_STOP_STRINGS_H_
