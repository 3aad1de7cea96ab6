#!/usr/bin/env bash
# Makes a real Pulumi engine available offline in .tools/ (git-ignored):
#   .tools/bin/node                            Node 22 (npm package node@22; @pulumi/pulumi >= 3.249 needs it)
#   .tools/bin/pulumi                          Pulumi CLI v3.274.1, built with `go build` (scripts/engine/go.mod)
#   .tools/bin/pulumi-language-nodejs          Node.js language host, built from sdk/v3 v3.68.0
#                                              (scripts/engine/langhost/go.mod; see the comment there)
#   .tools/bin/pulumi-language-python          Python language host, built from the same module, and
#   .tools/bin/pulumi-language-python-exec     the script it runs programs with (the CLI's sdk/v3 release,
#                                              which matches the Python SDK below)
#   .tools/bin/pulumi-language-yaml            YAML language host, pulumi-yaml v1.25.0 (scripts/engine/yaml/go.mod)
#   .tools/python                              a virtualenv with the `pulumi` package from PyPI (Python programs
#                                              run with it: PULUMI_PYTHON_CMD, set by scripts/pulumi-env.sh) and
#                                              a setuptools that builds local packages (the generated Python SDK)
#                                              without downloading anything
#   .tools/bin/pulumi-sdkgen-vendor-container  SDK generator: the Node.js, Python and Go generators of pkg/v3 at
#                                              the CLI's release (scripts/engine/sdkgen; scripts/sdks.sh runs it)
#   .tools/bin/pulumi-resource-pulumi-nodejs   dynamic-provider launcher shipped in @pulumi/pulumi
# Then `source scripts/pulumi-env.sh` puts .tools/bin first on PATH and sets the offline variables.
#
# Idempotent: every step is skipped when its result is already there with the pinned version.
# Needs: go, npm, curl-free network access to the npm registry and the Go module proxy only.
# GOMODCACHE / GOCACHE stay at their defaults (outside the repo) so a second run is fast.
#
# A `pulumi` already installed on the machine (at least PULUMI_MIN_EXTERNAL) is used as it is, with
# the language host its own install ships next to it.
#
# Exit status: 0 when everything is in place; non-zero on errors.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
BIN="$TOOLS/bin"
WRAPPER="$ROOT/scripts/engine"

PULUMI_VERSION="3.274.1"          # CLI / Go modules pkg/v3 and sdk/v3 (pinned in scripts/engine/go.mod)
PULUMI_MIN_EXTERNAL="3.274.0"     # a `pulumi` already on PATH at least this new is used as is
PULUMI_NPM_VERSION="3.270.0"      # @pulumi/pulumi used only for the pulumi-resource-pulumi-nodejs launcher
NODE_MAJOR="22"
LANGHOST_WRAPPER="$ROOT/scripts/engine/langhost"
LANGHOST_PACKAGE="github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
CLI_PACKAGE="github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
LANGHOST_VERSION="3.68.0"         # sdk/v3 release that still holds the Node.js and Python language hosts
PYTHON_LANGHOST_PACKAGE="github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
YAML_WRAPPER="$ROOT/scripts/engine/yaml"
YAML_PACKAGE="github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
YAML_VERSION="1.25.0"             # pulumi-yaml (pinned in scripts/engine/yaml/go.mod)
PULUMI_PYPI_VERSION="3.272.0"     # the `pulumi` package Python programs run with (the newest PyPI serves here)
SETUPTOOLS_VERSION="80.9.0"       # builds the generated Python SDK with pip --no-build-isolation (needs >= 70.1,
                                  # which builds wheels without the `wheel` package; the venv's own is older)
SDKGEN_WRAPPER="$ROOT/scripts/engine/sdkgen"

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

