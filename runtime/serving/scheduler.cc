// The step loop: admit waiting jobs into free slots (longest cached prefix first), run one
// ForwardBatch over every decoding slot and a chunk of pending prompt, sample each slot's
// next token, and relay the turns' deltas to the callers' threads.
#include "runtime/serving/scheduler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <optional>
#include <utility>
#include <variant>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "runtime/engine/turn.h"

namespace cpubrrr {
namespace {

using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// Returns `text` as a client reading it from JSON has it, and so sends it back: each
// ill-formed UTF-8 sequence (a random or broken model can emit one) replaced by U+FFFD,
// as the server's JSON writer replaces it.
std::string AsJsonClientsReceiveIt(const std::string& text) {
  const std::string dumped = nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return nlohmann::json::parse(dumped).get<std::string>();
}

}  // namespace

// A request between its caller's thread and the step thread.
struct Scheduler::Job {
  const GenerateRequest* request = nullptr;
  std::vector<int32_t> prompt;
  GenerateCallbacks relay;         // the turn's callbacks: queue events for the caller
  std::atomic<bool> cancel{false};  // set by the caller
  // Guarded by mu_:
  std::vector<std::variant<SampleResult, ChatDelta, GenerateTimings>> events;
  bool done = false;
  absl::StatusOr<GenerateResult> result = absl::UnknownError("not run");
};

// A slot's turn in progress (the step thread's).
struct Scheduler::Slot {
  Job* job = nullptr;  // null: free (written under mu_)
  std::unique_ptr<Turn> turn;  // null until the step thread sets the job up
  uint64_t admitted = 0;       // admission order (prefill goes first come, first served)
  uint32_t fed = 0;            // prompt tokens in the cache
  uint32_t reused = 0;
  std::optional<int32_t> next;  // decoding: the token to run
  std::vector<float> logits;
  Clock::time_point start, first_logits;
  uint64_t last_used = 0;    // the admission of its last job
  int64_t last_prompt = 0;   // that job's prompt tokens (or the tokens warmed after it)
  // The next turn's history to prefill while idle: the conversation, rendered and
  // tokenized at the first idle step.
  std::optional<GenerateRequest> warm_request;
  std::vector<int32_t> warm;
};

Scheduler::Scheduler(std::unique_ptr<Engine> engine, const SchedulerOptions& options)
    : engine_(std::move(engine)), options_(options), slots_(engine_->slot_count()) {
  for (Slot& s : slots_) s.logits.resize(engine_->model().info().n_vocab);
  stats_.slots = static_cast<uint32_t>(slots_.size());
  stats_.slot_busy.assign(slots_.size(), false);
  thread_ = std::thread([this] { Loop(); });
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (Slot& s : slots_) {
      if (s.job != nullptr) s.job->cancel = true;
    }
    for (Job* job : waiting_) {
      job->result = absl::UnavailableError("the server is stopping");
      job->done = true;
    }
    waiting_.clear();
    stats_.waiting = 0;
  }
  progress_.notify_all();
  work_.notify_all();
  thread_.join();
  // Callers still inside Generate have their result; wait until they are out.
  std::unique_lock<std::mutex> lock(mu_);
  progress_.wait(lock, [&] { return callers_ == 0; });
}

bool Scheduler::HasRoomLocked() const {
  return stats_.running + waiting_.size() < slots_.size() + options_.max_waiting;
}

bool Scheduler::HasRoom() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !stopping_ && HasRoomLocked();
}

ServingStats Scheduler::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

