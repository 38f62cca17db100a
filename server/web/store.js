// Conversations and settings kept in the browser's local storage.

const CONVERSATIONS = 'cpubrrr.conversations';
const CURRENT = 'cpubrrr.current';
const SETTINGS = 'cpubrrr.settings';

function read(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch (_) {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (_) { /* storage full or refused: the page goes on without saving */ }
}

// Returns every saved conversation, newest first: {id, title, updated, messages: [...]}.
export function loadConversations() {
  const list = read(CONVERSATIONS, []);
  return Array.isArray(list) ? list.sort((a, b) => b.updated - a.updated) : [];
}

export function saveConversations(list) {
  write(CONVERSATIONS, list);
}

export function loadCurrentId() {
  return read(CURRENT, null);
}

export function saveCurrentId(id) {
  write(CURRENT, id);
}

export function loadSettings() {
  return read(SETTINGS, {});
}

export function saveSettings(settings) {
  write(SETTINGS, settings);
}

// Returns a new empty conversation.
export function newConversation() {
  const id = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { id, title: 'New chat', updated: Date.now(), messages: [] };
}
