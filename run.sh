#!/usr/bin/env bash
# Set up (Debian packages), build, and run the main job: owl-28 policy comparison.
set -euo pipefail
cd "$(dirname "$0")"
scripts/deps.sh
scripts/build.sh release
exec build/warpsim compare "$@"
