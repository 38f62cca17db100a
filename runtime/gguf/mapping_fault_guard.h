// Turns a read fault in a mapped file (SIGBUS: another program truncated the file while it
// was mapped) into a message naming the file and a clean exit instead of a core dump.
#ifndef CPUBRRR_RUNTIME_GGUF_MAPPING_FAULT_GUARD_H_
#define CPUBRRR_RUNTIME_GGUF_MAPPING_FAULT_GUARD_H_

#include <cstddef>
#include <cstdint>

namespace cpubrrr {

// The exit status after such a fault (sysexits' EX_IOERR).
inline constexpr int kMappedFileFaultExit = 74;

// Watches [data, data + size) as a mapping of `path` (which must outlive the watch) and
// installs the SIGBUS handler on first use. Returns a slot for UnwatchMapping, or -1 when
// every slot is taken (a fault there then stays an ordinary SIGBUS). Thread-safe.
int WatchMapping(const uint8_t* data, size_t size, const char* path);

// Stops watching the slot WatchMapping returned (-1 is ignored).
void UnwatchMapping(int slot);

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_GGUF_MAPPING_FAULT_GUARD_H_
