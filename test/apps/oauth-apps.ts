import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { IncomingMessage, ServerResponse } from "node:http";
import express from "express";
import Provider, { type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { createOAuthMetadata, getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { resourceUrlFromServerUrl } from "@modelcontextprotocol/sdk/shared/auth-utils.js";
import { goodServer } from "./sdk-apps";

/**
 * MCP apps that sign in with OAuth, on 127.0.0.1 and free ports, for the OAuth tests (SPEC §17):
 * - `startDemoOAuthApp`: the SDK's own demo authorization server (auto-approves, DCR, PKCE,
 *   strict `resource`) beside an MCP app guarded by the SDK's `requireBearerAuth`: the happy path.
 * - `startOidcApp`: oidc-provider (refresh tokens, RFC 9207 `iss`, DCR) with knobs for what a
 *   hostile or broken server does: another issuer, no PKCE advertised, HTML or no `expires_in`
 *   from the token endpoint.
 * Both list the three tools of `goodServer` to a valid token.
 */

export interface OAuthApp {
  /** The app's MCP URL. */
  url: string;
  /** The authorization server's issuer. */
  issuer: string;
  /** Ports to allow (CHECK_ALLOW_HOSTS): the app's and its authorization server's. */
  ports: number[];
  /** Requests the authorization server saw, as `METHOD path`. */
  seen: string[];
  close: () => Promise<void>;
}

async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Answers one MCP request statelessly with `goodServer`'s tools. */
async function serveMcp(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = goodServer();
  res.on("close", () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The SDK's demo authorization server and an MCP app that takes its tokens (only for itself: `strictResource`). */
export async function startDemoOAuthApp(options: { ports?: { app?: number; auth?: number } } = {}): Promise<OAuthApp> {
  const seen: string[] = [];
  const authServer = http.createServer();
  const mcpServer = http.createServer();
  const authPort = await listen(authServer, options.ports?.auth);
  const mcpPort = await listen(mcpServer, options.ports?.app);
  const issuerUrl = new URL(`http://127.0.0.1:${authPort}/`);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpPort}/mcp`);
  const expected = resourceUrlFromServerUrl(mcpUrl).href;
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.href === expected);

  const auth = express();
  auth.use((req, _res, next) => {
    seen.push(`${req.method} ${req.path}`);
    next();
  });
  auth.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }));
  authServer.on("request", auth);

  const app = express();
  app.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }), resourceServerUrl: mcpUrl, scopesSupported: ["mcp:tools"] }));
  app.use(express.json());
  app.all("/mcp", requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl), expectedResource: mcpUrl }), (req, res) => {
    void serveMcp(req, res, req.body);
  });
  mcpServer.on("request", app);

  const closeAuth = closer(authServer);
  const closeMcp = closer(mcpServer);
  return { url: mcpUrl.href, issuer: issuerUrl.href, ports: [mcpPort, authPort], seen, close: async () => void (await Promise.all([closeAuth(), closeMcp()])) };
}

interface OidcOptions {
  /** The metadata names this issuer instead of its own. */
  issuer?: string;
  /** The metadata leaves out `code_challenge_methods_supported`. */
  noPkce?: boolean;
  /** The token endpoint answers an HTML page (status 200). */
  tokenHtml?: boolean;
  /** Token answers leave out `expires_in`. */
  noExpiresIn?: boolean;
  /** The token endpoint waits this long before it answers (a slow server, while something else happens). */
  tokenDelayMs?: number;
  /** `WWW-Authenticate` points at this `resource_metadata` URL. */
  resourceMetadataUrl?: string;
  /** A client registered beforehand (as an app's maker would give a leader), with its secret. */
  client?: { id: string; secret: string; redirectUri: string };
}

export interface OidcApp extends OAuthApp {
  provider: Provider;
  /** Forgets every refresh token it issued: the next refresh answers `invalid_grant`. */
  revokeRefreshTokens: () => Promise<void>;
}

/**
 * oidc-provider as the app's authorization server, with an interaction that signs in and consents
 * at once (no form), and an MCP app beside it that takes its opaque access tokens.
 */
export async function startOidcApp(options: OidcOptions = {}): Promise<OidcApp> {
  const seen: string[] = [];
  const authServer = http.createServer();
  const mcpServer = http.createServer();
  const authPort = await listen(authServer);
  const mcpPort = await listen(mcpServer);
  const issuer = `http://127.0.0.1:${authPort}`;
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const refreshTokens = new Set<string>();

  const configuration: Configuration = {
    cookies: { keys: ["oauth-apps-test-key"] },
    ...(options.client !== undefined
      ? {
          clients: [
            {
              client_id: options.client.id,
              client_secret: options.client.secret,
              redirect_uris: [options.client.redirectUri],
              grant_types: ["authorization_code", "refresh_token"],
              response_types: ["code"],
              token_endpoint_auth_method: "client_secret_basic",
            },
          ],
        }
      : {}),
    scopes: ["mcp:tools"],
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: "mcp:tools", accessTokenFormat: "opaque", accessTokenTTL: 3600 }),
      },
    },
    issueRefreshToken: () => true,
    interactions: { url: (_ctx, interaction) => `/auto/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  };
  const provider = new Provider(issuer, configuration);
  provider.on("refresh_token.saved", (token: { jti: string }) => refreshTokens.add(token.jti));

  provider.use(async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    seen.push(`${ctx.method} ${ctx.path}`);
    if (ctx.path.startsWith("/auto/")) {
      // Signs in as "person" and grants what was asked, at once.
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const grant = new provider.Grant({ accountId: "person", clientId: String(details.params["client_id"]) });
      grant.addOIDCScope("mcp:tools");
      grant.addResourceScope(mcpUrl, "mcp:tools");
      const grantId = await grant.save();
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: "person" }, consent: { grantId } }, { mergeWithLastSubmission: false });
      return;
    }
    if (ctx.path === "/token" && options.tokenDelayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, options.tokenDelayMs));
    if (ctx.path === "/token" && options.tokenHtml === true) {
      ctx.status = 200;
      ctx.type = "text/html";
      ctx.body = "<html><body>Sign in again</body></html>";
      return;
    }
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if ((ctx.path === "/.well-known/openid-configuration" || ctx.path === "/.well-known/oauth-authorization-server") && body !== undefined) {
      if (options.issuer !== undefined) body["issuer"] = options.issuer;
      if (options.noPkce === true) delete body["code_challenge_methods_supported"];
    }
    if (ctx.path === "/token" && options.noExpiresIn === true && body !== undefined) delete body["expires_in"];
  });
  const handle = provider.callback();
  authServer.on("request", (req, res) => void handle(req, res));

  const prm = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;
  mcpServer.on("request", (req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path === "/.well-known/oauth-protected-resource/mcp" || path === "/.well-known/oauth-protected-resource") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ resource: mcpUrl, authorization_servers: [issuer], scopes_supported: ["mcp:tools"] }));
        return;
      }
      if (path !== "/mcp") return void res.writeHead(404).end();
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const found = token === undefined ? undefined : await provider.AccessToken.find(token);
      if (found === undefined || found.isExpired) {
        res.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${options.resourceMetadataUrl ?? prm}", scope="mcp:tools"` }).end();
        return;
      }
      await serveMcp(req, res, req.method === "POST" ? await readJsonBody(req) : undefined);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });

  const closeAuth = closer(authServer);
  const closeMcp = closer(mcpServer);
  return {
    url: mcpUrl,
    issuer,
    ports: [mcpPort, authPort],
    seen,
    provider,
    revokeRefreshTokens: async () => {
      for (const jti of refreshTokens) await (await provider.RefreshToken.find(jti))?.destroy();
    },
    close: async () => void (await Promise.all([closeAuth(), closeMcp()])),
  };
}

