// The chat view: the conversation's messages, sending a turn as a stream, stopping it, and
// the live speed gauges.
import { streamEvents } from './api.js';
import { StreamClock, drawPlot, formatRate, formatSeconds } from './speed.js';
import { saveConversations, saveCurrentId, newConversation } from './store.js';

const $ = (id) => document.getElementById(id);

function element(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// Adds each streamed tool-call delta into `calls` (OpenAI numbers them by `index`).
function mergeToolCalls(calls, deltas) {
  for (const d of deltas) {
    const i = d.index ?? calls.length;
    calls[i] = calls[i] || { id: d.id || '', name: '', arguments: '' };
    if (d.id) calls[i].id = d.id;
    if (d.function && d.function.name) calls[i].name += d.function.name;
    if (d.function && d.function.arguments) calls[i].arguments += d.function.arguments;
  }
}

// One message's block; update(message) redraws it as the message grows.
function messageView(message) {
  const article = element('article', `msg ${message.role}`);
  article.append(element('h3', 'who', message.role === 'user' ? 'You' : 'Assistant'));
  const reasoning = element('details', 'reasoning');
  reasoning.append(element('summary', '', 'Reasoning'), element('div', 'reasoning-text'));
  const tools = element('div', 'tool-calls');
  const content = element('div', 'content');
  const meta = element('p', 'meta');
  article.append(reasoning, tools, content, meta);
  const update = (m) => {
    reasoning.hidden = !m.reasoning;
    reasoning.lastChild.textContent = m.reasoning || '';
    tools.replaceChildren(...(m.tool_calls || []).map((c) => element('pre', 'tool-call', `${c.name}(${c.arguments})`)));
    content.textContent = m.content || '';
    meta.textContent = m.meta || '';
  };
  update(message);
  return { article, update };
}

export class ChatView {
  // context: {conversations, current, settings(), model(), metrics(), onListChanged()}
  constructor(context) {
    this.context = context;
    this.controller = null;
  }

  conversation() {
    return this.context.current();
  }

  render() {
    const list = $('messages');
    list.replaceChildren(...this.conversation().messages.map((m) => messageView(m).article));
    list.scrollTop = list.scrollHeight;
  }

  busy() {
    return this.controller !== null;
  }

  stop() {
    if (this.controller) this.controller.abort();
  }

  showError(message) {
    const e = $('chat-error');
    e.hidden = !message;
    e.textContent = message || '';
  }

  // The request for the conversation so far, with the settings of the page.
  requestBody() {
    const settings = this.context.settings();
    const model = this.context.model();
    const messages = [];
    if (settings.system) messages.push({ role: 'system', content: settings.system });
    for (const m of this.conversation().messages) {
      if (m.role === 'user') {
        messages.push({ role: 'user', content: m.content });
      } else if (m.role === 'assistant') {
        const calls = m.tool_calls || [];
        if (!m.content && calls.length === 0) continue;  // a failed or empty answer
        const a = { role: 'assistant', content: m.content || '' };
        if (m.reasoning) a.reasoning_content = m.reasoning;
        if (calls.length > 0) {
          a.tool_calls = calls.map((c, i) => ({
            id: c.id || `call_${i}`, type: 'function', function: { name: c.name, arguments: c.arguments },
          }));
        }
        messages.push(a);
      }
    }
    const body = {
      model: model.alias, messages, stream: true, stream_options: { include_usage: true },
      timings_per_token: true, temperature: settings.temperature, max_tokens: settings.maxTokens,
    };
    if (model.architecture === 'gpt-oss') body.reasoning_effort = settings.effort;
    if (model.architecture === 'qwen3moe') body.chat_template_kwargs = { enable_thinking: settings.thinking };
    if (settings.tools) body.tools = settings.tools;
    return body;
  }

  // Sends `text` as the next user turn and streams the answer into the conversation.
  async send(text) {
    if (this.busy() || !text.trim()) return;
    this.showError('');
    const conversation = this.conversation();
    if (conversation.messages.length === 0) conversation.title = text.trim().slice(0, 48);
    conversation.messages.push({ role: 'user', content: text });
    const body = this.requestBody();
    const answer = { role: 'assistant', content: '', reasoning: '', tool_calls: [], meta: '' };
    conversation.messages.push(answer);
    this.save();
    this.render();
    // The answer's block, kept to update as the stream grows.
    const live = messageView(answer);
    $('messages').lastChild.replaceWith(live.article);
    const clock = new StreamClock();
    this.controller = new AbortController();
    this.setBusy(true);
    this.gauges(clock, false);
    try {
      await streamEvents('/v1/chat/completions', body, {
        signal: this.controller.signal,
        onChunk: (chunk) => {
          clock.take(chunk);
          const delta = (chunk.choices && chunk.choices[0] && chunk.choices[0].delta) || {};
          if (delta.reasoning_content) answer.reasoning += delta.reasoning_content;
          if (delta.content) answer.content += delta.content;
          if (delta.tool_calls) mergeToolCalls(answer.tool_calls, delta.tool_calls);
          live.update(answer);
          this.gauges(clock, false);
          const list = $('messages');
          list.scrollTop = list.scrollHeight;
        },
      });
      answer.meta = `${clock.tokens()} tokens · ${formatRate(clock.decodeRate())}`;
    } catch (e) {
      if (e.name === 'AbortError') {
        answer.meta = `stopped after ${clock.tokens()} tokens`;
      } else {
        answer.meta = 'failed';
        this.showError(e.message);
      }
    } finally {
      this.controller = null;
      this.setBusy(false);
      this.gauges(clock, true);
      live.update(answer);
      conversation.updated = Date.now();
      this.save();
    }
  }

  setBusy(busy) {
    $('send').disabled = busy;
    $('stop').disabled = !busy;
  }

  // Shows the clock's figures; `done`: the answer has ended (a figure still unknown shows
  // "–", not "…").
  gauges(clock, done) {
    const rate = clock.decodeRate();
    $('g-ttft').textContent = formatSeconds(clock.ttft());
    $('g-decode').textContent = formatRate(rate);
    const metrics = this.context.metrics();
    $('g-ceiling').textContent = rate && metrics.readBytesPerSecond && metrics.bytesPerToken
      ? `${Math.round((100 * rate * metrics.bytesPerToken) / metrics.readBytesPerSecond)}%` : '–';
    // The prompt's figures as soon as the server gives them (with its first token), else
    // "…" while waiting and "–" at the end.
    const prompt = clock.promptRate();
    const cached = clock.cachedTokens();
    const pending = done ? '–' : '…';
    $('g-prompt').textContent = prompt ? `${prompt.estimated ? '≈' : ''}${formatRate(prompt.rate)}` : pending;
    $('g-cached').textContent = cached === null ? pending : String(cached);
    drawPlot($('g-plot'), clock.samples);
  }

  save() {
    saveConversations(this.context.conversations());
    saveCurrentId(this.conversation().id);
    this.context.onListChanged();
  }

  // Starts a new conversation unless the current one is still empty.
  fresh() {
    if (this.conversation().messages.length === 0) return;
    this.context.setCurrent(newConversation());
  }
}
