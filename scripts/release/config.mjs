// Where a release of this package is published: the one place that names it. The package schema
// (scripts/package-schema.mjs) and so every generated SDK carry the plugin download URL, and the Go SDK's module
// path; scripts/release/sdks.mjs builds the packages under these names.
import process from "node:process";

/**
 * Where the engine downloads the provider plugin an SDK asks for (the schema's `pluginDownloadURL`, each SDK's
 * `pulumi-plugin.json` `server`). An http(s) URL: the engine replaces `${VERSION}` with the plugin's version and
 * fetches `<url>/pulumi-resource-vendor-container-v<version>-<os>-<arch>.tar.gz`
 * (sdk/go/common/workspace/plugins.go `httpSource.Download`, pulumi/pulumi v3.274.1), which is the download address
 * of a GitHub release's asset. `VENDOR_PLUGIN_DOWNLOAD_URL` overrides it, for a release made for tests.
 */
export const RELEASE_PLUGIN_DOWNLOAD_URL =
  "https://github.com/vendor-container/pulumi-vendor-container/releases/download/v${VERSION}";

/** The plugin download URL of the release being made: `VENDOR_PLUGIN_DOWNLOAD_URL` when set. */
export function pluginDownloadUrl(env = process.env) {
  return env.VENDOR_PLUGIN_DOWNLOAD_URL || RELEASE_PLUGIN_DOWNLOAD_URL;
}

/**
 * The Go SDK's module path (package `vendorcontainer` below it). A release serves it as a GOPROXY file layout
 * (`<module>/@v/...`, dist/release/go): users put that folder's address first in `GOPROXY`.
 */
export const GO_MODULE = "github.com/vendor-container/pulumi-vendor-container/sdk/go";
