#!/usr/bin/env bash
# The one-command demo: the real Pulumi CLI runs the main example (examples/cluster) against the local
# emulator, with a temporary file backend and passphrase secrets:
#   stack init, config (the token as a secret), preview, up, the outputs (kubeconfig as [secret]),
#   a volume attached to a node, a pool resize and a scheduled upgrade through config then up,
#   preview --expect-no-changes, a preview that disabling HA makes fail, refresh, destroy.
# Installs what it needs first: npm dependencies, the package build, and the engine (scripts/engine.sh).
# Stops the emulator and removes the temporary stack at the end, whatever happens.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
started=$SECONDS

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "installing dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
step "building the package"
npm run --silent build

if [ ! -x .tools/bin/pulumi ] || [ ! -x .tools/bin/pulumi-language-nodejs ]; then
  step "building the Pulumi engine into .tools/ (first run only: several minutes)"
fi
engine_start=$SECONDS
bash scripts/engine.sh
[ $((SECONDS - engine_start)) -gt 5 ] && echo "engine ready after $((SECONDS - engine_start)) s"
# shellcheck source=scripts/pulumi-env.sh
source scripts/pulumi-env.sh
echo "$(pulumi version) (CLI), Node.js $(node -v) for programs"

step "installing the example's dependencies (this package as a user installs it)"
bash scripts/install-example.sh examples/cluster

WORK="$(mktemp -d)"
EXAMPLE="$ROOT/examples/cluster"
STACK=demo
export PULUMI_BACKEND_URL="file://$WORK/backend"
mkdir -p "$WORK/backend"
emulator_pid=""
cleanup() {
  [ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null
  rm -f "$EXAMPLE/Pulumi.$STACK.yaml"
  rm -rf "$WORK"
}
trap cleanup EXIT

step "starting the emulator"
node dist/emulator/cli.js --port 0 --token demo-token --create-ms 3000 --update-ms 1500 --delete-ms 1500 \
  >"$WORK/emulator.out" 2>&1 &
emulator_pid=$!
for _ in $(seq 1 100); do
  grep -q "Emulator listening on" "$WORK/emulator.out" 2>/dev/null && break
  sleep 0.1
done
EMULATOR_URL="$(sed -n 's/^Emulator listening on //p' "$WORK/emulator.out")"
[ -n "$EMULATOR_URL" ] || { cat "$WORK/emulator.out"; exit 1; }
echo "emulator: $EMULATOR_URL"

cd "$EXAMPLE"
run() { printf '\n$ %s\n' "$*"; "$@"; }

step "a stack and its config"
run pulumi stack init "$STACK"
run pulumi config set vendor:baseUrl "$EMULATOR_URL"
run pulumi config set vendor:projectId demo-project
run pulumi config set --secret vendor:token demo-token
run pulumi config set vendor:pollIntervalMs 500

step "pulumi preview, then pulumi up"
run pulumi preview
run pulumi up --yes --skip-preview
run pulumi stack output

step "attaching a volume to a node"
# The service lists no nodes (a user takes one from `kubectl get nodes`); the emulator tells us here.
kaas_id="$(pulumi stack output kaasId)"
node_id="$(node -e '
  fetch(process.argv[1]).then((r) => r.json())
    .then((b) => console.log(b.nodes.find((p) => p.nodePool === "system").nodeIds[0]));
' "$EMULATOR_URL/_emulator/kaas/$kaas_id/nodes")"
run pulumi config set dataNodeId "$node_id"
run pulumi up --yes --skip-preview

step "resizing a pool and scheduling an upgrade, through config"
run pulumi config set systemNodes 3
run pulumi config set kubernetesVersion 1.33.2
run pulumi config set upgradeDate "$(date -u -d '+7 days' +%Y-%m-%dT%H:%M:%SZ)"
run pulumi up --yes --diff
run pulumi stack output pendingUpgrade
run pulumi preview --expect-no-changes

step "disabling HA is refused at preview (the service cannot do it, a replacement would destroy the cluster)"
run pulumi config set ha false
if run pulumi preview; then
  echo "demo: the preview should have failed" >&2
  exit 1
fi
run pulumi config rm ha

step "pulumi refresh, then pulumi destroy"
run pulumi refresh --yes --skip-preview
run pulumi destroy --yes --skip-preview
run pulumi stack rm --yes "$STACK"

printf '\ndemo finished in %d s\n' $((SECONDS - started))
