#!/usr/bin/env python3
# Time to first token of a follow-up turn after a ~1000-token first turn: a server that
# answered the first turn (its slot's cache prefilled while idle) against a fresh one.
# Usage: scripts/follow_up_ttft.py DRIVER MODEL [IDLE_SECONDS]   (python3 standard library)
import json
import re
import subprocess
import sys
import time
import urllib.request


def start(driver, model):
    proc = subprocess.Popen([driver, 'serve', '-m', model, '--port', '0', '-np', '1', '-c', '4096'],
                            stderr=subprocess.PIPE, text=True)
    port = None
    for line in proc.stderr:
        found = re.search(r'listening on http://127.0.0.1:(\d+)', line)
        if found:
            port = int(found.group(1))
        if 'serve: ready' in line:
            return proc, port
    sys.exit('the server did not start')


def chat(port, messages, max_tokens):
    body = json.dumps({'messages': messages, 'max_tokens': max_tokens, 'temperature': 0}).encode()
    request = urllib.request.Request(f'http://127.0.0.1:{port}/v1/chat/completions', body,
                                     {'Content-Type': 'application/json'})
    start_time = time.time()
    reply = json.load(urllib.request.urlopen(request))
    return reply, time.time() - start_time


def main():
    driver, model = sys.argv[1], sys.argv[2]
    idle = float(sys.argv[3]) if len(sys.argv) > 3 else 40
    first = [{'role': 'user', 'content': 'Summarize this: ' + ' '.join('word%d' % (i % 97) for i in range(450))}]
    proc, port = start(driver, model)
    reply, _ = chat(port, first, 200)
    history = first + [{'role': 'assistant', 'content': reply['choices'][0]['message']['content']},
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
        t = r['timings']
        print(f"{name}: {t['prompt_n']} prompt tokens evaluated, {t['cache_n']} cached, "
              f"prompt {t['prompt_ms']:.0f} ms, request {seconds * 1000:.0f} ms")
    print(f"follow-up time to first token: {warm_seconds / cold_seconds:.3f} of a fresh server's")


if __name__ == '__main__':
    main()
