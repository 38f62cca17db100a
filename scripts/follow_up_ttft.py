#!/usr/bin/env python3
# Time to first token of a follow-up turn after a ~1000-token first turn: a server that
# answered the first turn (its slot's cache prefilled while idle) against a fresh one.
# Usage: scripts/follow_up_ttft.py DRIVER MODEL [IDLE_SECONDS] [openai|ollama]
#   (python3 standard library; the route the turns go through, OpenAI's by default)
import json
import re
import subprocess
import sys
import time
import urllib.request


def start(driver, model):
    proc = subprocess.Popen([driver, 'serve', '-m', model, '--port', '0', '-np', '1', '-c', '4096', '--alias', 'probe'],
                            stderr=subprocess.PIPE, text=True)
    port = None
    for line in proc.stderr:
        found = re.search(r'listening on http://127.0.0.1:(\d+)', line)
        if found:
            port = int(found.group(1))
        if 'serve: ready' in line:
            return proc, port
    sys.exit('the server did not start')


ROUTE = 'openai'


def chat(port, messages, max_tokens):
    if ROUTE == 'ollama':
        path = '/api/chat'
        body = {'model': 'probe', 'messages': messages, 'stream': False,
                'options': {'num_predict': max_tokens, 'temperature': 0}}
    else:
        path = '/v1/chat/completions'
        body = {'messages': messages, 'max_tokens': max_tokens, 'temperature': 0}
    request = urllib.request.Request(f'http://127.0.0.1:{port}{path}', json.dumps(body).encode(),
                                     {'Content-Type': 'application/json'})
    start_time = time.time()
    reply = json.load(urllib.request.urlopen(request))
    return reply, time.time() - start_time


def answer_text(reply):
    return reply['message']['content'] if ROUTE == 'ollama' else reply['choices'][0]['message']['content']


def describe(reply):
    if ROUTE == 'ollama':
        return f"{reply['prompt_eval_count']} prompt tokens, prompt {reply['prompt_eval_duration'] / 1e6:.0f} ms"
    t = reply['timings']
    return f"{t['prompt_n']} prompt tokens evaluated, {t['cache_n']} cached, prompt {t['prompt_ms']:.0f} ms"


def main():
    driver, model = sys.argv[1], sys.argv[2]
    idle = float(sys.argv[3]) if len(sys.argv) > 3 else 40
    global ROUTE
    ROUTE = sys.argv[4] if len(sys.argv) > 4 else 'openai'
    first = [{'role': 'user', 'content': 'Summarize this: ' + ' '.join('word%d' % (i % 97) for i in range(450))}]
    proc, port = start(driver, model)
    reply, _ = chat(port, first, 200)
    history = first + [{'role': 'assistant', 'content': answer_text(reply)},
                       {'role': 'user', 'content': 'And in one line?'}]
    time.sleep(idle)
    warm, warm_seconds = chat(port, history, 1)
    proc.terminate()
    proc.wait()
    proc, port = start(driver, model)
    cold, cold_seconds = chat(port, history, 1)
    proc.terminate()
    proc.wait()
    for name, r, seconds in (('after the first turn', warm, warm_seconds), ('fresh server', cold, cold_seconds)):
        print(f"{name}: {describe(r)}, request {seconds * 1000:.0f} ms")
    print(f"{ROUTE} route: follow-up time to first token: {warm_seconds / cold_seconds:.3f} of a fresh server's")


if __name__ == '__main__':
    main()
