// Qwen3-Coder's XML tool calls through the official openai and ollama clients.
// Usage: node qwen3_coder_test.cjs PORT
const OpenAI = require('openai');
const { Ollama } = require('ollama');
const assert = require('assert');
const { test, finish } = require('./harness.cjs');

const [port] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'none', maxRetries: 0 });
const ollama = new Ollama({ host: base });
const tools = [{ type: 'function', function: { name: 'edit', description: 'Edit a file', parameters: {
  type: 'object', properties: { path: { type: 'string' }, line: { type: 'integer' }, dry: { type: 'boolean' },
    text: { type: 'string' } }, required: ['path'] } } }];
const messages = [{ role: 'user', content: 'Fix line 7 of a.cc.' }];
// `text` is "12" on the wire, but its schema says string; `dry` is Python's False.
const expected = { path: 'a.cc', line: 7, dry: false, text: '12' };

(async () => {
  await test('the template is Qwen3-Coder\'s: a call in the history renders as XML', async () => {
    const res = await fetch(`${base}/apply-template`, { method: 'POST', body: JSON.stringify({ messages: [...messages,
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'edit', arguments: '{"path":"b.cc"}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'done' }], tools }) });
    const { prompt } = await res.json();
    assert.ok(prompt.includes('<function=edit>\n<parameter=path>\nb.cc\n</parameter>\n</function>'), prompt);
    assert.ok(prompt.includes('<name>edit</name>') && prompt.includes('<tool_response>\ndone\n</tool_response>'), prompt);
  });
  await test('openai: a whole answer carries the typed call', async () => {
    const r = await openai.chat.completions.create({ model: 'coder', messages, tools, max_tokens: 200, temperature: 0 });
    const c = r.choices[0];
    assert.strictEqual(c.finish_reason, 'tool_calls');
    assert.strictEqual(c.message.content, 'Checking.');
    assert.strictEqual(c.message.tool_calls.length, 1);
    assert.strictEqual(c.message.tool_calls[0].function.name, 'edit');
    assert.deepStrictEqual(JSON.parse(c.message.tool_calls[0].function.arguments), expected);
  });
  await test('openai: streamed, the same call', async () => {
    const stream = await openai.chat.completions.create({ model: 'coder', messages, tools, max_tokens: 200, temperature: 0, stream: true });
    const calls = [];
    let finish = null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (!choice) continue;
      for (const d of choice.delta.tool_calls || []) calls.push(d);
      finish = choice.finish_reason || finish;
    }
    assert.strictEqual(finish, 'tool_calls');
    assert.strictEqual(calls.length, 1);
    assert.deepStrictEqual(JSON.parse(calls[0].function.arguments), expected);
  });
  await test('ollama: the call with arguments as an object', async () => {
    const r = await ollama.chat({ model: 'coder', messages, tools, stream: false, options: { temperature: 0 } });
    assert.strictEqual(r.message.tool_calls.length, 1);
    assert.strictEqual(r.message.tool_calls[0].function.name, 'edit');
    assert.deepStrictEqual(r.message.tool_calls[0].function.arguments, expected);
  });
  finish();
})();