/**
 * Does what a browser does after Connect: follows the authorization server's redirects (keeping
 * its cookies) until one points at `callbackPrefix`, and answers that URL, code, state and iss.
 */
export async function followSignIn(authorizationUrl: string, callbackPrefix: string, maxHops = 10): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < maxHops; hop++) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(url, { redirect: "manual", headers: cookie === "" ? {} : { cookie }, signal: AbortSignal.timeout(5000) });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      if (at <= 0) continue;
      const [name, value] = [pair!.slice(0, at).trim(), pair!.slice(at + 1).trim()];
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get("location");
    await response.body?.cancel();
    if (location === null) throw new Error(`The sign-in stopped at ${url} (HTTP ${response.status}) without sending the browser back.`);
    url = new URL(location, url).href;
  }
  throw new Error("The sign-in redirected too many times.");
}

export interface StepUpOptions {
  /** The scope `tools/list` needs (the 401's `scope`). */
  listScope?: string;
  /** The scope `tools/call` needs besides: a token without it gets 403 `insufficient_scope` naming it alone. */
  callScope?: string;
  /** Every request with a token gets 403 `insufficient_scope` asking for this scope, whatever was granted (no step-up can succeed). */
  alwaysRefuse?: string;
  /** The server issues refresh tokens and grants on a refresh whatever scope it is asked (step-up without the person). */
  refreshGrants?: boolean;
  /**
   * Methods answered without a token (the conformance suite's apps let `initialize` through and ask
   * for one on `server/discover`, `tools/list` and `tools/call`): only the read's 401 says where it signs in.
   */
  withoutToken?: readonly string[];
}

