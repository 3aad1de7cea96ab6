// Command gomodzip writes a Go module as a GOPROXY file layout, with Go's own module zip rules
// (golang.org/x/mod/zip: the files a module zip may hold, `<module>@<version>/` prefixes, size limits):
//
//	gomodzip -dir <module folder with go.mod> -version v0.2.0 -out <proxy root> [-time RFC3339]
//
// writes <proxy root>/<escaped module path>/@v/{<version>.zip,<version>.mod,<version>.info,list}, which
// `GOPROXY=file://<proxy root>` (or the same folder served over https) answers as a module proxy does.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	dir := flag.String("dir", "", "folder of the module (holds go.mod)")
	version := flag.String("version", "", "version to publish, v-prefixed semver")
	out := flag.String("out", "", "root of the GOPROXY layout")
	stamp := flag.String("time", "", "the version's time (RFC 3339), for .info; default now")
	flag.Parse()
	if err := run(*dir, *version, *out, *stamp); err != nil {
		fmt.Fprintln(os.Stderr, "gomodzip:", err)
		os.Exit(1)
	}
}

func run(dir, version, out, stamp string) error {
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(mod.Path, mod.Version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	at := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromDir(zipFile, mod, dir); err != nil {
		zipFile.Close()
		return err
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".mod"), gomod, 0o644); err != nil {
		return err
	}
	when := time.Now().UTC()
	if stamp != "" {
		if when, err = time.Parse(time.RFC3339, stamp); err != nil {
			return err
		}
	}
	info, err := json.Marshal(struct {
		Version string
		Time    string
	}{version, when.UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(at, version+".info"), append(info, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(at, "list"), []byte(version+"\n"), 0o644)
}
