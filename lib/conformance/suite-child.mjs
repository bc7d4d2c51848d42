// The child process a conformance run happens in (SPEC §27, lib/conformance/run.ts): it runs the
// pinned suite's CLI (`conformance server …`) so that a slow or hostile app can never stall the
// dashboard, and the parent kills it at the run's bound. Plain JavaScript: it is started with
// `node` as it is, by the dashboard and the command line alike.
//
// Its settings come on stdin as one JSON line (never argv or the environment: the headers may
// hold a credential): {bin, args, host, address, family, origin, headers}.
// - Every connection the suite makes goes to the one address the parent checked (SPEC §10) for
//   the app's host, whatever DNS answers meanwhile; a connection to any other host is refused.
// - The caller's headers are added to each request to the app's origin the suite did not give
//   the same header itself.
// - On Node 20 the suite's bundle imports `fs.globSync` (Node 22), used only to find
//   expected-failure files: its `fs` is answered by a module that has none (FIELD-NOTES §8).
import { createRequire, register } from "node:module";

async function readSettings() {
  let text = "";
  for await (const chunk of process.stdin) {
    text += chunk.toString("utf8");
    if (text.includes("\n")) break;
  }
  return JSON.parse(text.slice(0, text.indexOf("\n") === -1 ? undefined : text.indexOf("\n")));
}

const settings = await readSettings();
process.stdin.destroy();

const SHIM = `data:text/javascript,${encodeURIComponent(`import * as fs from "node:fs"; export * from "node:fs"; export default fs; export const globSync = fs.globSync ?? (() => []);`)}`;
const HOOKS = `data:text/javascript,${encodeURIComponent(`
const SHIM = ${JSON.stringify(SHIM)};
export async function resolve(specifier, context, next) {
  if ((specifier === "fs" || specifier === "node:fs") && context.parentURL !== undefined && /\\/@modelcontextprotocol\\/conformance\\/dist\\//.test(context.parentURL)) return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}`)}`;
register(HOOKS);

// The suite's own undici: its `request` and Node's `fetch` both use the global dispatcher.
const undici = createRequire(settings.bin)("undici");
const target = settings.host;
const given = Object.entries(settings.headers ?? {});

/** Adds the caller's headers to a request's, where the suite did not set the same one. */
function withHeaders(headers) {
  if (given.length === 0) return headers;
  const pairs = [];
  if (Array.isArray(headers)) {
    if (headers.length > 0 && Array.isArray(headers[0])) pairs.push(...headers);
    else for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i], headers[i + 1]]);
  } else if (headers && typeof headers[Symbol.iterator] === "function") {
    pairs.push(...headers);
  } else if (headers) {
    pairs.push(...Object.entries(headers));
  }
  const names = new Set(pairs.map(([name]) => String(name).toLowerCase()));
  for (const [name, value] of given) if (!names.has(name.toLowerCase())) pairs.push([name, value]);
  return pairs.flat();
}

class Pinned extends undici.Agent {
  dispatch(options, handler) {
    const origin = typeof options.origin === "string" ? options.origin : String(options.origin);
    const same = origin.replace(/\/$/, "") === settings.origin;
    return super.dispatch(same ? { ...options, headers: withHeaders(options.headers) } : options, handler);
  }
}

const connect = undici.buildConnector({});
undici.setGlobalDispatcher(
  new Pinned({
    connect: (to, callback) => {
      const host = String(to.hostname).replace(/^\[(.*)\]$/, "$1").toLowerCase();
      if (host !== target) return callback(Object.assign(new Error(`${to.hostname} is not the app's host: not connected`), { code: "EREFUSED" }), null);
      return connect({ ...to, hostname: settings.address }, callback);
    },
  }),
);

process.argv = [process.execPath, settings.bin, ...settings.args];
await import(new URL(`file://${settings.bin}`).href);
