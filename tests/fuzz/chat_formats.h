// Every chat format, for the fuzz targets that try each.
#ifndef CPUBRRR_TESTS_FUZZ_CHAT_FORMATS_H_
#define CPUBRRR_TESTS_FUZZ_CHAT_FORMATS_H_

#include "runtime/engine/chat_format.h"

inline constexpr cpubrrr::ChatFormat kAllChatFormats[] = {
    cpubrrr::ChatFormat::kHarmony, cpubrrr::ChatFormat::kChatMl, cpubrrr::ChatFormat::kQwen3Coder};

#endif  // CPUBRRR_TESTS_FUZZ_CHAT_FORMATS_H_
