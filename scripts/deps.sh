#!/usr/bin/env bash
# Install warpsim's Debian packages if any is missing (as root), else print the apt-get line and stop.
set -euo pipefail
# git: the build records the commit in every run's provenance (cmake/git_commit.cmake)
PKGS="build-essential git cmake pkg-config libconfig-dev libcriterion-dev libjansson-dev libzstd-dev libexpat1-dev libsimgrid-dev clang libclang-rt-14-dev gnuplot-nox parallel slurm-wlm munge"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "warpsim needs these Debian packages:$missing" >&2
  echo "run as root:  apt-get update && apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends $missing >/dev/null || { apt-get update >/dev/null && apt-get install -y --no-install-recommends $missing >/dev/null; }
