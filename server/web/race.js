// The race view: one prompt to this server and to another OpenAI-compatible endpoint (through
// this server's /race/ pass-through), two lanes streaming with live speed, then the ratio.
import { getJson, streamEvents } from './api.js';
import { StreamClock, formatRate, formatSeconds } from './speed.js';

const $ = (id) => document.getElementById(id);

// One lane's output and counters.
class Lane {
  constructor(prefix) {
    this.text = $(`${prefix}-text`);
    this.rate = $(`${prefix}-rate`);
    this.stats = $(`${prefix}-stats`);
  }

  reset() {
    this.text.replaceChildren();
    this.rate.textContent = '– tok/s';
    this.stats.textContent = 'waiting…';
    this.reasoning = null;
    this.content = null;
  }

  append(kind, piece) {
    if (!this[kind]) {
      this[kind] = document.createElement('span');
      this[kind].className = kind;
      this.text.append(this[kind]);
    }
    this[kind].textContent += piece;
  }

  show(clock, state) {
    this.rate.textContent = formatRate(state === 'done' ? clock.serverDecodeRate() ?? clock.decodeRate() : clock.decodeRate());
    const prompt = clock.promptRate();
    this.stats.textContent = [
      state,
      `first token ${formatSeconds(clock.ttft())}`,
      `${clock.tokens()} tokens`,
      prompt ? `prompt ${prompt.estimated ? '≈' : ''}${formatRate(prompt.rate)}` : null,
    ].filter(Boolean).join(' · ');
  }
}

export class RaceView {
  // context: {settings(), model()}
  constructor(context) {
    this.context = context;
    this.controller = null;
    this.us = new Lane('us');
    this.them = new Lane('them');
    this.races = 0;
  }

  targetHeaders() {
    const h = { 'X-Race-Target': $('race-url').value.trim() };
    const key = $('race-key').value;
    if (key) h['X-Race-Key'] = key;
    return h;
  }

  showError(message) {
    const e = $('race-error');
    e.hidden = !message;
    e.textContent = message || '';
  }

  // Fills the model list from the other endpoint's /models.
  async listModels() {
    this.showError('');
    const select = $('race-model');
    try {
      const list = await getJson('/race/models', this.targetHeaders());
      const ids = (list.data || []).map((m) => m.id);
      select.replaceChildren(...ids.map((id) => new Option(id, id)));
      if (ids.length === 0) this.showError('the other endpoint lists no models');
    } catch (e) {
      this.showError(e.message);
    }
  }

  body(model, prompt) {
    const settings = this.context.settings();
    const body = {
      model, messages: [{ role: 'user', content: prompt }], stream: true,
      stream_options: { include_usage: true }, timings_per_token: true,
      temperature: settings.temperature, max_tokens: settings.maxTokens,
    };
    if (this.context.model().architecture === 'gpt-oss') body.reasoning_effort = settings.effort;
    return body;
  }

  async runLane(lane, path, body, extraHeaders) {
    const clock = new StreamClock();
    lane.show(clock, 'running');
    try {
      await streamEvents(path, body, {
        signal: this.controller.signal, extraHeaders,
        onChunk: (chunk) => {
          clock.take(chunk);
          const delta = (chunk.choices && chunk.choices[0] && chunk.choices[0].delta) || {};
          const reasoning = delta.reasoning_content || delta.reasoning;
          if (reasoning) lane.append('reasoning', reasoning);
          if (delta.content) lane.append('content', delta.content);
          lane.show(clock, 'running');
        },
      });
      lane.show(clock, 'done');
      return clock;
    } catch (e) {
      lane.show(clock, e.name === 'AbortError' ? 'stopped' : 'failed');
      if (e.name !== 'AbortError') lane.stats.textContent += `: ${e.message}`;
      return null;
    }
  }

  async run() {
    if (this.controller) return;
    this.showError('');
    $('race-ratio').textContent = '';
    const prompt = $('race-prompt').value.trim();
    const model = $('race-model').value;
    if (!prompt) return this.showError('type a prompt to race with');
    if (!model) return this.showError('list the other endpoint\'s models and pick one');
    let ourBody, theirBody;
    try {
      ourBody = this.body(this.context.model().alias, prompt);
      theirBody = this.body(model, prompt);
    } catch (e) {
      return this.showError(e.message);
    }
    $('them-name').textContent = model;
    this.us.reset();
    this.them.reset();
    this.controller = new AbortController();
    $('race-go').disabled = true;
    $('race-stop').disabled = false;
    const ours = () => this.runLane(this.us, '/v1/chat/completions', ourBody);
    const theirs = () => this.runLane(this.them, '/race/chat/completions', theirBody, this.targetHeaders());
    let us, them;
    try {
      if ($('race-order').value === 'together') {
        [us, them] = await Promise.all([ours(), theirs()]);
      } else if (this.races % 2 === 0) {  // one after the other, who goes first alternating
        us = await ours();
        them = await theirs();
      } else {
        them = await theirs();
        us = await ours();
      }
    } finally {
      this.races++;
      this.controller = null;
      $('race-go').disabled = false;
      $('race-stop').disabled = true;
    }
    if (!us || !them) return;
    // Both servers' own decode timings when both give them: arrival times in the page can
    // bunch up when the machine is busy. Else both timed here, the same way.
    const byServer = us.serverDecodeRate() !== null && them.serverDecodeRate() !== null;
    const a = byServer ? us.serverDecodeRate() : us.decodeRate();
    const b = byServer ? them.serverDecodeRate() : them.decodeRate();
    if (a && b) {
      const basis = byServer ? 'as each server timed its decode' : 'both timed here from first to last token';
      $('race-ratio').textContent =
        `cpubrrr decoded at ${(a / b).toFixed(2)}× the other's speed (${formatRate(a)} vs ${formatRate(b)}, ${basis})`;
    }
  }

  stop() {
    if (this.controller) this.controller.abort();
  }
}