absl::StatusOr<GenerateResult> Scheduler::Generate(const GenerateRequest& request,
                                                   const GenerateCallbacks& callbacks) {
  std::unique_lock<std::mutex> lock(mu_);
  if (stopping_) return absl::UnavailableError("the server is stopping");
  ++callers_;
  struct Count {
    Scheduler* s;
    std::unique_lock<std::mutex>* lock;
    ~Count() {
      if (!lock->owns_lock()) lock->lock();
      --s->callers_;
      s->progress_.notify_all();
    }
  } count{this, &lock};
  lock.unlock();
  absl::StatusOr<std::vector<int32_t>> prompt = engine_->TokenizePrompt(request);
  if (!prompt.ok()) return prompt.status();
  if (absl::Status fits = engine_->CheckFits(*prompt); !fits.ok()) return fits;
  Job job;
  job.request = &request;
  job.prompt = *std::move(prompt);
  auto push = [this, &job](auto event) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      job.events.push_back(std::move(event));
    }
    progress_.notify_all();
  };
  job.relay.on_delta = [push](const ChatDelta& d) { push(d); };
  job.relay.on_token = [push](const SampleResult& t) { push(t); };
  job.relay.on_prompt = [push](const GenerateTimings& t) { push(t); };
  job.relay.cancelled = [&job] { return job.cancel.load(); };

  lock.lock();
  if (stopping_) return absl::UnavailableError("the server is stopping");
  if (!HasRoomLocked()) {
    return absl::UnavailableError(absl::StrCat("the server is busy: ", stats_.running, " requests running and ",
                                               waiting_.size(), " waiting"));
  }
  waiting_.push_back(&job);
  stats_.waiting = static_cast<uint32_t>(waiting_.size());
  work_.notify_one();
  // However this ends (a callback may throw), the step thread lets go of the job first.
  struct Leave {
    Scheduler* s;
    Job* job;
    std::unique_lock<std::mutex>* lock;
    ~Leave() {
      if (!lock->owns_lock()) lock->lock();
      auto it = std::find(s->waiting_.begin(), s->waiting_.end(), job);
      if (it != s->waiting_.end()) {
        s->waiting_.erase(it);
        s->stats_.waiting = static_cast<uint32_t>(s->waiting_.size());
        return;
      }
      if (job->done) return;
      job->cancel = true;
      s->progress_.wait(*lock, [&] { return job->done; });
    }
  } leave{this, &job, &lock};
  for (;;) {
    progress_.wait_for(lock, std::chrono::milliseconds(50), [&] { return job.done || !job.events.empty(); });
    std::vector<std::variant<SampleResult, ChatDelta, GenerateTimings>> events;
    events.swap(job.events);
    const bool done = job.done;  // every event of the turn came before its end
    lock.unlock();
    for (const auto& e : events) {
      if (const auto* t = std::get_if<SampleResult>(&e)) {
        if (callbacks.on_token) callbacks.on_token(*t);
      } else if (const auto* d = std::get_if<ChatDelta>(&e)) {
        if (callbacks.on_delta) callbacks.on_delta(*d);
      } else if (callbacks.on_prompt) {
        callbacks.on_prompt(std::get<GenerateTimings>(e));
      }
    }
    const bool cancel = !done && callbacks.cancelled && callbacks.cancelled();
    lock.lock();
    if (done) break;
    if (cancel) {
      // Still waiting: Leave takes it out of the queue.
      if (std::find(waiting_.begin(), waiting_.end(), &job) != waiting_.end()) {
        return absl::CancelledError("the request was cancelled while waiting");
      }
      job.cancel = true;
    }
  }
  return std::move(job.result);
}

void Scheduler::Loop() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [&] { return stopping_ || !waiting_.empty() || stats_.running > 0 || stats_.warming > 0; });
      if (stopping_ && stats_.running == 0) return;
      Admit();
    }
    Step();
  }
}

void Scheduler::Admit() {
  while (!waiting_.empty()) {
    Job* job = waiting_.front();
    // The free slot where the prompt gains the most: the prefix it shares with the cache
    // less what it would take away from the slot's last prompt (what that conversation's
    // next turn reuses; its answer the next turn renders anew). So a continuation goes
    // back to its slot, and a new conversation sharing a short template header with
    // another takes an empty slot rather than that one's. Of equals, the one used least
    // recently.
    std::optional<size_t> best;
    int64_t best_gain = 0;
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i].job != nullptr) continue;
      const std::vector<int32_t>& cached = engine_->slot(i).cached;
      const int64_t common =
          std::mismatch(cached.begin(), cached.end(), job->prompt.begin(), job->prompt.end()).first - cached.begin();
      const int64_t gain = common - std::max<int64_t>(0, slots_[i].last_prompt - common);
      if (!best || gain > best_gain || (gain == best_gain && slots_[i].last_used < slots_[*best].last_used)) {
        best = i;
        best_gain = gain;
      }
    }
    if (!best) return;
    waiting_.pop_front();
    if (!slots_[*best].warm.empty() || slots_[*best].warm_request) {  // the compute is wanted
      slots_[*best].warm.clear();
      slots_[*best].warm_request.reset();
      --stats_.warming;
    }
    slots_[*best].job = job;
    slots_[*best].admitted = ++admissions_;
    ++stats_.running;
    stats_.slot_busy[*best] = true;
    stats_.waiting = static_cast<uint32_t>(waiting_.size());
  }
}