/** The demo server, with refresh tokens that are granted any scope asked (as a permissive server may). */
class RefreshingAuthProvider extends DemoInMemoryAuthProvider {
  private readonly refreshTokens = new Map<string, { clientId: string; resource?: URL }>();
  private readonly accessTokens = new Map<string, { token: string; clientId: string; scopes: string[]; expiresAt: number; resource?: URL }>();

  override async verifyAccessToken(token: string) {
    const mine = this.accessTokens.get(token);
    return mine === undefined ? super.verifyAccessToken(token) : { ...mine, expiresAt: Math.floor(mine.expiresAt / 1000) };
  }

  private issue(clientId: string, scopes: string[], resource?: URL) {
    const token = randomUUID();
    this.accessTokens.set(token, { token, clientId, scopes, expiresAt: Date.now() + 3_600_000, ...(resource ? { resource } : {}) });
    const refresh = randomUUID();
    this.refreshTokens.set(refresh, { clientId, ...(resource ? { resource } : {}) });
    return { access_token: token, token_type: "bearer", expires_in: 3600, scope: scopes.join(" "), refresh_token: refresh };
  }

  override async exchangeAuthorizationCode(...args: Parameters<DemoInMemoryAuthProvider["exchangeAuthorizationCode"]>) {
    const tokens = await super.exchangeAuthorizationCode(...args);
    const info = await this.verifyAccessToken(tokens.access_token);
    return this.issue(info.clientId, info.scopes, info.resource);
  }

