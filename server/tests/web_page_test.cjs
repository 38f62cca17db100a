// The web page in headless Chromium (Debian's, driven by playwright-core) against a running
// `cpubrrr serve`: key, chat, streaming speed, reasoning, stop, keys, reload, race, layout.
// Usage: node web_page_test.cjs MAIN_PORT OTHER_PORT TOOLS_PORT KEY SCREENSHOT_DIR
const { chromium } = require('playwright-core');
const path = require('path');

const [mainPort, otherPort, toolsPort, key, shots] = process.argv.slice(2);
const base = `http://127.0.0.1:${mainPort}`;
const other = `http://127.0.0.1:${otherPort}/v1`;

const { check, test, finish } = require('./harness.cjs');

const lastAssistant = '#messages article.assistant:last-of-type';

// Sets a settings field as a user does: type, then leave it (the page saves on change).
async function setField(page, selector, value) {
  await page.evaluate(() => { document.getElementById('settings').open = true; });
  await page.fill(selector, value);
  await page.dispatchEvent(selector, 'change');
}

async function waitIdle(page) {
  await page.waitForFunction(() => !document.getElementById('send').disabled, null, { timeout: 30000 });
}

// The server's slots, asked directly: is any still busy?
async function anySlotBusy() {
  const res = await fetch(`${base}/slots`, { headers: { Authorization: `Bearer ${key}` } });
  const slots = await res.json();
  return slots.some((s) => s.is_processing);
}

// Fails when the page is wider than its viewport or an element sticks out of it.
async function checkFits(page, selectors) {
  const report = await page.evaluate((sels) => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`page ${document.documentElement.scrollWidth}px wide in ${width}px`);
    for (const s of sels) {
      const e = document.querySelector(s);
      if (!e) { out.push(`${s} missing`); continue; }
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) out.push(`${s} not shown`);
      if (r.left < -1 || r.right > width + 1) out.push(`${s} spans ${r.left}..${r.right} of ${width}`);
    }
    return out;
  }, selectors);
  check(report.length === 0, report.join('; '));
}

