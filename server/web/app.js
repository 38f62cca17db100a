// The page's start: model facts, settings, the conversation list, tabs and keys.
import { getJson, getText, setApiKey } from './api.js';
import { ChatView } from './chat.js';
import { RaceView } from './race.js';
import {
  loadConversations, loadCurrentId, loadSettings, newConversation, saveConversations, saveCurrentId, saveSettings,
} from './store.js';

const $ = (id) => document.getElementById(id);

let conversations = loadConversations();
let current = conversations.find((c) => c.id === loadCurrentId()) || null;
if (!current) {
  current = newConversation();
  conversations.unshift(current);
}
let model = { alias: '', architecture: '' };
let metrics = { bytesPerToken: 0, readBytesPerSecond: 0 };

// The settings fields, saved as they change.
const fields = {
  system: ['set-system', 'value', ''],
  temperature: ['set-temperature', 'value', '0.7'],
  maxTokens: ['set-max-tokens', 'value', '1024'],
  effort: ['set-effort', 'value', 'medium'],
  thinking: ['set-thinking', 'checked', true],
  tools: ['set-tools', 'value', ''],
  key: ['set-key', 'value', ''],
};
const stored = loadSettings();
for (const [name, [id, prop, fallback]] of Object.entries(fields)) {
  $(id)[prop] = stored[name] ?? fallback;
  $(id).addEventListener('change', () => {
    const values = {};
    for (const [n, [i, p]] of Object.entries(fields)) values[n] = $(i)[p];
    saveSettings(values);
    if (name === 'key') loadModel();
  });
}

function settings() {
  let tools = null;
  const text = $('set-tools').value.trim();
  if (text) {
    try {
      tools = JSON.parse(text);
    } catch (e) {
      throw new Error(`the tools setting is not JSON: ${e.message}`);
    }
  }
  return {
    system: $('set-system').value.trim(),
    temperature: Number($('set-temperature').value),
    maxTokens: Math.max(1, Math.floor(Number($('set-max-tokens').value) || 1)),
    effort: $('set-effort').value,
    thinking: $('set-thinking').checked,
    tools,
  };
}

function renderList() {
  const list = $('conversations');
  list.replaceChildren(...conversations.filter((c) => c.messages.length > 0 || c === current).map((c) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = c.title;
    button.className = 'conversation';
    button.setAttribute('aria-current', c === current ? 'true' : 'false');
    button.addEventListener('click', () => setCurrent(c));
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'remove';
    remove.textContent = '×';
    remove.setAttribute('aria-label', `Delete ${c.title}`);
    remove.addEventListener('click', () => removeConversation(c));
    item.append(button, remove);
    return item;
  }));
}

function setCurrent(c) {
  if (chat.busy()) return;
  if (!conversations.includes(c)) conversations.unshift(c);
  current = c;
  saveCurrentId(c.id);
  renderList();
  chat.render();
}

function removeConversation(c) {
  if (chat.busy() && c === current) return;
  conversations = conversations.filter((x) => x !== c);
  saveConversations(conversations);
  if (c === current) setCurrent(conversations[0] || newConversation());
  else renderList();
}

const chat = new ChatView({
  conversations: () => conversations,
  current: () => current,
  setCurrent,
  settings,
  model: () => model,
  metrics: () => metrics,
  onListChanged: renderList,
});
const race = new RaceView({ settings, model: () => model });

function fact(name, value) {
  const row = document.createElement('div');
  const dt = document.createElement('dt');
  const dd = document.createElement('dd');
  dt.textContent = name;
  dd.textContent = value;
  row.append(dt, dd);
  return row;
}

function formatCount(n) {
  return n >= 1e9 ? `${(n / 1e9).toFixed(1)} B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : String(n);
}

// Reads the model's facts from /props and the bandwidth figures from /metrics.
async function loadModel() {
  setApiKey($('set-key').value);
  try {
    const props = await getJson('/props');
    const info = props.model_info || {};
    model = { alias: props.model_alias, architecture: info.architecture || '' };
    $('model-name').textContent = props.model_alias;
    $('model-facts').replaceChildren(
      fact('name', props.model_alias),
      fact('architecture', info.architecture || '?'),
      fact('parameters', formatCount(info.n_params || 0)),
      fact('context', `${props.default_generation_settings.n_ctx} tokens (trained ${info.n_ctx_train || '?'})`),
      fact('quantization', info.quantization || '?'),
      fact('file', `${((info.file_bytes || 0) / 2 ** 30).toFixed(2)} GiB`),
      fact('slots', String(props.total_slots)),
    );
    $('effort-row').hidden = model.architecture !== 'gpt-oss';
    $('thinking-row').hidden = model.architecture !== 'qwen3moe';
    const text = await getText('/metrics');
    const gauge = (name) => {
      const m = text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
      return m ? Number(m[1]) : 0;
    };
    metrics = {
      bytesPerToken: gauge('cpubrrr:weight_bytes_per_token'),
      readBytesPerSecond: gauge('cpubrrr:memory_read_bytes_per_second'),
    };
    chat.showError('');
  } catch (e) {
    $('model-name').textContent = 'not ready';
    chat.showError(`${e.message}${/key/i.test(e.message) ? ' (set the API key in Settings)' : ''}`);
    // The server listens while the model loads (503): ask again until it is up.
    if (/loading/i.test(e.message)) setTimeout(loadModel, 2000);
  }
}

function showTab(name) {
  $('tab-chat').setAttribute('aria-pressed', String(name === 'chat'));
  $('tab-race').setAttribute('aria-pressed', String(name === 'race'));
  $('chat-view').hidden = name !== 'chat';
  $('race-view').hidden = name !== 'race';
  document.querySelector('.side').classList.toggle('race-mode', name === 'race');
}

function sendPrompt() {
  const box = $('prompt');
  const text = box.value;
  if (!text.trim() || chat.busy()) return;
  let ok = true;
  try {
    settings();
  } catch (e) {
    chat.showError(e.message);
    ok = false;
  }
  if (!ok) return;
  box.value = '';
  chat.send(text);
}

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  sendPrompt();
});
$('prompt').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    sendPrompt();
  }
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  chat.stop();
  race.stop();
});
$('stop').addEventListener('click', () => chat.stop());
$('new-chat').addEventListener('click', () => {
  chat.fresh();
  $('prompt').focus();
});
$('tab-chat').addEventListener('click', () => showTab('chat'));
$('tab-race').addEventListener('click', () => showTab('race'));
$('race-models').addEventListener('click', () => race.listModels());
$('race-form').addEventListener('submit', (e) => {
  e.preventDefault();
  race.run();
});
$('race-stop').addEventListener('click', () => race.stop());

renderList();
chat.render();
showTab('chat');
loadModel();
