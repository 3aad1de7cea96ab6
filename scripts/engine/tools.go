//go:build tools

// Package tools pins the Go programs that scripts/engine.sh builds into .tools/bin.
// It is never compiled into anything; the blank imports keep `go mod tidy`
// from dropping the requirements in go.mod.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
	_ "github.com/pulumi/pulumi/sdk/v3/go/common/version"
)
