//go:build tools

// Package tools pins the Go language host that scripts/engine.sh builds into .tools/bin.
// The blank import keeps `go mod tidy` from dropping the requirement in go.mod.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
)
