#!/usr/bin/env bash
# Installs an example program's dependencies the way a user gets this package: copied into the program's
# node_modules (`--install-links`), not symlinked, so the program and the dynamic-provider process share one
# copy of @pulumi/pulumi. Run after `npm run build`: the copy holds the package's dist/.
#   scripts/install-example.sh examples/cluster
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT/$1"
# npm keeps an installed copy of a `file:` dependency whose version did not change: drop it, so the program
# runs the package as built now.
rm -rf node_modules/pulumi-vendor-container
npm install --install-links --no-audit --no-fund --loglevel=error --no-package-lock