# Stamp of a wrapper module, so a change of its go.mod/go.sum rebuilds.
wrapper_stamp() {
  cat "$1/go.mod" "$1/go.sum" "$1"/*.go | sha256sum | cut -d' ' -f1
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
# 2. Pulumi CLI and the Node.js language host
# ---------------------------------------------------------------------------------------------
# The wrapper's go.mod says which Go it needs; never fetch another toolchain silently.
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

# go_build NAME WRAPPER PACKAGE VERSION: builds PACKAGE from the wrapper module into .tools/bin/NAME,
# stamped with VERSION (the Automation API parses `pulumi version`), unless the binary there was
# built from the same go.mod/go.sum.
go_build() {
  local name="$1" wrapper="$2" package="$3" stamp_file="$BIN/.$1.stamp" stamp
  local ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$4"
  stamp="$(wrapper_stamp "$wrapper")"
  if [[ -x "$BIN/$name" && ! -L "$BIN/$name" && "$(cat "$stamp_file" 2>/dev/null)" == "$stamp" ]]; then
    log "$name already built in .tools/bin"
    return 0
  fi
  command -v go >/dev/null || die "go is needed to build $name"
  rm -f "$stamp_file" "$BIN/$name"
  local start=$SECONDS
  log "building $name (go build; a few minutes on a cold cache)"
  (cd "$wrapper" && go build -trimpath -ldflags "$ldflags" -o "$BIN/$name.tmp" "$package")
  mv -f "$BIN/$name.tmp" "$BIN/$name"
  printf '%s\n' "$stamp" >"$stamp_file"
  log "building $name took $((SECONDS - start)) s"
}

external=""
if ext="$(PATH="$(outside_path)" command -v pulumi)" && ext_version="$("$ext" version 2>/dev/null)" \
  && version_ge "$ext_version" "$PULUMI_MIN_EXTERNAL" && [[ -x "$(dirname "$ext")/pulumi-language-nodejs" ]]; then
  external="$ext"
fi

if [[ -n "$external" ]]; then
  # A Pulumi install ships its language hosts next to the CLI: use both as they are.
  log "using pulumi ${ext_version} found at $external, with its own language hosts"
  ln -sfn "$external" "$BIN/pulumi"
  for host in pulumi-language-nodejs pulumi-language-python pulumi-language-python-exec pulumi-language-yaml; do
    ln -sfn "$(dirname "$external")/$host" "$BIN/$host"
  done
else
  [[ -L "$BIN/pulumi" ]] && rm -f "$BIN/pulumi" "$BIN/pulumi-language-nodejs" "$BIN/pulumi-language-python" \
    "$BIN/pulumi-language-python-exec" "$BIN/pulumi-language-yaml"
  go_build pulumi "$WRAPPER" "$CLI_PACKAGE" "$PULUMI_VERSION"
  [[ "$("$BIN/pulumi" version)" == "v${PULUMI_VERSION}" ]] \
    || die "built pulumi reports $("$BIN/pulumi" version), expected v${PULUMI_VERSION}"
  # Next to the CLI, so that the CLI treats it as bundled (no warning on every run).
  go_build pulumi-language-nodejs "$LANGHOST_WRAPPER" "$LANGHOST_PACKAGE" "$LANGHOST_VERSION"
  go_build pulumi-language-python "$LANGHOST_WRAPPER" "$PYTHON_LANGHOST_PACKAGE" "$LANGHOST_VERSION"
  # The host runs programs through this script, found on PATH. The CLI's sdk/v3 release has the one that
  # matches today's `pulumi` package (the v3.68.0 one calls functions it no longer has).
  exec_script="$(cd "$WRAPPER" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec"
  [[ -f "$exec_script" ]] || die "no pulumi-language-python-exec at $exec_script"
  install -m 0755 "$exec_script" "$BIN/pulumi-language-python-exec"
  go_build pulumi-language-yaml "$YAML_WRAPPER" "$YAML_PACKAGE" "$YAML_VERSION"
fi

# The SDK generator, also next to an installed `pulumi`: scripts/sdks.sh generates with it whichever CLI is used,
# so that the SDKs never depend on what the language hosts at hand can generate.
go_build pulumi-sdkgen-vendor-container "$SDKGEN_WRAPPER" . "$PULUMI_VERSION"

# ---------------------------------------------------------------------------------------------
# 2b. The `pulumi` package for Python programs, in a virtualenv of its own
# ---------------------------------------------------------------------------------------------
PYTHON_ENV="$TOOLS/python"
python_versions() {
  "$PYTHON_ENV/bin/python" -c 'import importlib.metadata as m; print(m.version("pulumi"), m.version("setuptools"))' 2>/dev/null
}
if [[ -x "$PYTHON_ENV/bin/python" ]] && [[ "$(python_versions)" == "$PULUMI_PYPI_VERSION $SETUPTOOLS_VERSION" ]]; then
  log "pulumi ${PULUMI_PYPI_VERSION} and setuptools ${SETUPTOOLS_VERSION} (Python) already in .tools/python"
else
  command -v python3 >/dev/null || die "python3 is needed for Python programs"
  if [[ ! -x "$PYTHON_ENV/bin/python" ]]; then
    python3 -m venv "$PYTHON_ENV"
  fi
  log "installing pulumi ${PULUMI_PYPI_VERSION} and setuptools ${SETUPTOOLS_VERSION} from PyPI into .tools/python"
  "$PYTHON_ENV/bin/pip" install --quiet --disable-pip-version-check \
    "pulumi==${PULUMI_PYPI_VERSION}" "setuptools==${SETUPTOOLS_VERSION}" >&2
fi

# A wheelhouse of the Python SDK's dependencies (`pulumi` and what it needs, for .tools/python's interpreter), so
# that a fresh virtualenv installs the release's wheel offline: pip install --no-index --find-links
# (tests/e2e/release-sdks.e2e.test.ts).
WHEELHOUSE="$TOOLS/python-wheels/pulumi-${PULUMI_PYPI_VERSION}"
if [[ -f "$WHEELHOUSE/.complete" ]]; then
  log "wheels of pulumi ${PULUMI_PYPI_VERSION} and its dependencies already in ${WHEELHOUSE#"$ROOT/"}"
else
  log "downloading the wheels of pulumi ${PULUMI_PYPI_VERSION} and its dependencies from PyPI into ${WHEELHOUSE#"$ROOT/"}"
  rm -rf "$WHEELHOUSE"
  "$PYTHON_ENV/bin/pip" download --quiet --disable-pip-version-check --only-binary=:all: --dest "$WHEELHOUSE" \
    "pulumi==${PULUMI_PYPI_VERSION}" >&2
  touch "$WHEELHOUSE/.complete"
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
log "node $("$BIN/node" -v), $("$BIN/pulumi" version 2>/dev/null | sed 's/^/pulumi /'), pulumi-language-nodejs, pulumi-language-python, pulumi-language-yaml, pulumi-resource-pulumi-nodejs, pulumi-sdkgen-vendor-container in $BIN; Python's pulumi in .tools/python"
