#!/usr/bin/env bash
# Installs what is missing, builds, then runs every test (GL tests headless) through ctest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
export SDL_VIDEODRIVER="${SDL_VIDEODRIVER:-offscreen}"
cd "$FIRELAB_BUILD_DIR"
ctest --output-on-failure --timeout 900 "$@"
