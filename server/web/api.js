// Talking to the server: JSON requests, and OpenAI-style event streams read chunk by chunk.

let apiKey = '';

// Sets the key sent with every request (the server's --api-key), or '' for none.
export function setApiKey(key) {
  apiKey = key || '';
}

function headers(extra) {
  const h = { 'Content-Type': 'application/json', ...extra };
  if (apiKey) h.Authorization = `Bearer ${apiKey}`;
  return h;
}

// Returns the error message an OpenAI-style error body carries, or the raw text.
function errorMessage(status, text) {
  try {
    const body = JSON.parse(text);
    const e = body.error;
    if (typeof e === 'string') return e;
    if (e && e.message) return e.message;
  } catch (_) { /* not JSON */ }
  return `HTTP ${status}: ${text.slice(0, 300)}`;
}

// GETs `path` and returns its JSON; throws an Error with the server's message.
export async function getJson(path, extraHeaders) {
  const res = await fetch(path, { headers: headers(extraHeaders) });
  const text = await res.text();
  if (!res.ok) throw new Error(errorMessage(res.status, text));
  return JSON.parse(text);
}

// GETs `path` as text (for /metrics).
export async function getText(path) {
  const res = await fetch(path, { headers: headers() });
  if (!res.ok) throw new Error(errorMessage(res.status, await res.text()));
  return res.text();
}

// POSTs `body` to `path` as a stream and calls onChunk(json) for each `data:` event until
// `[DONE]` or the end. Throws on an HTTP error or an error event; an abort through `signal`
// ends it with an AbortError.
export async function streamEvents(path, body, { signal, onChunk, extraHeaders } = {}) {
  const res = await fetch(path, {
    method: 'POST', headers: headers(extraHeaders), body: JSON.stringify(body), signal,
  });
  if (!res.ok) throw new Error(errorMessage(res.status, await res.text()));
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, end).replace(/\r$/, '');
      buffered = buffered.slice(end + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      const chunk = JSON.parse(data);
      if (chunk.error) throw new Error(errorMessage(200, data));
      onChunk(chunk);
    }
  }
}
