#!/usr/bin/env bash
# Makes a real Pulumi engine available offline in .tools/ (git-ignored):
#   .tools/bin/node                            Node 22 (npm package node@22; @pulumi/pulumi >= 3.249 needs it)
#   .tools/bin/pulumi                          Pulumi CLI v3.274.1, built with `go build` (scripts/engine/go.mod)
#   .tools/bin/pulumi-language-nodejs          Node.js language host, built from the same wrapper module
#   .tools/bin/pulumi-resource-pulumi-nodejs   dynamic-provider launcher shipped in @pulumi/pulumi
# Then `source scripts/pulumi-env.sh` puts .tools/bin first on PATH and sets the offline variables.
#
# Idempotent: every step is skipped when its result is already there with the pinned version.
# Needs: go, npm, curl-free network access to the npm registry and the Go module proxy only.
# GOMODCACHE / GOCACHE stay at their defaults (outside the repo) so a second run is fast.
#
# Exit status: 0 when all four are in place; 3 when everything but the language host is in
# place (see the message printed); other non-zero on errors.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
BIN="$TOOLS/bin"
WRAPPER="$ROOT/scripts/engine"

PULUMI_VERSION="3.274.1"          # CLI / Go modules pkg/v3 and sdk/v3 (pinned in scripts/engine/go.mod)
PULUMI_MIN_EXTERNAL="3.274.0"     # a `pulumi` already on PATH at least this new is used as is
PULUMI_NPM_VERSION="3.270.0"      # @pulumi/pulumi used only for the pulumi-resource-pulumi-nodejs launcher
NODE_MAJOR="22"
LANGHOST_MODULE="github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3"
CLI_PACKAGE="github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
LDFLAGS="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v${PULUMI_VERSION}"