// Fails unless the elements are shown top to bottom in this order without overlapping, with
// the page scrolled to its end (where a sticky composer sits in its place).
async function checkStacked(page, selectors) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const boxes = await page.evaluate((sels) => sels.map((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return { s, top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
  }), selectors);
  for (let i = 1; i < boxes.length; i++) {
    check(boxes[i].top >= boxes[i - 1].bottom - 1, `${boxes[i].s} (top ${boxes[i].top}) overlaps ${boxes[i - 1].s} (bottom ${boxes[i - 1].bottom})`);
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error' && !/401|Failed to load resource/.test(m.text())) pageErrors.push(m.text()); });

  await test('the page loads from the server, and asks for the key it lacks', async () => {
    const res = await page.goto(`${base}/`);
    check(res.status() === 200, `status ${res.status()}`);
    check(/default-src 'self'/.test(res.headers()['content-security-policy'] || ''), 'no content security policy');
    await page.waitForFunction(() => /key/i.test(document.getElementById('chat-error').textContent));
  });

  await test('with the key set, the model facts show', async () => {
    await page.click('#settings summary');
    await setField(page, '#set-key', key);
    await page.waitForFunction(() => document.getElementById('model-name').textContent === 'fake');
    await page.click('#model-info summary');
    const facts = await page.textContent('#model-facts');
    check(/gpt-oss/.test(facts) && /MXFP4/.test(facts) && /8192 tokens/.test(facts), facts);
    check(await page.isVisible('#effort-row') && !(await page.isVisible('#thinking-row')), 'gpt-oss shows reasoning effort, not thinking');
  });

  await test('a prompt streams an answer with a non-zero speed', async () => {
    await setField(page, '#set-max-tokens', '60');
    await setField(page, '#set-system', 'Be brief.');
    await setField(page, '#set-temperature', '0.3');
    await page.selectOption('#set-effort', 'high');
    await page.dispatchEvent('#set-effort', 'change');
    await page.fill('#prompt', 'Say hello.');
    await page.press('#prompt', 'Enter');
    await page.waitForFunction((sel) => {
      const c = document.querySelector(`${sel} .content`);
      return c && c.textContent.startsWith('Hello! Here is my answer:');
    }, lastAssistant);
    await page.waitForFunction(() => parseFloat(document.getElementById('g-decode').textContent) > 0);
    await waitIdle(page);
    const meta = await page.textContent(`${lastAssistant} .meta`);
    check(/^60 tokens · [0-9.]+ tok\/s$/.test(meta), meta);
    check(parseFloat(await page.textContent('#g-prompt')) > 0, 'no prompt speed');
    check(/ms|s$/.test(await page.textContent('#g-ttft')), 'no time to first token');
    // The fake model reads no weights: no share of the bandwidth ceiling to show.
    check(await page.textContent('#g-ceiling') === '–', `ceiling ${await page.textContent('#g-ceiling')}`);
  });

  await test('the reasoning is apart from the answer and opens', async () => {
    const reasoning = page.locator(`${lastAssistant} details.reasoning`);
    check(await reasoning.isVisible(), 'no reasoning block');
    check(!(await page.isVisible(`${lastAssistant} .reasoning-text`)), 'reasoning open before asked');
    await reasoning.locator('summary').click();
    const text = await page.textContent(`${lastAssistant} .reasoning-text`);
    check(await page.isVisible(`${lastAssistant} .reasoning-text`), 'reasoning did not open');
    check(text === 'The user wants a greeting. I will answer briefly.', JSON.stringify(text));
    const content = await page.textContent(`${lastAssistant} .content`);
    check(!content.includes('greeting'), 'reasoning leaked into the answer');
  });

  await test('the second turn reuses the cached prompt and sends the settings and history', async () => {
    const sent = page.waitForRequest((r) => r.url().endsWith('/v1/chat/completions'));
    await page.fill('#prompt', 'And again.');
    await page.press('#prompt', 'Enter');
    const body = JSON.parse((await sent).postData());
    await waitIdle(page);
    check(body.messages[0].role === 'system' && body.messages[0].content === 'Be brief.', JSON.stringify(body.messages[0]));
    check(body.temperature === 0.3 && body.max_tokens === 60 && body.reasoning_effort === 'high', JSON.stringify(body));
    check(body.stream && body.stream_options.include_usage && body.timings_per_token, 'stream fields');
    const turn = body.messages[2];
    check(turn.role === 'assistant' && turn.reasoning_content === 'The user wants a greeting. I will answer briefly.' &&
      turn.content.startsWith('Hello! Here is my answer:'), JSON.stringify(turn));
    check(body.messages[3].content === 'And again.', 'the new turn last');
    const cached = parseInt(await page.textContent('#g-cached'), 10);
    check(cached > 20, `cached ${cached}`);
    check(await page.locator('#messages article').count() === 4, 'four messages');
  });

  await test('Shift+Enter is a new line, not a send', async () => {
    await page.click('#prompt');
    await page.keyboard.type('line one');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('line two');
    check(await page.inputValue('#prompt') === 'line one\nline two', JSON.stringify(await page.inputValue('#prompt')));
    check(await page.locator('#messages article').count() === 4, 'sent');
    await page.fill('#prompt', '');
  });

  await test('Esc stops a long answer and the server frees the slot', async () => {
    await setField(page, '#set-max-tokens', '4000');
    await page.fill('#prompt', 'Tell me a long story.');
    await page.press('#prompt', 'Enter');
    await page.waitForFunction((sel) => {
      const c = document.querySelector(`${sel} .content`);
      return c && c.textContent.length > 80;
    }, lastAssistant);
    check(!(await page.isDisabled('#stop')), 'stop disabled while streaming');
    // The prompt's figures arrive with the first token (timings_per_token), not at the end.
    check(parseFloat(await page.textContent('#g-prompt')) > 0, `prompt while streaming: ${await page.textContent('#g-prompt')}`);
    check(/^[0-9]+$/.test(await page.textContent('#g-cached')), `cached while streaming: ${await page.textContent('#g-cached')}`);
    check(await anySlotBusy(), 'no slot busy while streaming');
    await page.keyboard.press('Escape');
    await waitIdle(page);
    const meta = await page.textContent(`${lastAssistant} .meta`);
    const m = meta.match(/^stopped after (\d+) tokens$/);
    check(m && Number(m[1]) < 4000, meta);
    let busy = true;
    for (let i = 0; i < 40 && busy; i++) {
      busy = await anySlotBusy();
      if (busy) await new Promise((r) => setTimeout(r, 50));
    }
    check(!busy, 'a slot still busy 2 s after the stop');
  });

  await test('screenshot: chat at desktop width', async () => {
    await checkFits(page, ['.side', '#messages', '.speed', '#composer', '#g-plot']);
    await checkStacked(page, ['#messages', '.speed', '#composer']);
    const composer = await page.locator('#composer').boundingBox();
    check(composer.y + composer.height <= 800, `composer below the fold at ${composer.y}`);
    const side = await page.locator('.side').boundingBox(), main = await page.locator('#chat-view').boundingBox();
    check(side.x + side.width <= main.x + 1, 'side column overlaps the chat');
    await page.screenshot({ path: path.join(shots, 'chat-desktop.png') });
  });

  await test('a reload finds the conversation', async () => {
    await page.reload();
    await page.waitForFunction(() => document.getElementById('model-name').textContent === 'fake');
    const texts = await page.locator('#messages article.user .content').allTextContents();
    check(JSON.stringify(texts) === JSON.stringify(['Say hello.', 'And again.', 'Tell me a long story.']), JSON.stringify(texts));
    check(await page.locator('#conversations .conversation').first().textContent() === 'Say hello.', 'the list names the conversation');
  });

  await test('a new chat starts empty and the old one stays listed', async () => {
    await page.click('#new-chat');
    check(await page.locator('#messages article').count() === 0, 'not empty');
    check(await page.locator('#conversations .conversation').count() === 2, 'two conversations listed');
    await page.locator('#conversations .conversation', { hasText: 'Say hello.' }).click();
    check(await page.locator('#messages article').count() === 6, 'switching back shows the old one');
  });

  await test('the race refuses an endpoint off loopback', async () => {
    const status = await page.evaluate(async (k) => {
      const res = await fetch('/race/models', { headers: { Authorization: `Bearer ${k}`, 'X-Race-Target': 'http://192.0.2.1/v1' } });
      return res.status;
    }, key);
    check(status === 403, `status ${status}`);
  });

  await test('a race against a second server streams both lanes and ends with a ratio', async () => {
    await setField(page, '#set-max-tokens', '48');
    await page.click('#tab-race');
    await page.fill('#race-url', other);
    await page.click('#race-models');
    await page.waitForFunction(() => [...document.getElementById('race-model').options].some((o) => o.value === 'tiny'));
    await page.fill('#race-prompt', 'Count to ten.');
    await page.click('#race-go');
    await page.waitForFunction(() => /×/.test(document.getElementById('race-ratio').textContent), null, { timeout: 60000 });
    for (const lane of ['us', 'them']) {
      check(parseFloat(await page.textContent(`#${lane}-rate`)) > 0, `${lane} rate`);
      check((await page.textContent(`#${lane}-text`)).length > 0, `${lane} text`);
      check(/^done · first token .* · 48 tokens/.test(await page.textContent(`#${lane}-stats`)), await page.textContent(`#${lane}-stats`));
    }
    const us = await page.locator('#lane-us').boundingBox(), them = await page.locator('#lane-them').boundingBox();
    check(us.x + us.width <= them.x && Math.abs(us.y - them.y) < 2, 'lanes not side by side');
    await checkFits(page, ['#race-form', '#lane-us', '#lane-them']);
    await page.screenshot({ path: path.join(shots, 'race-desktop.png') });
  });

  await test('screenshots: phone width, one column, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await checkFits(page, ['#race-form', '#lane-us', '#lane-them']);
    const us = await page.locator('#lane-us').boundingBox(), them = await page.locator('#lane-them').boundingBox();
    check(them.y >= us.y + us.height - 1, 'lanes not stacked');
    await page.screenshot({ path: path.join(shots, 'race-phone.png'), fullPage: true });
    await page.click('#tab-chat');
    await checkFits(page, ['.side', '#messages', '.speed', '#composer']);
    await checkStacked(page, ['.side', `${lastAssistant} .meta`, '.speed', '#composer']);
    await page.screenshot({ path: path.join(shots, 'chat-phone.png'), fullPage: true });
  });

  await test('against a real model, the share of the bandwidth ceiling shows', async () => {
    const real = await context.newPage();
    real.on('pageerror', (e) => pageErrors.push(String(e)));
    await real.goto(`http://127.0.0.1:${otherPort}/`);
    await real.waitForFunction(() => document.getElementById('model-name').textContent === 'tiny');
    await real.fill('#prompt', 'Hello there.');
    await real.press('#prompt', 'Enter');
    await waitIdle(real);
    const ceiling = await real.textContent('#g-ceiling');
    check(/^[0-9]+%$/.test(ceiling), `ceiling ${ceiling}`);
    check(parseFloat(await real.textContent('#g-decode')) > 0, 'no decode speed');
    await real.close();
  });

  await test('a tool call shows as its name and arguments', async () => {
    const tools = await context.newPage();
    tools.on('pageerror', (e) => pageErrors.push(String(e)));
    await tools.goto(`http://127.0.0.1:${toolsPort}/`);
    await tools.waitForFunction(() => document.getElementById('model-name').textContent === 'tools');
    await setField(tools, '#set-tools', JSON.stringify([{ type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }]));
    await tools.fill('#prompt', 'What time is it?');
    await tools.press('#prompt', 'Enter');
    await waitIdle(tools);
    const call = await tools.textContent(`${lastAssistant} .tool-call`);
    check(call === 'get_time({"zone":"UTC"})', JSON.stringify(call));
    await tools.screenshot({ path: path.join(shots, 'tool-call.png') });
    await tools.close();
  });

  await test('no script errors on the page', async () => {
    check(pageErrors.length === 0, pageErrors.join('\n'));
  });

  await browser.close();
  finish();
})().catch((e) => {
  console.log(`FAIL ${e && e.stack || e}`);
  process.exit(1);
});
