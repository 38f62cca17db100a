// tool_choice "required" and named functions through the official OpenAI and Anthropic
// clients: whatever the model would rather say, the answer is a call of an offered
// function whose arguments follow its schema. The trained tiny model never learned tool
// calls, so only the constraint can make it write them.
// Usage: node tool_choice_test.cjs PORT ALIAS
const OpenAI = require('openai');
const Anthropic = require('@anthropic-ai/sdk');
const { check, test, finish } = require('./harness.cjs');

const [port, alias] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const openai = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'none', maxRetries: 0, timeout: 120000 });
const anthropic = new Anthropic({ baseURL: base, apiKey: 'none', maxRetries: 0 });

const unitSchema = { type: 'object', properties: { unit: { enum: ['celsius', 'fahrenheit'] }, days: { type: 'integer' },
  alerts: { type: 'boolean' } }, required: ['unit'] };
const tools = [
  { type: 'function', function: { name: 'set_unit', description: 'Set the temperature unit', parameters: unitSchema } },
  { type: 'function', function: { name: 'now', description: 'The time now', parameters: { type: 'object', properties: {} } } },
];
const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];
const greedy = { temperature: 0, seed: 1, max_tokens: 400 };

// Checks that `args` (JSON text) follows the schema of the function `name`.
function checkArguments(name, args) {
  const value = JSON.parse(args);
  check(value !== null && typeof value === 'object' && !Array.isArray(value), args);
  if (name === 'now') return check(Object.keys(value).length === 0, args);
  check(name === 'set_unit', name);
  check(['celsius', 'fahrenheit'].includes(value.unit), args);
  check(Object.keys(value).every(k => ['unit', 'days', 'alerts'].includes(k)), args);
  check(!('days' in value) || Number.isInteger(value.days), args);
  check(!('alerts' in value) || typeof value.alerts === 'boolean', args);
}

(async () => {
  await test('without tool_choice the model answers in words', async () => {
    const r = await openai.chat.completions.create({ model: alias, messages, tools, ...greedy, max_tokens: 60 });
    check(r.choices[0].finish_reason !== 'tool_calls', JSON.stringify(r.choices[0]));
  });
  await test('required: a call of an offered function, its arguments by its schema', async () => {
    const r = await openai.chat.completions.create({ model: alias, messages, tools, tool_choice: 'required', ...greedy });
    const c = r.choices[0];
    check(c.finish_reason === 'tool_calls', JSON.stringify(c));
    check(c.message.tool_calls.length >= 1, JSON.stringify(c.message));
    for (const call of c.message.tool_calls) checkArguments(call.function.name, call.function.arguments);
  });
  for (const name of ['set_unit', 'now']) {
    await test(`named ${name}: whole and streamed, the same call`, async () => {
      const params = { model: alias, messages, tools, tool_choice: { type: 'function', function: { name } },
        parallel_tool_calls: false, ...greedy };
      const whole = await openai.chat.completions.create(params);
      const c = whole.choices[0];
      check(c.finish_reason === 'tool_calls' && c.message.tool_calls.length === 1, JSON.stringify(c));
      check(c.message.tool_calls[0].function.name === name, JSON.stringify(c.message));
      checkArguments(name, c.message.tool_calls[0].function.arguments);
      const stream = await openai.chat.completions.create({ ...params, stream: true });
      const calls = [];
      let reason = null;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (!choice) continue;
        for (const d of choice.delta.tool_calls || []) {
          if (!calls[d.index]) calls[d.index] = { name: '', arguments: '' };
          calls[d.index].name += (d.function && d.function.name) || '';
          calls[d.index].arguments += (d.function && d.function.arguments) || '';
        }
        reason = choice.finish_reason || reason;
      }
      check(reason === 'tool_calls', reason);
      check(calls.length === 1 && calls[0].name === name, JSON.stringify(calls));
      check(calls[0].arguments === c.message.tool_calls[0].function.arguments, JSON.stringify(calls));
    });
  }
  await test('responses: tool_choice required gives a function_call item', async () => {
    const r = await openai.responses.create({ model: alias, input: 'What is the weather in Paris?', max_output_tokens: 400,
      temperature: 0, tools: tools.map(t => ({ type: 'function', ...t.function })), tool_choice: 'required' });
    const calls = r.output.filter(item => item.type === 'function_call');
    check(calls.length >= 1, JSON.stringify(r.output));
    for (const call of calls) checkArguments(call.name, call.arguments);
  });
  await test('anthropic: tool_choice tool gives a tool_use block', async () => {
    const r = await anthropic.messages.create({ model: alias, max_tokens: 400, temperature: 0, messages,
      tools: [{ name: 'set_unit', description: 'Set the temperature unit', input_schema: unitSchema }],
      tool_choice: { type: 'tool', name: 'set_unit' } });
    check(r.stop_reason === 'tool_use', r.stop_reason);
    const use = r.content.find(b => b.type === 'tool_use');
    check(use && use.name === 'set_unit', JSON.stringify(r.content));
    checkArguments('set_unit', JSON.stringify(use.input));
  });
  await test('a call that cannot be made is a 400', async () => {
    for (const extra of [{ tool_choice: 'required' }, { tools, tool_choice: { type: 'function', function: { name: 'nope' } } }]) {
      let status = 0;
      try {
        await openai.chat.completions.create({ model: alias, messages, max_tokens: 4, ...extra });
      } catch (e) {
        status = e.status;
        check(/tool_choice/.test(e.message), e.message);
      }
      check(status === 400, `status ${status} for ${JSON.stringify(extra)}`);
    }
  });
  finish();
})();
