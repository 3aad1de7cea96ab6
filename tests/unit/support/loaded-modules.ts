/**
 * A line of JavaScript for a script run in a process of its own (`node -e`) that checks what a built module
 * loads: it defines `loaded(pattern)`, the files of `require.cache` matching `pattern`, sorted, with forward
 * slashes, a package's files from its name (`ajv/dist/...`) and the package's own from `dist/`.
 */
export const LOADED_MODULES = `const loaded = (pattern) => Object.keys(require.cache)
  .map((file) => file.split("\\\\").join("/"))
  .filter((file) => pattern.test(file))
  .map((file) => file.replace(/^.*node_modules\\//, "").replace(/^\\/.*\\/dist\\//, "dist/"))
  .sort();`;
