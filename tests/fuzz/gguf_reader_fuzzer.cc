// libFuzzer target: parses arbitrary bytes as GGUF and touches everything it accepts.
#include <cstdint>
#include <string_view>

#include "runtime/gguf/gguf_file.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// Reads every getter of `key`; only the absence of crashes and sanitizer reports matters.
void TouchValue(const cpubrrr::GgufFile& f, std::string_view key) {
  (void)f.GetU8(key);
  (void)f.GetI16(key);
  (void)f.GetU32(key);
  (void)f.GetI32(key);
  (void)f.GetU64(key);
  (void)f.GetI64(key);
  (void)f.GetF32(key);
  (void)f.GetF64(key);
  (void)f.GetBool(key);
  (void)f.GetString(key);
  (void)f.GetStringArray(key);
  (void)f.GetArrayI32(key);
  (void)f.GetArrayU32(key);
  (void)f.GetArrayI64(key);
  (void)f.GetArrayF32(key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  absl::StatusOr<cpubrrr::GgufFile> f = cpubrrr::OpenGgufFromMemory({data, size});
  if (!f.ok()) {
    FuzzCheck(f.status().code() == absl::StatusCode::kInvalidArgument &&
                  f.status().message().rfind("malformed GGUF at byte offset ", 0) == 0,
              "error is not a malformed-file error naming an offset");
    return 0;
  }
  for (const cpubrrr::GgufKv& kv : f->kvs()) {
    FuzzCheck(f->Find(kv.key) == &kv.value, "key lookup disagrees with the key list");
    TouchValue(*f, kv.key);
  }
  const uint8_t* end = data + size;
  for (const cpubrrr::GgufTensor& t : f->tensors()) {
    FuzzCheck(t.data >= data && t.bytes > 0 && t.bytes <= static_cast<size_t>(end - t.data),
              "tensor data outside the input");
    FuzzCheck(f->FindTensor(t.name) == &t, "tensor lookup disagrees with the tensor list");
    volatile uint8_t sink = t.data[0] ^ t.data[t.bytes - 1];
    (void)sink;
  }
  return 0;
}
