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

# The CPU a build is for, as a checksum of the first processor's vendor, family, model and
# feature flags: -march=native and TSUME_PEXT=AUTO tune the code for the CPU that builds it.
tsume_cpu() {
  { awk '/^(vendor_id|cpu family|model|flags)[ \t]*:/ { print } /^$/ { exit }' /proc/cpuinfo \
    2>/dev/null || true; } | cksum | cut -d' ' -f1
}

# tsume_build DIR [cmake args...]: configure and build DIR under build/.
tsume_build() {
  local dir="$TSUME_ROOT/build/$1"
  shift
  # Configured once, and again when these options or the CPU change (an existing tree takes the
  # new options). A tree built on another CPU (a checkout moved to another machine, a virtual
  # machine moved to another host) is compiled again from scratch: its code may use
  # instructions this CPU lacks, or the slider attacks this CPU runs slowly.
  local stamp="$dir/tsume-build-options"
  local cpu wanted previous
  cpu="$(tsume_cpu)"
  wanted="$* (cpu $cpu)"
  previous="$(cat "$stamp" 2>/dev/null || true)"
  local clean=()
  if [[ ! -f "$dir/CMakeCache.txt" || "$previous" != "$wanted" ]]; then
    if [[ -f "$dir/CMakeCache.txt" && "$previous" != *"(cpu $cpu)" ]]; then
      echo "tsume: $dir was not built for this CPU; building it again from scratch" >&2
      clean=(--clean-first)
    fi
    cmake -S "$TSUME_ROOT" -B "$dir" "$@" >&2
    echo "$wanted" > "$stamp"
  fi
  cmake --build "$dir" -j "$(nproc)" "${clean[@]}" >&2
}