void Scheduler::Complete(size_t i, absl::StatusOr<GenerateResult> result) {
  Slot& s = slots_[i];
  s.turn.reset();
  s.next.reset();
  s.last_used = s.admitted;
  s.last_prompt = static_cast<int64_t>(s.job->prompt.size());
  // Copied before the caller has its result (and may let go of its request), rendered
  // after, so the answer is not held up.
  const std::optional<GenerateRequest> next =
      result.ok() ? NextTurnRequest(*s.job->request, *result) : std::nullopt;
  if (result.ok()) {
    const auto now = Clock::now();
    GenerateTimings& t = result->timings;
    t.prompt_tokens = static_cast<uint32_t>(s.job->prompt.size());
    t.reused_tokens = s.reused;
    const bool prefilled = s.fed == s.job->prompt.size();
    t.prompt_seconds = Seconds(s.start, prefilled ? s.first_logits : now);
    t.generation_seconds = prefilled ? Seconds(s.first_logits, now) : 0;
  } else {
    // A failed pass leaves the cache unknown: start it afresh.
    EngineSlot& es = engine_->slot(i);
    es.session->Truncate(0);
    es.cached.clear();
    s.last_prompt = 0;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (result.ok()) {
      const GenerateTimings& t = result->timings;
      ++stats_.requests;
      stats_.prompt_tokens += t.prompt_tokens - t.reused_tokens;
      stats_.reused_tokens += t.reused_tokens;
      stats_.generated_tokens += t.generated_tokens;
      stats_.prompt_seconds += t.prompt_seconds;
      stats_.generation_seconds += t.generation_seconds;
    }
    if (next) ++stats_.warming;  // counted from now, so a caller can wait for it
    s.job->result = std::move(result);
    s.job->done = true;
    s.job = nullptr;
    --stats_.running;
    stats_.slot_busy[i] = false;
  }
  progress_.notify_all();
  s.warm_request = std::move(next);
}

std::optional<GenerateRequest> Scheduler::NextTurnRequest(const GenerateRequest& request,
                                                          const GenerateResult& result) const {
  if (!options_.prefill_next_turn || request.raw_prompt.has_value()) return std::nullopt;
  if (result.finish == FinishReason::kCancelled || result.finish == FinishReason::kContextFull) {
    return std::nullopt;
  }
  // The conversation as the next request will send it, up to where its new message
  // begins: an empty user message after the answer keeps the answer rendered as history
  // (both templates drop its reasoning there) and ends the shared part just before the
  // user's text.
  GenerateRequest next;
  next.chat = request.chat;
  next.chat.messages.push_back(result.message);
  ChatMessage& answer = next.chat.messages.back();
  for (std::string* text : {&answer.content, &answer.reasoning}) *text = AsJsonClientsReceiveIt(*text);
  for (ToolCall& call : answer.tool_calls) call.arguments = AsJsonClientsReceiveIt(call.arguments);
  next.chat.messages.push_back({.role = "user"});
  return next;
}

void Scheduler::WarmStep() {
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.job != nullptr || (s.warm.empty() && !s.warm_request)) continue;
    if (s.warm_request) {
      absl::StatusOr<std::vector<int32_t>> tokens = engine_->TokenizePrompt(*s.warm_request);
      s.warm_request.reset();
      if (!tokens.ok() || tokens->empty() || tokens->size() > engine_->context_length()) {
        std::lock_guard<std::mutex> lock(mu_);
        --stats_.warming;
        return;
      }
      s.warm = *std::move(tokens);
      s.last_prompt = static_cast<int64_t>(s.warm.size());
    }
    EngineSlot& es = engine_->slot(i);
    engine_->Reuse(es, s.warm);
    const size_t n = std::min<size_t>(std::max<uint32_t>(options_.warm_chunk, 1), s.warm.size() - es.cached.size());
    const absl::Span<const int32_t> chunk = absl::MakeConstSpan(s.warm).subspan(es.cached.size(), n);
    const ForwardEntry entry{es.session.get(), chunk, {}};
    const auto start = std::chrono::steady_clock::now();
    const absl::Status status = engine_->model().ForwardBatch({&entry, 1});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    bool finished = !status.ok();
    if (status.ok()) {
      es.cached.insert(es.cached.end(), chunk.begin(), chunk.end());
      if (es.cached.size() == s.warm.size()) {
        // The next prompt diverges a few tokens before this end (at the user's text, after
        // the empty message's header); a rewind that short stays within the ring's slack.
        es.session->Checkpoint();
        finished = true;
      }
    } else {
      es.session->Truncate(0);
      es.cached.clear();
      s.last_prompt = 0;
    }
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.steps;
    stats_.step_seconds += seconds;
    ++stats_.step_rows;
    if (status.ok()) stats_.warmed_tokens += n;
    if (finished) {
      s.warm.clear();
      --stats_.warming;
    }
    return;
  }
}

