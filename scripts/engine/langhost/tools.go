//go:build tools

// Package tools pins the Node.js and Python language hosts that scripts/engine.sh builds into .tools/bin.
// The blank import keeps `go mod tidy` from dropping the requirement in go.mod.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)
