#!/usr/bin/env python3
# The same streaming load on any OpenAI-compatible server: N clients at once, each one chat
# completion of a fixed length (ignore_eos), timed per token as it arrives. Prints each
# client's time to first token and decode rate, and the aggregate decode rate: the tokens
# after each client's first over the span from the earliest first token to the latest last.
# Usage: scripts/http_load.py BASE_URL [--clients 4] [--tokens 128] [--rounds 1] [--model M]
#   (python3 standard library; BASE_URL like http://127.0.0.1:8080/v1)
import argparse
import http.client
import json
import statistics
import threading
import time
import urllib.parse


def one_stream(base, model, index, tokens, out):
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=3600)
    body = {
        'model': model, 'stream': True, 'stream_options': {'include_usage': True},
        'max_tokens': tokens, 'ignore_eos': True, 'temperature': 0, 'seed': index,
        'messages': [{'role': 'user', 'content': f'Client {index}: tell a long story about the number {index}.'}],
    }
    start = time.time()
    conn.request('POST', url.path + '/chat/completions', json.dumps(body), {'Content-Type': 'application/json'})
    response = conn.getresponse()
    if response.status != 200:
        out[index] = {'error': f'{response.status} {response.read()[:300]!r}'}
        return
    first = last = None
    completion = 0
    chunks = 0
    for raw in response:
        line = raw.decode('utf-8', 'replace').strip()
        if not line.startswith('data:'):
            continue
        data = line[5:].strip()
        if data == '[DONE]':
            break
        chunk = json.loads(data)
        if chunk.get('usage'):
            completion = chunk['usage'].get('completion_tokens', 0)
        choices = chunk.get('choices') or []
        delta = choices[0].get('delta', {}) if choices else {}
        if delta.get('content') or delta.get('reasoning_content') or delta.get('reasoning'):
            now = time.time()
            first = first or now
            last = now
            chunks += 1
    out[index] = {'start': start, 'first': first, 'last': last, 'tokens': completion or chunks}


def round_once(base, model, clients, tokens):
    out = [None] * clients
    threads = [threading.Thread(target=one_stream, args=(base, model, i, tokens, out)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    errors = [o['error'] for o in out if 'error' in o]
    if errors:
        raise SystemExit('a request failed: ' + errors[0])
    first = min(o['first'] for o in out)
    last = max(o['last'] for o in out)
    decoded = sum(o['tokens'] - 1 for o in out)
    return {
        'aggregate': decoded / (last - first),
        'ttft': [o['first'] - o['start'] for o in out],
        'per_client': [(o['tokens'] - 1) / (o['last'] - o['first']) for o in out],
        'tokens': [o['tokens'] for o in out],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument('base')
    p.add_argument('--clients', type=int, default=4)
    p.add_argument('--tokens', type=int, default=128)
    p.add_argument('--rounds', type=int, default=1)
    p.add_argument('--model', default='model')
    a = p.parse_args()
    results = []
    for r in range(a.rounds):
        res = round_once(a.base, a.model, a.clients, a.tokens)
        results.append(res)
        print(f'round {r}: aggregate {res["aggregate"]:.2f} tok/s; per client ' +
              ' '.join(f'{x:.2f}' for x in res['per_client']) + '; ttft ' +
              ' '.join(f'{x:.2f}s' for x in res['ttft']) + f'; tokens {res["tokens"]}', flush=True)
    print(json.dumps({'clients': a.clients, 'tokens': a.tokens,
                      'aggregate_median': statistics.median(r['aggregate'] for r in results),
                      'aggregates': [round(r['aggregate'], 3) for r in results]}))


if __name__ == '__main__':
    main()
