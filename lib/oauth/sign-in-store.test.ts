import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Discovery } from "./discovery";

// The provider's storage (SPEC §17): flows and sign-ins in a database file of its own, whose
// bytes are searched for every secret stored.
const dir = mkdtempSync(join(tmpdir(), "theorem-oauth-store-"));
process.env.DATABASE_URL = join(dir, "store.db");

const { getDb } = await import("@/lib/db/client");
const { apps } = await import("@/lib/db/tables");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { FLOW_TTL_MS, loadSignIn, markExpired, saveConnected, saveFlow, saveRenewed, takeFlow, forgetSignIn } = await import("./sign-in-store");

afterAll(async () => {
  getDb().$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const discovery: Discovery = {
  authorizationServerUrl: "https://auth.example/",
  authorizationServerMetadata: { issuer: "https://auth.example/", code_challenge_methods_supported: ["S256"] },
  issParameter: true,
};

async function app(id: string): Promise<string> {
  await ensureOrg(getDb(), "store", "Store");
  await getDb().insert(apps).values({ id, org: "store", owner: null, name: id, url: `https://${id}.example/mcp`, headerName: null, headerValue: null, connectedAt: Date.now(), nextCheckAt: null });
  return id;
}

const secrets = {
  verifier: "verifier-7c1f9e2d4b6a8c0e1f3a5b7d9e0c2a4f6b8d0e2a4c6",
  clientSecret: "client-secret-3e5a7c9e1b3d5f7a9c1e3b5d7f9a",
  access: "access-token-9f8e7d6c5b4a3f2e1d0c9b8a",
  refresh: "refresh-token-1a2b3c4d5e6f7a8b9c0d1e2f",
  renewed: "access-token-renewed-0a9b8c7d6e5f4a3b",
  state: "state-4d6f8a0c2e4a6c8e0a2c4e6a8c0e2a4c",
};

function fileBytes(): Buffer {
  getDb().$client.pragma("wal_checkpoint(TRUNCATE)");
  return Buffer.concat(readdirSync(dir).filter((f) => f.startsWith("store.db")).map((f) => readFileSync(join(dir, f))));
}

const flowOf = (id: string, expiresAt = Date.now() + FLOW_TTL_MS) => ({
  app: id,
  org: "store",
  startedBy: "someone",
  issuer: "https://auth.example/",
  discovery,
  client: { client_id: "dashboard", client_secret: secrets.clientSecret, issuer: "https://auth.example/" },
  registration: "pre-registered" as const,
  verifier: secrets.verifier,
  redirectUrl: "https://dash.example/api/oauth/callback",
  expiresAt,
});

describe("the OAuth store", () => {
  it("takes a flow once, by its state, and never after it expires", async () => {
    const id = await app("once");
    await saveFlow(getDb(), secrets.state, flowOf(id));
    expect(await takeFlow(getDb(), "another state")).toBeNull();
    const taken = await takeFlow(getDb(), secrets.state);
    expect(taken).toMatchObject({ app: id, verifier: secrets.verifier, client: { client_secret: secrets.clientSecret }, discovery });
    expect(await takeFlow(getDb(), secrets.state)).toBeNull();

    await saveFlow(getDb(), "old state", flowOf(id, Date.now() - 1));
    expect(await takeFlow(getDb(), "old state")).toBeNull();
  });

  it("keeps tokens, the verifier, the client secret and the state out of the file in plain text", async () => {
    const id = await app("secrets");
    await saveFlow(getDb(), secrets.state, flowOf(id));
    await saveConnected(getDb(), flowOf(id), `https://${id}.example/mcp`, { client_id: "dashboard", client_secret: secrets.clientSecret }, { access_token: secrets.access, refresh_token: secrets.refresh, token_type: "bearer", expires_in: 3600 }, "someone");
    const bytes = fileBytes();
    for (const secret of Object.values(secrets)) expect(bytes.includes(secret), secret).toBe(false);
    // And they are there, encrypted: read back whole.
    expect(await loadSignIn(getDb(), id)).toMatchObject({ state: "connected", tokens: { access_token: secrets.access, refresh_token: secrets.refresh }, client: { client_secret: secrets.clientSecret } });
    expect((await takeFlow(getDb(), secrets.state))?.verifier).toBe(secrets.verifier);
  });

  it("stores a sign-in only while the app is still at the address it signed in for", async () => {
    const id = await app("moved");
    const tokens = { access_token: secrets.access, token_type: "bearer" };
    expect(await saveConnected(getDb(), flowOf(id), "https://elsewhere.example/mcp", { client_id: "dashboard" }, tokens, "someone")).toBe(false);
    expect(await loadSignIn(getDb(), id)).toBeNull();
    expect(await saveConnected(getDb(), flowOf(id), `https://${id}.example/mcp`, { client_id: "dashboard" }, tokens, "someone")).toBe(true);
    expect((await loadSignIn(getDb(), id))?.state).toBe("connected");
  });

  it("stores the caller's own writes (its audit entry) in the same transaction as the tokens: when they fail, no sign-in is stored", async () => {
    const id = await app("audited");
    const tokens = { access_token: secrets.access, token_type: "bearer" };
    const failing = async () => {
      throw new Error("the audit entry could not be written");
    };
    await expect(saveConnected(getDb(), flowOf(id), `https://${id}.example/mcp`, { client_id: "dashboard" }, tokens, "someone", Date.now(), failing)).rejects.toThrow("could not be written");
    expect(await loadSignIn(getDb(), id)).toBeNull();
    let wroteWith: unknown;
    expect(await saveConnected(getDb(), flowOf(id), `https://${id}.example/mcp`, { client_id: "dashboard" }, tokens, "someone", Date.now(), async (tx) => void (wroteWith = tx))).toBe(true);
    expect(wroteWith).toBeDefined();
    expect((await loadSignIn(getDb(), id))?.state).toBe("connected");
  });

  it("stores renewed tokens only over the ones renewed, and an expired sign-in forgets its tokens", async () => {
    const id = await app("renewed");
    await saveConnected(getDb(), flowOf(id), `https://${id}.example/mcp`, { client_id: "dashboard" }, { access_token: secrets.access, refresh_token: secrets.refresh, token_type: "bearer" }, "someone");
    const first = (await loadSignIn(getDb(), id))!;
    expect(first.expiresAt).toBeNull(); // no expires_in: no stated expiry
    expect(await saveRenewed(getDb(), id, first.version, { access_token: secrets.renewed, token_type: "bearer", expires_in: 60 })).toBe(true);
    expect(await saveRenewed(getDb(), id, first.version, { access_token: "stale", token_type: "bearer" })).toBe(false);
    const renewed = (await loadSignIn(getDb(), id))!;
    expect(renewed.tokens?.access_token).toBe(secrets.renewed);
    expect(renewed.expiresAt).toBeGreaterThan(Date.now());

    await markExpired(getDb(), id, renewed.version, "It expired.");
    expect(await loadSignIn(getDb(), id)).toMatchObject({ state: "expired", tokens: null, failure: "It expired.", client: { client_id: "dashboard" } });
    expect(await forgetSignIn(getDb(), id)).toBe(true);
    expect(await loadSignIn(getDb(), id)).toBeNull();
  });
});