log() { printf 'engine.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

mkdir -p "$BIN"

# One run at a time (parallel CI jobs or developers sharing a checkout).
exec 9>"$TOOLS/.lock"
flock 9

# PATH without our own bin, to find tools installed elsewhere.
outside_path() {
  local IFS=: dir out=()
  for dir in $PATH; do
    [[ -n "$dir" && "$(cd "$dir" 2>/dev/null && pwd -P)" != "$(cd "$BIN" && pwd -P)" ]] && out+=("$dir")
  done
  (IFS=:; printf '%s' "${out[*]}")
}

# version_ge A B: true when version A >= B (leading "v" ignored).
version_ge() {
  [[ "$(printf '%s\n%s\n' "${1#v}" "${2#v}" | sort -V | head -n1)" == "${2#v}" ]]
}

# Stamp of the wrapper module, so a change of go.mod/go.sum rebuilds.
wrapper_stamp() {
  cat "$WRAPPER/go.mod" "$WRAPPER/go.sum" "$WRAPPER"/*.go | sha256sum | cut -d' ' -f1
}

# ---------------------------------------------------------------------------------------------
# 1. Node 22
# ---------------------------------------------------------------------------------------------
NODE_BIN="$TOOLS/node22/node_modules/node/bin/node"
if [[ -x "$NODE_BIN" ]] && [[ "$("$NODE_BIN" -v 2>/dev/null)" == "v${NODE_MAJOR}."* ]]; then
  log "node $("$NODE_BIN" -v) already in .tools/node22"
else
  command -v npm >/dev/null || die "npm is needed to install node@${NODE_MAJOR}"
  log "installing node@${NODE_MAJOR} into .tools/node22"
  rm -rf "$TOOLS/node22"
  npm install --prefix "$TOOLS/node22" "node@${NODE_MAJOR}" --no-save --no-audit --no-fund --loglevel=error >&2
  [[ "$("$NODE_BIN" -v)" == "v${NODE_MAJOR}."* ]] || die "node@${NODE_MAJOR} did not install a Node ${NODE_MAJOR} binary"
fi
ln -sfn "../node22/node_modules/node/bin/node" "$BIN/node"

# ---------------------------------------------------------------------------------------------
# 2. Pulumi CLI (and the Node.js language host when the wrapper module pins it)
# ---------------------------------------------------------------------------------------------
STAMP_FILE="$BIN/.go-tools.stamp"
stamp="$(wrapper_stamp)"
langhost_pinned=false
if (cd "$WRAPPER" && go list -m "$LANGHOST_MODULE" >/dev/null 2>&1); then
  langhost_pinned=true
fi

cli_ok=false
if [[ -x "$BIN/pulumi" && ! -L "$BIN/pulumi" ]] && [[ "$(cat "$STAMP_FILE" 2>/dev/null)" == "$stamp" ]] \
  && [[ "$("$BIN/pulumi" version 2>/dev/null)" == "v${PULUMI_VERSION}" ]]; then
  cli_ok=true
  log "pulumi v${PULUMI_VERSION} already built in .tools/bin"
elif external="$(PATH="$(outside_path)" command -v pulumi)" \
  && ext_version="$("$external" version 2>/dev/null)" && version_ge "$ext_version" "$PULUMI_MIN_EXTERNAL"; then
  cli_ok=true
  log "using pulumi ${ext_version} found at $external"
  ln -sfn "$external" "$BIN/pulumi"
  # A Pulumi install ships its language hosts next to the CLI.
  if [[ ! -e "$BIN/pulumi-language-nodejs" && -x "$(dirname "$external")/pulumi-language-nodejs" ]]; then
    ln -sfn "$(dirname "$external")/pulumi-language-nodejs" "$BIN/pulumi-language-nodejs"
  fi
fi

langhost_ok=false
if [[ -x "$BIN/pulumi-language-nodejs" ]] && { [[ -L "$BIN/pulumi-language-nodejs" ]] || [[ "$(cat "$STAMP_FILE" 2>/dev/null)" == "$stamp" ]]; }; then
  langhost_ok=true
fi

if [[ "$cli_ok" != true ]] || { [[ "$langhost_ok" != true ]] && [[ "$langhost_pinned" == true ]]; }; then
  command -v go >/dev/null || die "go is needed to build the Pulumi CLI"
  # The wrapper's go.mod says which Go it needs; never fetch another toolchain silently.
  export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
  rm -f "$STAMP_FILE"
  start=$SECONDS
  log "building pulumi v${PULUMI_VERSION} (go build; several minutes on a cold cache)"
  (cd "$WRAPPER" && go build -trimpath -ldflags "$LDFLAGS" -o "$BIN/pulumi.tmp" "$CLI_PACKAGE")
  mv -f "$BIN/pulumi.tmp" "$BIN/pulumi"
  if [[ "$langhost_pinned" == true ]]; then
    log "building pulumi-language-nodejs ($(cd "$WRAPPER" && go list -m -f '{{.Version}}' "$LANGHOST_MODULE"))"
    (cd "$WRAPPER" && go build -trimpath -ldflags "$LDFLAGS" -o "$BIN/pulumi-language-nodejs.tmp" "$LANGHOST_MODULE")
    mv -f "$BIN/pulumi-language-nodejs.tmp" "$BIN/pulumi-language-nodejs"
    langhost_ok=true
  fi
  printf '%s\n' "$stamp" >"$STAMP_FILE"
  log "go build took $((SECONDS - start)) s"
  [[ "$("$BIN/pulumi" version)" == "v${PULUMI_VERSION}" ]] || die "built pulumi reports $("$BIN/pulumi" version), expected v${PULUMI_VERSION}"
fi

if [[ "$langhost_ok" != true ]] && external_lh="$(PATH="$(outside_path)" command -v pulumi-language-nodejs)"; then
  log "using pulumi-language-nodejs found at $external_lh"
  ln -sfn "$external_lh" "$BIN/pulumi-language-nodejs"
  langhost_ok=true
fi

# ---------------------------------------------------------------------------------------------
# 3. pulumi-resource-pulumi-nodejs launcher from @pulumi/pulumi
#    (a sh script: `node -e require.resolve('@pulumi/pulumi/cmd/dynamic-provider')` from the
#    provider's cwd, i.e. the program directory, so the program's own SDK copy is used)
# ---------------------------------------------------------------------------------------------
SDK_DIR="$TOOLS/pulumi-sdk/node_modules/@pulumi/pulumi"
LAUNCHER="$SDK_DIR/pulumi-resource-pulumi-nodejs"
if [[ -x "$LAUNCHER" ]] && [[ "$(PATH="$BIN:$PATH" node -p "require('$SDK_DIR/package.json').version" 2>/dev/null)" == "$PULUMI_NPM_VERSION" ]]; then
  log "@pulumi/pulumi@${PULUMI_NPM_VERSION} already in .tools/pulumi-sdk"
else
  log "installing @pulumi/pulumi@${PULUMI_NPM_VERSION} into .tools/pulumi-sdk (for its launcher)"
  rm -rf "$TOOLS/pulumi-sdk"
  PATH="$BIN:$PATH" npm install --prefix "$TOOLS/pulumi-sdk" "@pulumi/pulumi@${PULUMI_NPM_VERSION}" \
    --no-save --no-audit --no-fund --loglevel=error >&2
  [[ -x "$LAUNCHER" ]] || die "@pulumi/pulumi@${PULUMI_NPM_VERSION} has no pulumi-resource-pulumi-nodejs"
fi
ln -sfn "../pulumi-sdk/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$BIN/pulumi-resource-pulumi-nodejs"

mkdir -p "$TOOLS/pulumi-home"

# ---------------------------------------------------------------------------------------------
log "node $("$BIN/node" -v), pulumi $("$BIN/pulumi" version) in $BIN"
if [[ "$langhost_ok" != true ]]; then
  log "error: no pulumi-language-nodejs: Node.js programs cannot run."
  log "  scripts/engine/go.mod does not require $LANGHOST_MODULE,"
  log "  and none is on PATH. See the comment at the top of scripts/engine/go.mod."
  exit 3
fi
log "pulumi-language-nodejs ready"
