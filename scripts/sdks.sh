#!/usr/bin/env bash
# Generates the provider plugin's SDKs from its package schema, dist/plugin/schema.json (`npm run build` writes it,
# and deletes dist/sdks with the rest of dist/: run this again after a build):
#   dist/sdks/nodejs   @pulumi-vendor-container/sdk: TypeScript sources, compiled into dist/sdks/nodejs/bin with
#                      this repository's TypeScript and @pulumi/pulumi, with its package.json: `npm pack` it
#   dist/sdks/python   pulumi_vendor_container, with pyproject.toml: `pip install dist/sdks/python`
#   dist/sdks/go       module github.com/vendor-container/pulumi-vendor-container/sdk/go, package vendorcontainer
# with .tools/bin/pulumi-sdkgen-vendor-container, which `bash scripts/engine.sh` builds.
#
# Usage: scripts/sdks.sh [--check] [nodejs|python|go ...]   (default: all three)
#   --check  also builds the Python SDK with pip and imports it with .tools/python, and compiles the Go SDK with
#            `go build` against the sdk/v3 of the CLI's release (scripts/engine/go.mod), which is in the module
#            cache once the engine is built, instead of the older release its go.mod names. (The Node.js SDK is
#            always compiled.)
# SDKS_OUT moves the output folder (default dist/sdks), SDKS_SCHEMA names another schema (default
# dist/plugin/schema.json).
#
# Exit status: 0 when every SDK asked for was generated (and compiled, with --check); non-zero otherwise.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GENERATOR="$ROOT/.tools/bin/pulumi-sdkgen-vendor-container"
SCHEMA="${SDKS_SCHEMA:-$ROOT/dist/plugin/schema.json}"
OUT="${SDKS_OUT:-$ROOT/dist/sdks}"

log() { printf 'sdks.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

check=false
languages=()
for arg in "$@"; do
  case "$arg" in
    --check) check=true ;;
    nodejs | python | go) languages+=("$arg") ;;
    *) die "unknown argument $arg (usage: scripts/sdks.sh [--check] [nodejs|python|go ...])" ;;
  esac
done
[[ ${#languages[@]} -gt 0 ]] || languages=(nodejs python go)

[[ -x "$GENERATOR" ]] || die "no SDK generator in .tools/bin: run \`bash scripts/engine.sh\` first"
[[ -f "$SCHEMA" ]] || die "no $SCHEMA: run \`npm run build\` first"

"$GENERATOR" -schema "$SCHEMA" -out "$OUT" -languages "$(IFS=,; printf '%s' "${languages[*]}")"
# The SDKs are packages of their own: `npm pack` of this one must not take their READMEs (npm packs every README
# below a folder it includes) nor a compiled Node.js SDK's JavaScript (`files` has dist/**/*.js).
printf '# Written by scripts/sdks.sh: the generated SDKs are not part of the npm package.\n*\n' >"$OUT/.npmignore"

if [[ " ${languages[*]} " == *" nodejs "* ]]; then
  # With the SDK's own tsconfig.json (into bin/), resolving TypeScript, @types/node and @pulumi/pulumi from this
  # repository; bin/ with the package.json is the package (the generator's package.json has no `main`).
  start=$SECONDS
  "$ROOT/node_modules/.bin/tsc" -p "$OUT/nodejs/tsconfig.json"
  cp "$OUT/nodejs/package.json" "$OUT/nodejs/README.md" "$OUT/nodejs/bin/"
  log "nodejs SDK compiled into $OUT/nodejs/bin ($((SECONDS - start)) s)"
fi
$check || exit 0

check_python() {
  # Installed into a folder of its own (the SDK reads its version from its installed metadata), offline: the
  # engine's virtualenv has its dependencies and a setuptools that builds it.
  local target
  target="$(mktemp -d)"
  "$ROOT/.tools/python/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-build-isolation \
    --no-index --target "$target" "$OUT/python"
  PYTHONPATH="$target" "$ROOT/.tools/python/bin/python" -c 'import pulumi_vendor_container'
  rm -rf "$target"
}

check_go() {
  command -v go >/dev/null || die "go is needed to compile the Go SDK"
  local sdk_version modfile
  sdk_version="$(cd "$ROOT/scripts/engine" && go list -m -f '{{.Version}}' github.com/pulumi/pulumi/sdk/v3)"
  # A go.mod of the check's own (-modfile), so that the generated one stays as generated.
  modfile="$(mktemp -d)/go.mod"
  cp "$OUT/go/go.mod" "$modfile"
  (
    cd "$OUT/go"
    export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"
    go mod edit -modfile="$modfile" -require="github.com/pulumi/pulumi/sdk/v3@$sdk_version"
    go mod tidy -modfile="$modfile"
    go build -modfile="$modfile" ./...
  )
  rm -rf "$(dirname "$modfile")"
}

for language in "${languages[@]}"; do
  [[ "$language" != nodejs ]] || continue
  start=$SECONDS
  "check_$language"
  log "$language SDK builds ($((SECONDS - start)) s)"
done