  override async exchangeRefreshToken(client: { client_id: string }, refreshToken: string, scopes?: string[]) {
    const known = this.refreshTokens.get(refreshToken);
    if (known === undefined || known.clientId !== client.client_id) throw new InvalidGrantError("Unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    return this.issue(client.client_id, scopes ?? [], known.resource);
  }
}

export interface StepUpApp extends OAuthApp {
  /** The `scope` of every authorization request, in order (`""` when none was sent). */
  authorizations: string[];
  /** MCP requests answered 403 `insufficient_scope`. */
  refused: () => number;
}

/**
 * The conformance suite's `auth/scope-step-up` and `auth/scope-retry-limit` as an app: the SDK's
 * demo authorization server (auto-approves, grants the scopes asked) beside an MCP app that wants
 * `listScope` to list and `listScope` + `callScope` to call, answering 403 `insufficient_scope`
 * with only the missing scope (so a client that does not keep what it held drops it); or, with
 * `alwaysRefuse`, refusing every signed-in request for a scope that never helps.
 */
export async function startStepUpApp(options: StepUpOptions = {}): Promise<StepUpApp> {
  const listScope = options.listScope ?? "mcp:basic";
  const callScope = options.callScope ?? "mcp:write";
  const seen: string[] = [];
  const authorizations: string[] = [];
  let refused = 0;
  const authServer = http.createServer();
  const mcpServer = http.createServer();
  const authPort = await listen(authServer);
  const mcpPort = await listen(mcpServer);
  const issuerUrl = new URL(`http://127.0.0.1:${authPort}/`);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpPort}/mcp`);
  const provider = options.refreshGrants === true ? new RefreshingAuthProvider(() => true) : new DemoInMemoryAuthProvider(() => true);

  const auth = express();
  auth.use((req, _res, next) => {
    seen.push(`${req.method} ${req.path}`);
    if (req.path === "/authorize") authorizations.push(typeof req.query["scope"] === "string" ? req.query["scope"] : "");
    next();
  });
  auth.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: [listScope, callScope] }));
  authServer.on("request", auth);

  const prm = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const app = express();
  app.use(mcpAuthMetadataRouter({ oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: [listScope, callScope] }), resourceServerUrl: mcpUrl, scopesSupported: [listScope, callScope] }));
  app.use(express.json());
  app.all("/mcp", (req, res) => {
    void (async () => {
      const method = (req.body as { method?: unknown } | undefined)?.method;
      // The event stream a 2025 client opens (GET) is served as its session's requests are.
      const open = req.method === "POST" ? typeof method === "string" && options.withoutToken?.includes(method) : options.withoutToken !== undefined;
      if (open) return void (await serveMcp(req, res, req.body));
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const granted = token === undefined ? null : await provider.verifyAccessToken(token).then((info) => info.scopes, () => null);
      if (granted === null) {
        res.status(401).set("WWW-Authenticate", `Bearer scope="${listScope}", resource_metadata="${prm}"`).json({ error: "invalid_token" });
        return;
      }
      const needed = options.alwaysRefuse !== undefined ? [options.alwaysRefuse] : method === "tools/call" ? [listScope, callScope] : [listScope];
      const missing = options.alwaysRefuse !== undefined ? [options.alwaysRefuse] : needed.filter((s) => !granted.includes(s));
      if (missing.length > 0) {
        refused++;
        res
          .status(403)
          .set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="${missing.join(" ")}", resource_metadata="${prm}", error_description="More permission needed"`)
          .json({ error: "insufficient_scope" });
        return;
      }
      await serveMcp(req, res, req.body);
    })().catch(() => {
      if (!res.headersSent) res.status(500).end();
    });
  });
  mcpServer.on("request", app);

  const closeAuth = closer(authServer);
  const closeMcp = closer(mcpServer);
  return {
    url: mcpUrl.href,
    issuer: issuerUrl.href,
    ports: [mcpPort, authPort],
    seen,
    authorizations,
    refused: () => refused,
    close: async () => void (await Promise.all([closeAuth(), closeMcp()])),
  };
}

interface MigratingApp extends OAuthApp {
  /** The second authorization server's issuer, named by the metadata after `migrate()`. */
  nextIssuer: string;
  /** From now on the app's metadata names the second server, and only its tokens are taken. */
  migrate: () => void;
  /** The client each authorization and token request named, as `<server> <path> <client_id>` (`2 /token abc`). */
  clients: string[];
}

/**
 * An app whose sign-in server changes (SEP-2352, the conformance suite's
 * `auth/authorization-server-migration`): two demo authorization servers; its protected-resource
 * metadata names the first until `migrate()`, then the second, and it takes only the named one's
 * tokens. It serves `initialize` without a token (as the suite's apps do): only a refused read says
 * where it signs in.
 */
