#!/usr/bin/env python3
# The server under a bounded mixed load for a while: good requests (OpenAI and Ollama chat,
# streamed and whole) among cancelled streams and malformed requests, from more clients than
# slots. Every good answer must be complete and equal to the same request alone (greedy; a
# token may differ only where the solo run's top two were a near tie, docs/SERVING.md),
# every malformed one a 4xx in its API's envelope; RSS is read before and after the load,
# /health must answer 200 at the end and SIGTERM must end the server with exit 0.
# Usage: soak.py DRIVER MODEL [--seconds 60] [--clients 6] [--slots 4]
#   (python3 standard library; docs/SERVER.md "Soak")
import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

PROMPTS = [f'{q} ({i})' for i, q in enumerate([
    'Tell me about the river.', 'What did the jury say?', 'Write a line about the city.',
    'Why is the sky blue?', 'Describe a long day at the office.', 'Who won the game?',
    'Say something about music.', 'What is the weather like?'])]
MAX_TOKENS = 48
NEAR_TIE = 1e-3
MALFORMED = [
    ('POST', '/v1/chat/completions', b'{'),
    ('POST', '/v1/chat/completions', b'[]'),
    ('POST', '/v1/chat/completions', b'{"messages": 5}'),
    ('POST', '/v1/chat/completions', b'{"messages": [{"role": "user", "content": "x"}], "max_tokens": "ten"}'),
    ('POST', '/v1/chat/completions', b'{"messages": [{"role": "user", "content": "x"}], "temperature": -1}'),
    ('POST', '/v1/chat/completions', b'{"messages": ' + b'[' * 5000 + b']' * 5000 + b'}'),
    ('POST', '/v1/chat/completions', b'{"messages": [{"role": "user", "content": "\xff\xfe"}]}'),
    ('POST', '/v1/completions', b'{"prompt": 12}'),
    ('POST', '/v1/messages', b'{"messages": [{"role": "user", "content": "x"}]}'),
    ('POST', '/api/chat', b'{"model": "m", "messages": "hello"}'),
    ('POST', '/api/generate', b'{"model": "m", "prompt": 5}'),
    ('POST', '/v1/nothing', b'{}'),
    ('GET', '/../../etc/passwd', b''),
]


class Soak:
    def __init__(self, port):
        self.port = port
        self.lock = threading.Lock()
        self.counts = {}
        self.failures = []

    def count(self, kind):
        with self.lock:
            self.counts[kind] = self.counts.get(kind, 0) + 1

    def fail(self, why):
        with self.lock:
            self.failures.append(why)

    def request(self, method, path, body=None, timeout=600, headers=None):
        conn = http.client.HTTPConnection('127.0.0.1', self.port, timeout=timeout)
        conn.request(method, path, body, {'Content-Type': 'application/json', **(headers or {})})
        return conn, conn.getresponse()

    def post_json(self, path, body, headers=None):
        conn, response = self.request('POST', path, json.dumps(body), headers=headers)
        data = response.read()
        conn.close()
        if response.status != 200:
            raise RuntimeError(f'{path}: {response.status} {data[:300]!r}')
        return json.loads(data)

    def stream(self, path, body, headers=None):
        """Returns the parsed events of a stream: SSE `data:` lines or NDJSON lines."""
        conn, response = self.request('POST', path, json.dumps(body), headers=headers)
        if response.status != 200:
            raise RuntimeError(f'{path}: {response.status} {response.read()[:300]!r}')
        events = []
        for raw in response:
            line = raw.decode('utf-8').strip()
            if line.startswith('data:'):
                line = line[5:].strip()
                if line == '[DONE]':
                    events.append('[DONE]')
                    break
            if line:
                events.append(json.loads(line))
        conn.close()
        return events


def openai_body(prompt, stream):
    return {'messages': [{'role': 'user', 'content': prompt}], 'max_tokens': MAX_TOKENS, 'temperature': 0,
            'logprobs': True, 'top_logprobs': 2, 'stream': stream}


def ollama_body(prompt, stream):
    # Ollama's own default repeat_penalty is 1.1; 1 samples as the OpenAI route does.
    return {'model': 'soak', 'messages': [{'role': 'user', 'content': prompt}], 'stream': stream,
            'options': {'temperature': 0, 'num_predict': MAX_TOKENS, 'repeat_penalty': 1.0}}


