#!/usr/bin/env python3
# Two `cpubrrr serve` replicas behind Debian's nginx (the configuration of docs/DEPLOY.md):
# a conversation header keeps each conversation on one replica, and when a replica is
# killed mid-load (SIGKILL: a crash, not a shutdown) no request nginx accepted is lost.
# Each one completes with the same answer as alone, or fails in a way a client can retry
# (a 5xx, or a stream that ends without its end marker); the client retries those, and
# every request must finally be answered.
# Usage: replicas_test.py DRIVER MODEL NGINX
import grp
import os
import pwd
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from soak import PROMPTS, Reference, Soak, openai_body, start_server  # noqa: E402

NGINX_CONF = '''
daemon off;
user {user} {group};
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx.err warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/nginx-body;
  proxy_temp_path {tmp}/nginx-proxy;
  fastcgi_temp_path {tmp}/nginx-fastcgi;
  uwsgi_temp_path {tmp}/nginx-uwsgi;
  scgi_temp_path {tmp}/nginx-scgi;
  upstream cpubrrr {{
    hash $http_x_conversation_id consistent;
    server 127.0.0.1:{port_a} max_fails=1 fail_timeout=30s;
    server 127.0.0.1:{port_b} max_fails=1 fail_timeout=30s;
  }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://cpubrrr;
      proxy_http_version 1.1;
      proxy_buffering off;
      proxy_read_timeout 300s;
      proxy_next_upstream error timeout http_502 http_503 non_idempotent;
    }}
  }}
}}
'''


def free_port():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def requests_served(port):
    """cpubrrr:requests_total of the replica on `port`."""
    conn, response = Soak(port).request('GET', '/metrics')
    text = response.read().decode()
    conn.close()
    return int(float(next(line.split()[1] for line in text.splitlines() if line.startswith('cpubrrr:requests_total '))))


def attempt(proxy, ref, prompt, conversation, stream):
    """One request through nginx: 'ok', 'retry' (a 5xx or a cut stream) or why it failed."""
    headers = {'X-Conversation-Id': conversation}
    try:
        if stream:
            events = proxy.stream('/v1/chat/completions', openai_body(prompt, True), headers)
            if not events or events[-1] != '[DONE]':
                return 'retry'
            tokens = [t['token'] for e in events[:-1] if e.get('choices') and e['choices'][0].get('logprobs')
                      for t in e['choices'][0]['logprobs']['content']]
        else:
            answer = proxy.post_json('/v1/chat/completions', openai_body(prompt, False), headers)
            tokens = [t['token'] for t in answer['choices'][0]['logprobs']['content']]
    except RuntimeError as e:  # a status other than 200
        return 'retry' if ': 5' in str(e) else f'refused: {e}'
    except (ConnectionError, OSError, ValueError):  # cut mid-body
        return 'retry'
    verdict = ref.check_tokens(tokens)
    return 'ok' if verdict in (None, 'near tie') else verdict


def client(proxy, refs, index, deadline, stats):
    rng = random.Random(index)
    while time.time() < deadline:
        i = rng.randrange(len(PROMPTS))
        for tries in range(3):
            result = attempt(proxy, refs[i], PROMPTS[i], f'conversation-{index}', rng.random() < 0.5)
            if result != 'retry':
                break
            stats['retried'] += 1
        stats['answered' if result == 'ok' else 'lost'] += 1
        if result not in ('ok', 'retry'):
            stats['why'].append(result)


def main():
    driver, model, nginx = sys.argv[1:4]
    tmp = os.environ.get('TEST_TMPDIR') or tempfile.mkdtemp()
    replica_a, port_a, _ = start_server(driver, model, tmp, 'replica_a', 2)
    replica_b, port_b, _ = start_server(driver, model, tmp, 'replica_b', 2)
    if port_a is None or port_b is None:
        return 1
    port = free_port()
    conf = os.path.join(tmp, 'nginx.conf')
    with open(conf, 'w') as f:
        # Workers run as this user (as root nginx would switch to nobody, whom a sandbox may not map).
        f.write(NGINX_CONF.format(tmp=tmp, port=port, port_a=port_a, port_b=port_b,
                                  user=pwd.getpwuid(os.geteuid()).pw_name, group=grp.getgrgid(os.getegid()).gr_name))
    # -e: nginx opens its default error log before it reads the configuration.
    proxy_process = subprocess.Popen([nginx, '-c', conf, '-p', tmp, '-e', os.path.join(tmp, 'nginx.err')], stderr=subprocess.STDOUT, stdout=open(os.path.join(tmp, 'nginx.out'), 'w'))
    proxy = Soak(port)
    failures = []
    try:
        for _ in range(100):
            if proxy_process.poll() is not None:
                raise RuntimeError('nginx exited: ' + open(os.path.join(tmp, 'nginx.out')).read())
            try:
                socket.create_connection(('127.0.0.1', port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        refs = [Reference(Soak(port_a).post_json('/v1/chat/completions', openai_body(p, False))) for p in PROMPTS]

        # Stickiness: one conversation's requests all land on the same replica.
        before = (requests_served(port_a), requests_served(port_b))
        for _ in range(6):
            proxy.post_json('/v1/chat/completions', openai_body(PROMPTS[0], False), {'X-Conversation-Id': 'sticky'})
        after = (requests_served(port_a), requests_served(port_b))
        served = (after[0] - before[0], after[1] - before[1])
        if sorted(served) != [0, 6]:
            failures.append(f'one conversation spread over both replicas: {served}')

        stats = {'answered': 0, 'retried': 0, 'lost': 0, 'why': []}
        deadline = time.time() + 20
        threads = [threading.Thread(target=client, args=(proxy, refs, i, deadline, stats)) for i in range(6)]
        for t in threads:
            t.start()
        time.sleep(8)
        answered_before_kill = stats['answered']
        served_by_b = requests_served(port_b) - after[1]
        replica_b.kill()  # a crash mid-load
        for t in threads:
            t.join()
        print(f'replicas: {stats["answered"]} answered ({answered_before_kill} before replica b, which had served '
              f'{served_by_b} of them, was killed), '
              f'{stats["retried"]} retried by the client, {stats["lost"]} lost')
        if stats['lost']:
            failures.append(f'{stats["lost"]} requests lost: {stats["why"][:5]}')
        if stats['answered'] <= answered_before_kill:
            failures.append('nothing answered after the kill')
        if served_by_b == 0:
            failures.append('replica b had no load before the kill')
    finally:
        proxy_process.terminate()
        proxy_process.wait(timeout=10)
        for replica in (replica_a, replica_b):
            replica.kill()
            replica.wait()
    for why in failures:
        print('FAIL', why)
    if failures:
        print(open(os.path.join(tmp, 'nginx.err')).read()[-2000:])
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
