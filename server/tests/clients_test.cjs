// The official OpenAI, Ollama and Anthropic client libraries against `cpubrrr serve` on loopback,
// with a tiny gpt-oss model on 4 slots.
// Usage: node clients_test.cjs PORT KEY ALIAS
const OpenAI = require('openai');
const { Ollama } = require('ollama');
const Anthropic = require('@anthropic-ai/sdk');

const [port, key, alias] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: key, maxRetries: 0, timeout: 120000 });
const ollama = new Ollama({ host: base, headers: { Authorization: `Bearer ${key}` } });
const anthropic = new Anthropic({ baseURL: base, apiKey: key, maxRetries: 0 });

const { check, test, finish } = require('./harness.cjs');
const greedy = { temperature: 0, seed: 1 };
const hello = [{ role: 'user', content: 'Say hello.' }];

async function streamText(params) {
  const stream = await openai.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } });
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  const text = chunks.map(c => (c.choices[0] && c.choices[0].delta.content) || '').join('');
  return { chunks, text };
}

(async () => {
  await test('openai: models.list names the served model', async () => {
    const models = await openai.models.list();
    check(models.data.some(m => m.id === alias), JSON.stringify(models.data));
  });

  let whole;
  await test('openai: chat completion, whole', async () => {
    whole = await openai.chat.completions.create({ model: alias, messages: hello, max_tokens: 8, ...greedy });
    const c = whole.choices[0];
    check(c.finish_reason === 'length', c.finish_reason);
    check(typeof c.message.content === 'string' && c.message.content.length > 0, 'empty content');
    check(whole.usage.completion_tokens === 8, JSON.stringify(whole.usage));
    check(whole.usage.total_tokens === whole.usage.prompt_tokens + 8, JSON.stringify(whole.usage));
  });

  await test('openai: chat completion, streamed with usage, the same text', async () => {
    const { chunks, text } = await streamText({ model: alias, messages: hello, max_tokens: 8, ...greedy });
    check(chunks[0].choices[0].delta.role === 'assistant', 'first chunk has no role');
    const last = chunks[chunks.length - 2], usage = chunks[chunks.length - 1];
    check(last.choices[0].finish_reason === 'length', JSON.stringify(last));
    check(usage.choices.length === 0 && usage.usage.completion_tokens === 8, JSON.stringify(usage));
    // The same prompt again: all but its last token come from the cache.
    check(usage.usage.prompt_tokens_details.cached_tokens === usage.usage.prompt_tokens - 1, JSON.stringify(usage.usage));
    check(text === whole.choices[0].message.content, `${JSON.stringify(text)} vs ${JSON.stringify(whole.choices[0].message.content)}`);
  });

  await test('openai: completions', async () => {
    const r = await openai.completions.create({ model: alias, prompt: 'Hello', max_tokens: 4, ...greedy });
    check(r.choices[0].text.length > 0 && r.choices[0].finish_reason === 'length', JSON.stringify(r.choices[0]));
    check(r.usage.completion_tokens === 4, JSON.stringify(r.usage));
  });

  await test('openai: logprobs', async () => {
    const r = await openai.chat.completions.create({ model: alias, messages: hello, max_tokens: 5, logprobs: true, top_logprobs: 2, ...greedy });
    const content = r.choices[0].logprobs.content;
    check(content.length === 5, `${content.length} logprobs`);
    for (const t of content) {
      check(t.top_logprobs.length === 2 && t.logprob <= 0, JSON.stringify(t));
      check(t.top_logprobs[0].logprob === t.logprob, 'greedy picks the most likely token');
    }
  });

  await test('openai: tools and a tool round trip in the history', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }];
    const messages = [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
    ];
    const plain = await openai.chat.completions.create({ model: alias, messages: messages.slice(0, 1), max_tokens: 1, ...greedy });
    const r = await openai.chat.completions.create({ model: alias, messages, tools, max_tokens: 2, ...greedy });
    check(r.usage.prompt_tokens > plain.usage.prompt_tokens + 20, `${r.usage.prompt_tokens} vs ${plain.usage.prompt_tokens}`);
    const none = await openai.chat.completions.create({ model: alias, messages, tools, tool_choice: 'none', max_tokens: 1, ...greedy });
    check(none.usage.prompt_tokens < r.usage.prompt_tokens, 'tool_choice none still shows the tools');
  });

  await test('openai: responses whole and streamed, the same text as chat', async () => {
    const params = { model: alias, input: 'Say hello.', max_output_tokens: 8, ...greedy };
    const whole = await openai.responses.create(params);
    check(whole.id.startsWith('resp_') && whole.object === 'response', whole.id);
    check(whole.status === 'incomplete' && whole.incomplete_details.reason === 'max_output_tokens', whole.status);
    check(whole.usage.output_tokens === 8 && whole.usage.total_tokens === whole.usage.input_tokens + 8, JSON.stringify(whole.usage));
    const chat = await openai.chat.completions.create({ model: alias, messages: hello, max_tokens: 8, ...greedy });
    check(whole.output_text === chat.choices[0].message.content, `${JSON.stringify(whole.output_text)} vs chat ${JSON.stringify(chat.choices[0].message.content)}`);
    check(whole.usage.input_tokens === chat.usage.prompt_tokens, 'the same prompt');
    const stream = openai.responses.stream(params);
    const events = [];
    for await (const e of stream) events.push(e);
    const final = await stream.finalResponse();
    // The stream's final response is the snapshot its events built (no output_text).
    const finalText = final.output.filter((o) => o.type === 'message').flatMap((o) => o.content).map((c) => c.text).join('');
    check(finalText === whole.output_text, `${JSON.stringify(finalText)} vs ${JSON.stringify(whole.output_text)}`);
    const types = events.map((e) => e.type);
    check(types[0] === 'response.created' && types[1] === 'response.in_progress' && types[types.length - 1] === 'response.incomplete', types.join(' '));
    check(events.every((e, i) => e.sequence_number === i), 'sequence numbers');
    const deltas = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
    check(deltas === whole.output_text, 'the deltas make the text');
    const done = events.filter((e) => e.type === 'response.output_item.done');
    check(done.length >= 1 && done.every((e) => e.item.status === 'completed'), 'items done');
  });

  await test('openai: responses with instructions, tools and a tool round trip render as chat does', async () => {
    const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const chat = await openai.chat.completions.create({
      model: alias, max_tokens: 1, ...greedy,
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather of a city', parameters } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp": 21}' },
      ],
    });
    const r = await openai.responses.create({
      model: alias, max_output_tokens: 1, ...greedy, instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city', parameters, strict: false }],
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp": 21}' },
      ],
    });
    check(r.usage.input_tokens === chat.usage.prompt_tokens, `${r.usage.input_tokens} vs chat ${chat.usage.prompt_tokens}`);
  });

  await test('openai: responses refuses what a stateless server cannot do', async () => {
    for (const [body, status] of [[{ previous_response_id: 'resp_x', input: 'hi' }, 501], [{ input: [{ type: 'web_page' }] }, 400], [{}, 400]]) {
      try {
        await openai.responses.create({ model: alias, ...body });
        check(false, `no error for ${JSON.stringify(body)}`);
      } catch (e) {
        check(e.status === status, `${JSON.stringify(body)}: ${e.status} ${e.message}`);
      }
    }
  });

  await test('openai: a bad field is a 400 naming it', async () => {
    try {
      await openai.chat.completions.create({ model: alias, messages: hello, temperature: 'hot' });
      check(false, 'no error');
    } catch (e) {
      check(e instanceof OpenAI.BadRequestError, String(e));
      check(/temperature/.test(e.message) && e.error.type === 'invalid_request_error', e.message);
    }
  });

  await test('openai: a prompt beyond the context is exceed_context_size_error', async () => {
    try {
      await openai.chat.completions.create({ model: alias, messages: [{ role: 'user', content: 'word '.repeat(3000) }], max_tokens: 1 });
      check(false, 'no error');
    } catch (e) {
      check(e.status === 400 && e.error.type === 'exceed_context_size_error' && e.error.n_ctx > 0, JSON.stringify(e.error));
    }
  });

  await test('tokenize, detokenize and apply-template', async () => {
    const post = (path, body) => fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${key}` },
                                                         body: JSON.stringify(body) }).then(r => r.json());
    const { tokens } = await post('/tokenize', { content: 'Hello world' });
    check(tokens.length === 2, JSON.stringify(tokens));
    const { content } = await post('/detokenize', { tokens });
    check(content === 'Hello world', content);
    const { prompt } = await post('/apply-template', { messages: hello });
    check(prompt.includes('<|start|>user<|message|>Say hello.<|end|>') && prompt.endsWith('<|start|>assistant'), prompt);
  });

  await test('/health needs no key, the other routes do', async () => {
    check((await fetch(`${base}/health`)).status === 200, 'health');
    check((await fetch(`${base}/v1/models`)).status === 401, 'models without a key');
    check((await fetch(`${base}/v1/models`, { headers: { 'X-Api-Key': key } })).status === 200, 'X-Api-Key');
  });

  // The server runs with --cors-origin http://app.example: that origin's pages may call it.
  await test('CORS: only for the origin allowed, preflight without a key', async () => {
    const allowed = 'http://app.example';
    const preflight = await fetch(`${base}/v1/chat/completions`, { method: 'OPTIONS',
      headers: { Origin: allowed, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' } });
    check(preflight.status === 204, `preflight ${preflight.status}`);
    check(preflight.headers.get('access-control-allow-origin') === allowed, 'preflight origin');
    check(/Authorization/.test(preflight.headers.get('access-control-allow-headers') || ''), 'preflight headers');
    const ok = await fetch(`${base}/v1/models`, { headers: { Origin: allowed, 'X-Api-Key': key } });
    check(ok.status === 200 && ok.headers.get('access-control-allow-origin') === allowed, 'allowed origin');
    const unauthorized = await fetch(`${base}/v1/models`, { headers: { Origin: allowed } });
    check(unauthorized.status === 401, `no key from the allowed origin: ${unauthorized.status}`);
    const other = await fetch(`${base}/v1/models`, { headers: { Origin: 'http://evil.example', 'X-Api-Key': key } });
    check(other.headers.get('access-control-allow-origin') === null, 'another origin got a CORS header');
    const otherPreflight = await fetch(`${base}/v1/models`, { method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'GET' } });
    check(otherPreflight.headers.get('access-control-allow-origin') === null, 'another origin passed the preflight');
  });

  await test('openai: a wrong key is 401', async () => {
    const wrong = new OpenAI({ baseURL: `${base}/v1`, apiKey: key + 'x', maxRetries: 0 });
    try {
      await wrong.models.list();
      check(false, 'no error');
    } catch (e) {
      check(e instanceof OpenAI.AuthenticationError, String(e));
    }
  });

  await test('metrics: llama-server\'s names and the weights read against the bandwidth', async () => {
    const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${key}` } });
    const text = await res.text();
    const value = (name) => {
      const m = text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
      return m ? Number(m[1]) : NaN;
    };
    check(value('llamacpp:tokens_predicted_total') > 0, 'llamacpp:tokens_predicted_total');
    for (const name of ['cpubrrr:weight_bytes_read_total', 'cpubrrr:busy_seconds_total', 'cpubrrr:memory_read_bytes_per_second',
      'cpubrrr:bandwidth_ceiling_share']) {
      check(value(name) > 0, `${name} = ${value(name)}`);
    }
    const share = value('cpubrrr:weight_bytes_read_total') / value('cpubrrr:busy_seconds_total') / value('cpubrrr:memory_read_bytes_per_second');
    check(Math.abs(share - value('cpubrrr:bandwidth_ceiling_share')) < 1e-6 * share + 0.05, `share ${share}`);
  });

  await test('ollama: / answers as Ollama does to a client, with the page to a browser', async () => {
    const plain = await fetch(`${base}/`);
    check(plain.status === 200 && (await plain.text()) === 'Ollama is running', 'plain /');
    const page = await fetch(`${base}/`, { headers: { Accept: 'text/html,application/xhtml+xml' } });
    check(page.status === 200 && /^<!doctype html>/.test(await page.text()), 'the page');
  });

  await test('ollama: list (the served model, then the store) and show', async () => {
    const list = await ollama.list();
    check(list.models.length === 2 && list.models[0].name === alias && list.models[1].name === 'stored:7b' &&
          list.models[1].size > 0, JSON.stringify(list));
    const show = await ollama.show({ model: alias });
    check(show.model_info['gptoss.context_length'] > 0, JSON.stringify(show.model_info));
  });

  await test('ollama: chat streamed equals chat whole', async () => {
    const options = { temperature: 0, seed: 1, num_predict: 6 };
    const whole = await ollama.chat({ model: alias, messages: hello, options, stream: false });
    check(whole.done && whole.done_reason === 'length' && whole.eval_count === 6, JSON.stringify(whole));
    let text = '', last;
    for await (const part of await ollama.chat({ model: alias, messages: hello, options, stream: true })) {
      text += part.message.content;
      last = part;
    }
    check(last.done && last.eval_count === 6 && last.prompt_eval_count > 0, JSON.stringify(last));
    check(text === whole.message.content, `${JSON.stringify(text)} vs ${JSON.stringify(whole.message.content)}`);
  });

  await test('ollama: generate', async () => {
    const r = await ollama.generate({ model: alias, prompt: 'Hello', options: { temperature: 0, num_predict: 4 } });
    check(r.done && r.response.length > 0 && r.eval_count === 4, JSON.stringify(r));
  });

  await test('ollama: an unknown model is an error', async () => {
    try {
      await ollama.chat({ model: 'no-such-model', messages: hello });
      check(false, 'no error');
    } catch (e) {
      check(/not found/.test(e.message), e.message);
    }
  });

  await test('ollama: a model of the store that is not served says how to serve it', async () => {
    try {
      await ollama.chat({ model: 'stored:7b', messages: hello });
      check(false, 'no error');
    } catch (e) {
      check(/in the Ollama store/.test(e.message) && /-m stored:7b/.test(e.message), e.message);
    }
  });

  await test('anthropic: a message whole and streamed, the same text', async () => {
    const params = { model: alias, max_tokens: 6, temperature: 0, system: 'Be brief.', messages: hello };
    const whole = await anthropic.messages.create(params);
    check(whole.type === 'message' && whole.stop_reason === 'max_tokens', JSON.stringify(whole));
    check(whole.usage.output_tokens === 6, JSON.stringify(whole.usage));
    const text = whole.content.filter(b => b.type === 'text').map(b => b.text).join('');
    let streamed = '';
    const events = [];
    for await (const e of await anthropic.messages.create({ ...params, stream: true })) {
      events.push(e.type);
      if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') streamed += e.delta.text;
    }
    check(events[0] === 'message_start' && events[events.length - 1] === 'message_stop', events.join(','));
    check(events.includes('message_delta') && events.includes('content_block_start'), events.join(','));
    check(streamed === text, `${JSON.stringify(streamed)} vs ${JSON.stringify(text)}`);
  });

  await test('anthropic: tool use and results in the history, and errors', async () => {
    const tools = [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const r = await anthropic.messages.create({ model: alias, max_tokens: 2, temperature: 0, tools, messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '21 C' }] },
    ] });
    check(r.usage.input_tokens > 40, JSON.stringify(r.usage));
    try {
      await anthropic.messages.create({ model: alias, max_tokens: 0, messages: hello });
      check(false, 'no error');
    } catch (e) {
      check(e instanceof Anthropic.BadRequestError && /max_tokens/.test(e.message), String(e));
    }
  });

  // Four slots share each step, where a weight several rows use takes the gemm path: a
  // token may differ from the solo run's only where the solo run's top two were a near tie.
  await test('load: 16 concurrent streams on 4 slots each equal to the same request alone', async () => {
    const props = await (await fetch(`${base}/props`, { headers: { Authorization: `Bearer ${key}` } })).json();
    check(props.total_slots === 4, JSON.stringify(props));
    const prompts = Array.from({ length: 16 }, (_, i) => [{ role: 'user', content: `Count to ${i}.` }]);
    const params = m => ({ model: alias, messages: m, max_tokens: 12, logprobs: true, top_logprobs: 2, ...greedy });
    const together = await Promise.all(prompts.map(m => streamText(params(m))));
    for (let i = 0; i < prompts.length; i++) {
      const alone = await openai.chat.completions.create(params(prompts[i]));
      const usage = together[i].chunks[together[i].chunks.length - 1].usage;
      check(usage.completion_tokens === 12, `stream ${i}: ${JSON.stringify(usage)}`);
      const streamed = together[i].chunks.flatMap(c => (c.choices[0] && c.choices[0].logprobs && c.choices[0].logprobs.content) || []);
      const solo = alone.choices[0].logprobs.content;
      check(streamed.length === solo.length, `stream ${i}: ${streamed.length} tokens with logprobs, solo ${solo.length}`);
      const first = solo.findIndex((t, j) => !streamed[j] || streamed[j].token !== t.token);
      if (first < 0) {
        check(together[i].text === alone.choices[0].message.content, `stream ${i}: same tokens, other text`);
      } else {
        const [a, b] = solo[first].top_logprobs;
        check(a.logprob - b.logprob < 1e-3, `stream ${i} differs from its solo run at token ${first}, solo margin ${a.logprob - b.logprob}`);
      }
    }
    const health = await fetch(`${base}/health`);
    check(health.status === 200, `health ${health.status}`);
  });

  finish();
})();
