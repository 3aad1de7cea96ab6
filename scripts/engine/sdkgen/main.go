// Command pulumi-sdkgen-vendor-container writes the Node.js, Python and Go SDKs of a Pulumi package schema with
// the generators of github.com/pulumi/pulumi/pkg/v3/codegen, the ones `pulumi package gen-sdk` reaches through a
// language host. The language hosts scripts/engine.sh can build (sdk/v3 v3.68.0) predate the host's
// GeneratePackage call, so the CLI cannot generate with them; calling the generators directly needs no host and
// no plugin: the schema refers to no other package than `pulumi` itself.
//
//	pulumi-sdkgen-vendor-container -schema dist/plugin/schema.json -out dist/sdks [-languages nodejs,python,go]
//
// Each language's SDK replaces the folder <out>/<language>.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the name the generators write into every file's "do not edit" header.
const tool = "pulumi-sdkgen-vendor-container"

// noPlugins resolves the built-in `pulumi` package only: generating must never start a provider plugin.
type noPlugins struct{}

var _ schema.ReferenceLoader = noPlugins{}

func (noPlugins) LoadPackage(name string, version *semver.Version) (*schema.Package, error) {
	return noPlugins{}.LoadPackageV2(context.Background(), &schema.PackageDescriptor{Name: name, Version: version})
}

func (noPlugins) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	if d.Name == "pulumi" {
		return schema.DefaultPulumiPackage, nil
	}
	return nil, fmt.Errorf("the schema refers to the package %s, which this generator does not load", d)
}

func (noPlugins) LoadPackageReference(name string, version *semver.Version) (schema.PackageReference, error) {
	return noPlugins{}.LoadPackageReferenceV2(
		context.Background(), &schema.PackageDescriptor{Name: name, Version: version})
}

func (noPlugins) LoadPackageReferenceV2(
	ctx context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	pkg, err := noPlugins{}.LoadPackageV2(ctx, d)
	if err != nil {
		return nil, err
	}
	return pkg.Reference(), nil
}

// bind reads and binds the schema afresh: the generators record their language's options in the package.
func bind(path string) (*schema.Package, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noPlugins{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", path, diags.Error())
	}
	return pkg, nil
}

// generators by language: each returns the SDK's files, by path relative to its folder.
var generators = map[string]func(*schema.Package) (map[string][]byte, error){
	"nodejs": func(pkg *schema.Package) (map[string][]byte, error) {
		// Not a "local SDK": that variant compiles itself in an npm postinstall script.
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noPlugins{})
	},
	"python": func(pkg *schema.Package) (map[string][]byte, error) {
		files, err := python.GeneratePackage(tool, pkg, nil, noPlugins{})
		if err != nil {
			return nil, err
		}
		// pyproject.toml names README.md beside it as the package's description, and the generator writes the
		// README into the package's folder only: without a copy, setuptools warns and publishes none.
		info, _ := pkg.Language["python"].(python.PackageInfo)
		if readme, ok := files[filepath.Join(info.PackageName, "README.md")]; ok && files["README.md"] == nil {
			files["README.md"] = readme
		}
		return files, nil
	},
	"go": func(pkg *schema.Package) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	},
}

func generate(schemaPath, out, language string) (int, error) {
	gen, ok := generators[language]
	if !ok {
		return 0, fmt.Errorf("no generator for %q (nodejs, python, go)", language)
	}
	pkg, err := bind(schemaPath)
	if err != nil {
		return 0, err
	}
	files, err := gen(pkg)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", language, err)
	}
	dir := filepath.Join(out, language)
	// A kind or function removed from the schema must not leave its file behind.
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	for name, data := range files {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return 0, err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return 0, err
		}
	}
	return len(files), nil
}

func main() {
	schemaPath := flag.String("schema", "", "the package schema (JSON)")
	out := flag.String("out", "", "the folder that receives one folder per language")
	languages := flag.String("languages", "nodejs,python,go", "comma-separated: nodejs, python, go")
	flag.Parse()
	if *schemaPath == "" || *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	var failed []string
	for _, language := range strings.Split(*languages, ",") {
		count, err := generate(*schemaPath, *out, language)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", tool, err)
			failed = append(failed, language)
			continue
		}
		fmt.Fprintf(os.Stderr, "%s: %s SDK, %d files, in %s\n", tool, language, count,
			filepath.Join(*out, language))
	}
	if len(failed) > 0 {
		fmt.Fprintf(os.Stderr, "%s: failed: %s\n", tool, strings.Join(failed, ", "))
		os.Exit(1)
	}
}
