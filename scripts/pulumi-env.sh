# Source this file (bash): `source scripts/pulumi-env.sh` after `bash scripts/engine.sh`.
# Puts the offline Pulumi engine in .tools/bin first on PATH (so `node` is Node 22) and sets
# the variables that keep Pulumi offline. PULUMI_BACKEND_URL is left to the caller, e.g.
#   export PULUMI_BACKEND_URL="file://$PWD/.state"
# Safe to source more than once and under `set -euo pipefail`.

_pulumi_env_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

case ":${PATH:-}:" in
  *":$_pulumi_env_root/.tools/bin:"*) ;;
  *) export PATH="$_pulumi_env_root/.tools/bin${PATH:+:$PATH}" ;;
esac

export PULUMI_SKIP_UPDATE_CHECK=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_HOME="$_pulumi_env_root/.tools/pulumi-home"
# Python programs run with the `pulumi` package scripts/engine.sh installed.
export PULUMI_PYTHON_CMD="$_pulumi_env_root/.tools/python/bin/python"
mkdir -p "$PULUMI_HOME"

# A default passphrase for the passphrase secrets provider, unless the caller chose one.
if [[ -z "${PULUMI_CONFIG_PASSPHRASE+x}" && -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]]; then
  export PULUMI_CONFIG_PASSPHRASE="pulumi-vendor-container-local"
fi

unset _pulumi_env_root