class Reference:
    """A prompt's solo answer: its message and each token with the margin of its top two."""

    def __init__(self, answer):
        choice = answer['choices'][0]
        self.reasoning = choice['message'].get('reasoning_content') or ''
        self.content = choice['message'].get('content') or ''
        self.tokens = [t['token'] for t in choice['logprobs']['content']]
        self.margins = [t['top_logprobs'][0]['logprob'] - t['top_logprobs'][1]['logprob']
                        if len(t['top_logprobs']) > 1 else float('inf') for t in choice['logprobs']['content']]
        self.raw = ''.join(self.tokens)

    def token_at(self, raw_offset):
        at = 0
        for i, token in enumerate(self.tokens):
            if raw_offset < at + len(token):
                return i
            at += len(token)
        return len(self.tokens) - 1

    def check_tokens(self, tokens):
        """Returns None when `tokens` match, 'near tie' when they first differ at a near tie, else why not."""
        if len(tokens) != len(self.tokens):
            return f'{len(tokens)} tokens, solo {len(self.tokens)}'
        first = next((i for i, (a, b) in enumerate(zip(tokens, self.tokens)) if a != b), None)
        if first is None:
            return None
        return 'near tie' if self.margins[first] < NEAR_TIE else f'differs at token {first} (solo margin {self.margins[first]:.4g})'

    def check_text(self, reasoning, content):
        """The same for an answer known only by its text (Ollama's routes give no logprobs)."""
        if (reasoning, content) == (self.reasoning, self.content):
            return None
        field, ours, solo = ('reasoning', reasoning, self.reasoning) if reasoning != self.reasoning else ('content', content, self.content)
        p = next((i for i, (a, b) in enumerate(zip(ours, solo)) if a != b), min(len(ours), len(solo)))
        start = self.raw.find(solo) if field == 'reasoning' else self.raw.rfind(solo)
        if start < 0:
            return f'{field} differs and the solo {field} is not in its tokens'
        token = self.token_at(start + p)
        # The text may part a token or two after the token that differs.
        if any(self.margins[j] < NEAR_TIE for j in range(max(0, token - 2), token + 1)):
            return 'near tie'
        return f'{field} differs at character {p} (solo token {token}, margin {self.margins[token]:.4g})'


def good_request(soak, refs, rng):
    i = rng.randrange(len(PROMPTS))
    prompt, ref = PROMPTS[i], refs[i]
    kind = rng.choice(['openai', 'openai_stream', 'ollama', 'ollama_stream'])
    if kind == 'openai':
        answer = soak.post_json('/v1/chat/completions', openai_body(prompt, False))
        verdict = ref.check_tokens([t['token'] for t in answer['choices'][0]['logprobs']['content']])
    elif kind == 'openai_stream':
        events = soak.stream('/v1/chat/completions', openai_body(prompt, True))
        if events[-1] != '[DONE]':
            return soak.fail(f'{kind}: the stream did not end with [DONE]')
        finish = [e['choices'][0]['finish_reason'] for e in events[:-1] if e.get('choices') and e['choices'][0].get('finish_reason')]
        if not finish:
            return soak.fail(f'{kind}: no finish_reason')
        tokens = [t['token'] for e in events[:-1] if e.get('choices') and e['choices'][0].get('logprobs')
                  for t in e['choices'][0]['logprobs']['content']]
        verdict = ref.check_tokens(tokens)
    elif kind == 'ollama':
        answer = soak.post_json('/api/chat', ollama_body(prompt, False))
        if not answer.get('done'):
            return soak.fail(f'{kind}: not done')
        verdict = ref.check_text(answer['message'].get('thinking') or '', answer['message'].get('content') or '')
    else:
        events = soak.stream('/api/chat', ollama_body(prompt, True))
        if not events or not events[-1].get('done') or not events[-1].get('done_reason'):
            return soak.fail(f'{kind}: the last line is not done with a done_reason')
        verdict = ref.check_text(''.join(e['message'].get('thinking') or '' for e in events),
                                 ''.join(e['message'].get('content') or '' for e in events))
    if verdict == 'near tie':
        soak.count('near ties')
    elif verdict:
        return soak.fail(f'{kind} "{prompt}": {verdict}')
    soak.count(kind)


def cancelled_request(soak, rng):
    """A stream dropped after a few events, or before the first (while it prefills or waits)."""
    body = openai_body(rng.choice(PROMPTS) + ' Go on at length.' * rng.randrange(1, 40), True)
    body['max_tokens'] = 400
    conn, response = soak.request('POST', '/v1/chat/completions', json.dumps(body))
    if response.status != 200:
        return soak.fail(f'cancel: {response.status}')
    for _ in range(rng.randrange(0, 4)):
        if not response.readline():
            break
    conn.sock.shutdown(socket.SHUT_RDWR)
    conn.close()
    soak.count('cancelled')


