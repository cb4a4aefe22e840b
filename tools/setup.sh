#!/usr/bin/env bash
# Shared set-up for tools/run and tools/test: installs missing Debian packages, then configures
# and builds one build tree. Sourced, not executed.
set -euo pipefail

TSUME_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TSUME_PACKAGES=(g++ cmake make libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev
                nlohmann-json3-dev python3)

tsume_install_missing() {
  local missing=()
  for pkg in "${TSUME_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "tsume: installing ${missing[*]}" >&2
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
  fi
}

# tsume_build DIR [cmake args...]: configure and build DIR under build/.
tsume_build() {
  local dir="$TSUME_ROOT/build/$1"
  shift
  # Configured once, and again when these options change (an existing tree takes the new ones).
  local stamp="$dir/tsume-build-options"
  if [[ ! -f "$dir/CMakeCache.txt" || "$(cat "$stamp" 2>/dev/null)" != "$*" ]]; then
    cmake -S "$TSUME_ROOT" -B "$dir" "$@" >&2
    echo "$*" > "$stamp"
  fi
  cmake --build "$dir" -j "$(nproc)" >&2
}
