#!/bin/sh
# Installs the Pulumi CLI at the version these pipelines are tested with, the same in every job of both
# samples (workflow.yml, gitlab-ci.yml): a new CLI release never changes a run by itself. Raise the version
# here, in one place, once a run with the new one is green.
#
# A `pulumi` already on PATH at exactly this version is used as it is (a runner image that ships it, a cached
# tool folder); otherwise get.pulumi.com's installer puts this version in $HOME/.pulumi/bin. Under GitHub
# Actions that folder is added to the PATH of the job's later steps ($GITHUB_PATH); elsewhere the caller puts
# it on PATH (gitlab-ci.yml: `export PATH="$HOME/.pulumi/bin:$PATH"`).
set -eu

PULUMI_VERSION=3.274.1

if command -v pulumi >/dev/null 2>&1 && [ "$(pulumi version 2>/dev/null)" = "v$PULUMI_VERSION" ]; then
  echo "pulumi v$PULUMI_VERSION is already installed: $(command -v pulumi)"
  exit 0
fi

# Downloaded first, then run: piping curl into sh would run whatever part arrived if the download failed.
installer="$(mktemp)"
trap 'rm -f "$installer"' EXIT
curl -fsSL https://get.pulumi.com -o "$installer"
sh "$installer" --version "$PULUMI_VERSION" --no-edit-path

installed="$("$HOME/.pulumi/bin/pulumi" version)"
if [ "$installed" != "v$PULUMI_VERSION" ]; then
  echo "error: the installer left pulumi $installed in $HOME/.pulumi/bin, not v$PULUMI_VERSION" >&2
  exit 1
fi
if [ -n "${GITHUB_PATH:-}" ]; then
  echo "$HOME/.pulumi/bin" >>"$GITHUB_PATH"
fi
echo "pulumi v$PULUMI_VERSION installed: $HOME/.pulumi/bin/pulumi"