void Scheduler::Step() {
  // Set up newly admitted jobs, and end cancelled ones before they cost a pass.
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.job == nullptr) continue;
    if (!s.turn) {
      s.start = Clock::now();
      s.reused = s.fed = s.job->cancel ? 0 : engine_->Reuse(engine_->slot(i), s.job->prompt);
      s.turn = std::make_unique<Turn>(*s.job->request, engine_->tokenizer(), engine_->token_texts(), engine_->chat_format(),
                                      engine_->stop_ids(), s.job->prompt, s.job->relay);
    }
    if (s.job->cancel) {
      s.turn->Cancel();
      Complete(i, s.turn->Finish());
    }
  }
  std::vector<ForwardEntry> entries;
  std::vector<size_t> owner;     // entries' slots
  std::vector<uint32_t> chunk;   // entries' prompt tokens (0: a decode row)
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.job == nullptr || !s.next) continue;
    entries.push_back({engine_->slot(i).session.get(), {&*s.next, 1}, absl::MakeSpan(s.logits)});
    owner.push_back(i);
    chunk.push_back(0);
  }
  // Prompt chunks, first admitted first, within the step's budget.
  std::vector<size_t> prefilling;
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].job != nullptr && !slots_[i].next) prefilling.push_back(i);
  }
  std::sort(prefilling.begin(), prefilling.end(),
            [&](size_t a, size_t b) { return slots_[a].admitted < slots_[b].admitted; });
  uint32_t budget = entries.empty() ? engine_->batch_size() : std::max<uint32_t>(options_.prefill_chunk, 1);
  for (size_t i : prefilling) {
    if (budget == 0) break;
    Slot& s = slots_[i];
    const std::vector<int32_t>& prompt = s.job->prompt;
    const uint32_t n = std::min<uint32_t>(budget, static_cast<uint32_t>(prompt.size()) - s.fed);
    const bool last = s.fed + n == prompt.size();
    entries.push_back({engine_->slot(i).session.get(), absl::MakeConstSpan(prompt).subspan(s.fed, n),
                       last ? absl::MakeSpan(s.logits) : absl::Span<float>()});
    owner.push_back(i);
    chunk.push_back(n);
    budget -= n;
  }
  if (entries.empty()) {
    WarmStep();
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const absl::Status status = engine_->model().ForwardBatch(entries);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.steps;
    stats_.step_seconds += seconds;
    stats_.step_rows += entries.size();
  }
  for (size_t e = 0; e < entries.size(); ++e) {
    const size_t i = owner[e];
    Slot& s = slots_[i];
    if (!status.ok()) {
      Complete(i, status);
      continue;
    }
    EngineSlot& es = engine_->slot(i);
    es.cached.insert(es.cached.end(), entries[e].tokens.begin(), entries[e].tokens.end());
    if (chunk[e] > 0) {
      s.fed += chunk[e];
      if (entries[e].logits.empty()) continue;
      // The next turn's prompt usually diverges right after this one (Engine::Prefill).
      es.session->Checkpoint();
      s.first_logits = Clock::now();
      s.job->relay.on_prompt({.prompt_tokens = static_cast<uint32_t>(s.job->prompt.size()), .reused_tokens = s.reused,
                              .prompt_seconds = Seconds(s.start, s.first_logits)});
    }
    s.next = s.turn->Next(absl::MakeSpan(s.logits), es.session->position() < es.session->context_length());
    if (!s.next) Complete(i, s.turn->Finish());
  }
}

}  // namespace cpubrrr
