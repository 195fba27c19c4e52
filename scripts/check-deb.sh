#!/usr/bin/env bash
# Builds rfk's Debian packages from a Release build (default build/release), installs them with
# apt as a user would (`apt install ./rfk_*.deb ./librfk-dev_*.deb`), builds the find_package and
# pkg-config consumers against /usr, runs them and the installed CLI, then removes the packages
# again (leaving the machine as it was). Needs root; scripts/test.sh runs it in CI.
#   scripts/check-deb.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
if [ "$(id -u)" -ne 0 ]; then
  echo "check-deb.sh: needs root to install the packages; skipped" >&2
  exit 0
fi
work=$(mktemp -d)
cleanup() {
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq rfk librfk-dev >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# Packages already installed from an earlier run would hide a missing dependency: start clean.
DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq rfk librfk-dev >/dev/null 2>&1 || true
(cd "$build" && cpack -G DEB -B "$work/packages" >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; exit 1; }
ls "$work"/packages/*.deb
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$work"/packages/*.deb >/dev/null
echo "installed: $(dpkg-query -W -f='${Package} ${Version}, ' rfk librfk-dev)"
rfk --version
fixtures=$(cd "$build" && pwd)/../host-tools/tests/embedded/fixtures
[ -f "$fixtures/house_pair.h" ] || fixtures=build/host-tools/tests/embedded/fixtures
cmake -S tests/consumers/find_package -B "$work/consumer" -DRFK_FIXTURE_DIR="$(cd "$fixtures" && pwd)" >/dev/null
cmake --build "$work/consumer" -j2 >/dev/null
"$work/consumer/consumer"
"$work/consumer/host_consumer"
make -s -C tests/consumers/pkg_config c FIXTURE_DIR="$(cd "$fixtures" && pwd)" OUT="$work"
"$work/consumer_gcc"
echo "check-deb.sh: the packages install with apt, and find_package(rfk) and pkg-config rfk-core work against /usr"