export async function startMigratingApp(): Promise<MigratingApp> {
  const seen: string[] = [];
  const clients: string[] = [];
  const mcpServer = http.createServer();
  const mcpPort = await listen(mcpServer);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpPort}/mcp`);
  const servers = await Promise.all(
    [0, 1].map(async (n) => {
      const server = http.createServer();
      const port = await listen(server);
      const issuerUrl = new URL(`http://127.0.0.1:${port}/`);
      const provider = new DemoInMemoryAuthProvider(() => true);
      const auth = express();
      auth.use((req, _res, next) => {
        seen.push(`${n + 1} ${req.method} ${req.path}`);
        next();
      });
      // Parsed here too (the router's own parser then leaves it be), to see which client the form names.
      auth.use(express.urlencoded({ extended: false }), (req, _res, next) => {
        const client = req.path === "/authorize" ? req.query["client_id"] : req.path === "/token" ? (req.body as Record<string, unknown> | undefined)?.["client_id"] : undefined;
        if (typeof client === "string") clients.push(`${n + 1} ${req.path} ${client}`);
        next();
      });
      auth.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }));
      server.on("request", auth);
      return { server, port, issuerUrl, provider };
    }),
  );
  let current = servers[0]!;
  const prm = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const app = express();
  app.get(new URL(prm).pathname, (_req, res) => void res.json({ resource: mcpUrl.href, authorization_servers: [current.issuerUrl.href], scopes_supported: ["mcp:tools"] }));
  app.use(express.json());
  app.all("/mcp", (req, res) => {
    void (async () => {
      const method = (req.body as { method?: unknown } | undefined)?.method;
      if (method === "initialize" || (typeof method === "string" && method.startsWith("notifications/"))) return void (await serveMcp(req, res, req.body));
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const valid = token === undefined ? false : await current.provider.verifyAccessToken(token).then(() => true, () => false);
      // The refusal quotes the token it refused, as careless apps do.
      if (!valid) return void res.status(401).set("WWW-Authenticate", `Bearer scope="mcp:tools", resource_metadata="${prm}", error_description="token ${token ?? "none"} is not known"`).json({ error: "invalid_token" });
      await serveMcp(req, res, req.body);
    })().catch(() => {
      if (!res.headersSent) res.status(500).end();
    });
  });
  mcpServer.on("request", app);
  const closers = [closer(mcpServer), ...servers.map((s) => closer(s.server))];
  return {
    url: mcpUrl.href,
    issuer: servers[0]!.issuerUrl.href,
    nextIssuer: servers[1]!.issuerUrl.href,
    ports: [mcpPort, ...servers.map((s) => s.port)],
    seen,
    clients,
    migrate: () => void (current = servers[1]!),
    close: async () => void (await Promise.all(closers.map((c) => c()))),
  };
}

/** How a sign-in doctor's app (`startDoctorApp`) is broken, one way each (SPEC §27). */
export type SignInFault =
  /** Its 401 names no `resource_metadata`, and no well-known address has metadata either. */
  | "no-resource-metadata"
  /** Its 401 names no `resource_metadata`, but the well-known address has the metadata (no fault: clients look there). */
  | "well-known-only"
  /** Its 401 names protected resource metadata that answers 404. */
  | "prm-404"
  /** Its authorization server's metadata names another issuer than the address it is fetched for. */
  | "issuer-mismatch"
  /** Its authorization server has no registration endpoint and does not accept client ID metadata documents. */
  | "no-registration"
  /** Its authorization server advertises RFC 9207's `iss`, and sends none back. */
  | "iss-missing"
  /** … and sends another issuer's. */
  | "iss-wrong"
  /** Its tokens are JWTs for another audience, which the app refuses. */
  | "wrong-audience"
  /** Its authorization endpoint shows a sign-in page (a person must sign in). */
  | "sign-in-page";

