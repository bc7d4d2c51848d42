const SHIM = new URL("./fs-shim.mjs", import.meta.url).href;
const BUNDLES = [/\/@modelcontextprotocol\/conformance\/dist\//, /\/mcp-conformance-0116\/dist\//];

export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL !== undefined && BUNDLES.some((b) => b.test(context.parentURL))) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
