#!/usr/bin/env bash
# The GitHub Action's build step: the Debian packages the harness needs, then only the mcpspec
# binary (no tests, no reference systems) into $MCPSPEC_BUILD_DIR.
set -euo pipefail
src=${MCPSPEC_SOURCE:?MCPSPEC_SOURCE: the mcpspec source folder}
build=${MCPSPEC_BUILD_DIR:?MCPSPEC_BUILD_DIR: where to build}
packages=(build-essential cmake ninja-build pkg-config nlohmann-json3-dev libvalijson-dev libfmt-dev libcli11-dev
          libcpp-httplib-dev libboost-dev libssl-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMCPSPEC_TESTS=OFF -DMCPSPEC_REFERENCE=OFF >/dev/null
cmake --build "$build" --target mcpspec -j"$(nproc)"
echo "mcpspec built: $build/mcpspec"
