#!/usr/bin/env bash
# The one-command demo: installs dependencies, builds the package, starts the emulator, and drives the
# resources of the main example (examples/cluster) through the providers exactly as the Pulumi engine
# calls them: check, diff, create, read, update, delete. Stops the emulator at the end, whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "==> installing dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "==> building the package"
npm run --silent build
echo "==> running the demo against the emulator"
node scripts/demo.js
