// The chat template families: which renderer, output parser and stop tokens a model uses.
#ifndef CPUBRRR_RUNTIME_CHAT_CHAT_FORMAT_ID_H_
#define CPUBRRR_RUNTIME_CHAT_CHAT_FORMAT_ID_H_

namespace cpubrrr {

enum class ChatFormat {
  kHarmony,     // gpt-oss
  kChatMl,      // qwen3moe (Qwen3's ChatML with <think>)
  kQwen3Coder,  // qwen3moe with Qwen3-Coder's template: ChatML, XML tool calls
};

}  // namespace cpubrrr

#endif  // CPUBRRR_RUNTIME_CHAT_CHAT_FORMAT_ID_H_
