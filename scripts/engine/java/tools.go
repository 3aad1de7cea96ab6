//go:build tools

// Package tools pins the Java language host that scripts/engine.sh builds into .tools/bin.
// The blank import keeps `go mod tidy` from dropping the requirement in go.mod.
package tools

import (
	_ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
)
