import { ApiError, withErrors } from "@/lib/api/errors";
import { publishedApps } from "@/lib/orgs/lists";
import { orgContext } from "@/lib/orgs/context";
import { publishedEntries, serverPage } from "@/lib/registry/publish";
import { registryOfToken } from "@/lib/registry/store";
import { registryListQuery } from "@/lib/schemas/registry";

export const dynamic = "force-dynamic";

/**
 * The organisation's registry (SPEC §24), or one group's (§25), the MCP Registry v0.1 API at `/api/registry/{token}`:
 * `GET /v0.1/servers`, `…/servers/{name}/versions`, `…/versions/{version}` and `…/versions/latest`.
 * Outside `withOrg`: the token is the credential, and no cookie is read. Any origin may read it
 * (VS Code and GitHub Copilot fetch it from theirs).
 */

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
  "Access-Control-Allow-Headers": "*",
  "Access-Control-Max-Age": "86400",
};

const withCors = (response: Response) => {
  for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
  response.headers.set("Cache-Control", "no-store");
  return response;
};

type Route = { kind: "list" } | { kind: "versions"; name: string } | { kind: "version"; name: string; version: string };

/** The route under the token, from the raw path: a server's name may come encoded (`org.acme%2Fattendance`) or not. */
function routeOf(pathname: string): Route | null {
  let parts: string[];
  try {
    parts = pathname.split("/").slice(4).map((p) => decodeURIComponent(p)); // "", "api", "registry", token
  } catch {
    return null; // bad percent-encoding (the guard answers it 400 before it gets here)
  }
  if (parts[parts.length - 1] === "") parts.pop();
  if (parts[0] !== "v0.1" || parts[1] !== "servers") return null;
  const rest = parts.slice(2);
  if (rest.length === 0) return { kind: "list" };
  const at = rest.lastIndexOf("versions");
  if (at < 1 || at < rest.length - 2) return null;
  const name = rest.slice(0, at).join("/");
  return at === rest.length - 1 ? { kind: "versions", name } : { kind: "version", name, version: rest[at + 1]! };
}

const notFound = (message: string) => new ApiError("not-found", message);

async function answer(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const url = new URL(request.url);
  const org = await registryOfToken(orgContext().db, token);
  if (org === null) throw notFound("There is no registry at this address: it was never made, or it was turned off or made anew.");
  const route = routeOf(url.pathname);
  if (route === null) throw notFound("A registry answers /v0.1/servers, /v0.1/servers/{name}/versions and /v0.1/servers/{name}/versions/{version or latest}.");
  const { apps } = await publishedApps(orgContext(), org.slug, org.version, org.group?.id);
  const entries = publishedEntries({ slug: org.slug, name: org.name }, apps);
  if (route.kind === "list") {
    // An empty parameter is one left out; a limit out of the official registry's bounds is 422.
    const given = (name: string) => url.searchParams.get(name) || undefined;
    return Response.json(serverPage(entries, registryListQuery.parse({ cursor: given("cursor"), limit: given("limit"), search: given("search") })));
  }
  const entry = entries.find((e) => e.server.name === route.name);
  if (entry === undefined) throw notFound(`This registry has no server ${JSON.stringify(route.name.slice(0, 200))}.`);
  if (route.kind === "versions") return Response.json({ servers: [entry], metadata: { count: 1 } });
  if (route.version !== "latest" && route.version !== entry.server.version) throw notFound(`This registry has no version ${JSON.stringify(route.version.slice(0, 100))} of ${route.name}: it lists ${entry.server.version}.`);
  return Response.json(entry);
}

const handled = withErrors(answer);

export async function GET(request: Request, context: { params: Promise<{ token: string }> }): Promise<Response> {
  return withCors(await handled(request, context));
}

export const HEAD = GET;

/** The CORS preflight: any origin may GET. */
export function OPTIONS(): Response {
  return withCors(new Response(null, { status: 204 }));
}