/**
 * An app for the sign-in doctor: the SDK's demo authorization server (auto-approves, DCR, PKCE,
 * strict `resource`) advertising RFC 9207's `iss` and sending it back, beside an MCP app that
 * takes its tokens and names its protected resource metadata in its 401, each broken by `fault`.
 */
export async function startDoctorApp(fault?: SignInFault): Promise<OAuthApp> {
  const seen: string[] = [];
  const authServer = http.createServer();
  const mcpServer = http.createServer();
  const authPort = await listen(authServer);
  const mcpPort = await listen(mcpServer);
  const issuerUrl = new URL(`http://127.0.0.1:${authPort}/`);
  const mcpUrl = new URL(`http://127.0.0.1:${mcpPort}/mcp`);
  const expected = resourceUrlFromServerUrl(mcpUrl).href;
  const provider = new DemoInMemoryAuthProvider((resource) => resource?.href === expected);

  const auth = express();
  auth.use((req, res, next) => {
    seen.push(`${req.method} ${req.path}`);
    if (req.path === "/.well-known/oauth-authorization-server") {
      const metadata: Record<string, unknown> = { ...createOAuthMetadata({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }), authorization_response_iss_parameter_supported: true };
      if (fault === "issuer-mismatch") metadata["issuer"] = `${issuerUrl.origin}/tenant`;
      if (fault === "no-registration") delete metadata["registration_endpoint"];
      return void res.json(metadata);
    }
    if (req.path === "/authorize" && fault === "sign-in-page") return void res.type("html").send("<form method=post><input name=password type=password></form>");
    if (req.path === "/authorize") {
      // The demo redirects straight back with the code: `iss` is added (or not) on the way.
      const redirect = res.redirect.bind(res) as (url: string) => void;
      (res as { redirect: (url: string) => void }).redirect = (url: string) => {
        const back = new URL(url);
        if (fault === "iss-wrong") back.searchParams.set("iss", "https://impostor.example");
        else if (fault !== "iss-missing") back.searchParams.set("iss", issuerUrl.href);
        redirect(back.href);
      };
    }
    if (req.path === "/token" && fault === "wrong-audience") {
      const json = res.json.bind(res);
      res.json = (body: Record<string, unknown>) => {
        const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
        const jwt = `${part({ alg: "none", typ: "at+jwt" })}.${part({ aud: "https://other.example/mcp", iss: issuerUrl.href, sub: "person" })}.c2ln`;
        return json(typeof body["access_token"] === "string" ? { ...body, access_token: jwt } : body);
      };
    }
    next();
  });
  auth.use(mcpAuthRouter({ provider, issuerUrl, scopesSupported: ["mcp:tools"] }));
  authServer.on("request", auth);

  const prm = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const app = express();
  app.get(new URL(prm).pathname, (_req, res) => {
    if (fault === "prm-404" || fault === "no-resource-metadata") return void res.status(404).json({ error: "not_found" });
    res.json({ resource: mcpUrl.href, authorization_servers: [issuerUrl.href], scopes_supported: ["mcp:tools"] });
  });
  app.use(express.json());
  app.all("/mcp", (req, res) => {
    void (async () => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const valid = token === undefined ? false : await provider.verifyAccessToken(token).then(() => true, () => false);
      if (!valid) return void res.status(401).set("WWW-Authenticate", fault === "no-resource-metadata" || fault === "well-known-only" ? 'Bearer scope="mcp:tools"' : `Bearer resource_metadata="${prm}", scope="mcp:tools"`).json({ error: "invalid_token" });
      await serveMcp(req, res, req.body);
    })().catch(() => {
      if (!res.headersSent) res.status(500).end();
    });
  });
  mcpServer.on("request", app);

  const closeAuth = closer(authServer);
  const closeMcp = closer(mcpServer);
  return { url: mcpUrl.href, issuer: issuerUrl.href, ports: [mcpPort, authPort], seen, close: async () => void (await Promise.all([closeAuth(), closeMcp()])) };
}
