import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods, API_ROUTES, HTTP_METHODS } from "./api-methods";

const root = join(import.meta.dirname, "..", "..");

/** Every `app/api/**\/route.ts`, as its route (`/api/orgs/[org]/apps`). */
function routeFiles(dir = join(root, "app", "api")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routeFiles(join(dir, entry.name)) : entry.name === "route.ts" ? [join(dir, entry.name)] : [],
  );
}

/** The methods a route file exports (`export const GET`, `export async function POST`, `export { x as DELETE }`). */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|async\s+function|function)\s+([A-Z]+)\b/g)) found.add(m[1]!);
  for (const list of source.matchAll(/export\s*\{([^}]*)\}/g)) for (const m of list[1]!.matchAll(/\bas\s+([A-Z]+)\b/g)) found.add(m[1]!);
  return HTTP_METHODS.filter((method) => found.has(method));
}

describe("the API's methods (SPEC §10: a method no route answers is a JSON 405)", () => {
  const files = routeFiles().map((file) => ({
    route: `/${relative(join(root, "app"), file).split(sep).slice(0, -1).join("/")}`,
    methods: exportedMethods(readFileSync(file, "utf8")),
  }));

  it("lists every route file under app/api with the methods it exports (add a new route to lib/http/api-methods.ts)", () => {
    expect(Object.fromEntries(files.map((f) => [f.route, f.methods]).sort())).toEqual(
      Object.fromEntries(Object.entries(API_ROUTES).map(([route, methods]) => [route, HTTP_METHODS.filter((m) => methods.includes(m))]).sort()),
    );
  });

  it("matches a path to the route Next serves it from: static before dynamic before catch-all", () => {
    expect(allowedMethods("/api/orgs/acme/me/apps")).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    expect(allowedMethods("/api/orgs/acme/apps/a1/oauth")).toEqual(["OPTIONS", "POST", "DELETE"]);
    expect(allowedMethods("/api/registry/t/v0.1/servers/x/versions/latest")).toEqual(["GET", "HEAD", "OPTIONS"]);
    expect(allowedMethods("/api/auth/sign-in%2Femail%2F")).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    // The JSON 404 answers any method; a doubled or trailing slash is Next's to redirect.
    expect(allowedMethods("/api/orgs/acme/nothing")).toBeNull();
    expect(allowedMethods("/api/hosts/")).toBeNull();
    expect(allowedMethods("/api//hosts")).toBeNull();
  });
});