def malformed_request(soak, rng):
    method, path, body = rng.choice(MALFORMED)
    conn, response = soak.request(method, path, body or None, timeout=60)
    data = response.read()
    conn.close()
    if not 400 <= response.status < 500:
        return soak.fail(f'malformed {method} {path} {body[:40]!r}: status {response.status}')
    if path.startswith(('/v1/', '/api/')) and path != '/v1/nothing':
        error = json.loads(data).get('error')
        if not error:
            return soak.fail(f'malformed {path}: no error in {data[:200]!r}')
    soak.count('malformed')


def worker(soak, refs, deadline, seed):
    rng = random.Random(seed)
    while time.time() < deadline:
        action = rng.random()
        try:
            if action < 0.6:
                good_request(soak, refs, rng)
            elif action < 0.8:
                cancelled_request(soak, rng)
            else:
                malformed_request(soak, rng)
        except Exception as e:  # a refused connection, a reset, a bad body: all failures
            soak.fail(f'{type(e).__name__}: {e}')


def rss_mib(pid):
    with open(f'/proc/{pid}/status') as f:
        return int(re.search(r'VmRSS:\s+(\d+)', f.read()).group(1)) / 1024


def wait_idle(soak):
    for _ in range(600):
        conn, response = soak.request('GET', '/slots')
        slots = json.loads(response.read())
        conn.close()
        if not any(s.get('is_processing') for s in slots):
            return
        time.sleep(0.1)
    soak.fail('slots still busy 60 s after the load')


def start_server(driver, model, tmp, name, slots):
    """Starts `cpubrrr serve` on a free loopback port; returns the process, its port (None
    when it did not start, after printing why) and its stderr's path."""
    err_path = os.path.join(tmp, name + '.err')
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache'))
    # One thread: the clients' work beside the server's must not stall its barriers.
    server = subprocess.Popen([driver, 'serve', '-m', model, '--port', '0', '-np', str(slots),
                               '-c', str(1024 * slots), '-t', '1', '--alias', 'soak'],
                              stdout=subprocess.DEVNULL, stderr=open(err_path, 'w'), env=env)
    for _ in range(300):
        text = open(err_path).read()
        if 'serve: ready' in text:
            return server, int(re.search(r'listening on http://127\.0\.0\.1:(\d+)', text).group(1)), err_path
        if server.poll() is not None:
            break
        time.sleep(0.1)
    print(f'FAIL {name} did not start\n' + open(err_path).read())
    server.kill()
    return server, None, err_path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('driver')
    parser.add_argument('model')
    parser.add_argument('--seconds', type=float, default=60)
    parser.add_argument('--clients', type=int, default=6)
    parser.add_argument('--slots', type=int, default=4)
    args = parser.parse_args()

    tmp = os.environ.get('TEST_TMPDIR') or tempfile.mkdtemp()
    server, port, err_path = start_server(args.driver, args.model, tmp, 'serve', args.slots)
    if port is None:
        return 1
    soak = Soak(port)

    refs = [Reference(soak.post_json('/v1/chat/completions', openai_body(p, False))) for p in PROMPTS]
    # Warm every slot before the first reading, so RSS holds what serving needs.
    warm = [threading.Thread(target=good_request, args=(soak, refs, random.Random(i))) for i in range(2 * args.slots)]
    for t in warm:
        t.start()
    for t in warm:
        t.join()
    rss_start = rss_mib(server.pid)

    start = time.time()
    threads = [threading.Thread(target=worker, args=(soak, refs, start + args.seconds, i)) for i in range(args.clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - start
    wait_idle(soak)
    rss_end = rss_mib(server.pid)
    conn, health = soak.request('GET', '/health')
    if health.status != 200:
        soak.fail(f'/health {health.status} after the load')
    conn.close()

    total = sum(v for k, v in soak.counts.items() if k != 'near ties')
    print(f'soak: {elapsed:.0f} s, {args.clients} clients on {args.slots} slots: {total} requests '
          + ', '.join(f'{k} {v}' for k, v in sorted(soak.counts.items())) + f', failures {len(soak.failures)}')
    print(f'soak: RSS {rss_start:.1f} MiB after warming, {rss_end:.1f} MiB after the load')
    # AddressSanitizer keeps freed memory in quarantine by design: RSS is not flat there.
    if 'ASAN_OPTIONS' not in os.environ and rss_end > rss_start * 1.1 + 16:
        soak.fail(f'RSS grew from {rss_start:.1f} to {rss_end:.1f} MiB')

    server.send_signal(signal.SIGTERM)
    try:
        code = server.wait(timeout=10)
        if code != 0:
            soak.fail(f'exit {code} after SIGTERM')
    except subprocess.TimeoutExpired:
        server.kill()
        soak.fail('still running 10 s after SIGTERM')
    for why in soak.failures[:20]:
        print('FAIL', why)
    if soak.failures:
        print(open(err_path).read()[-3000:])
    return 1 if soak.failures else 0


if __name__ == '__main__':
    sys.exit(main())
