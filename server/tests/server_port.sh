# Sourced by the server tests: server_port ERR prints the port of the `cpubrrr serve`
# whose stderr is the file ERR once it says it is ready (waiting up to 20 s); otherwise
# it prints why and that stderr, and returns 1.
server_port() {
  for _ in $(seq 1 200); do
    if grep -q 'serve: ready' "$1"; then
      grep -o 'listening on http://127.0.0.1:[0-9]*' "$1" | grep -o '[0-9]*$'
      return 0
    fi
    sleep 0.1
  done
  echo "FAIL the server did not start" >&2
  cat "$1" >&2
  return 1
}
