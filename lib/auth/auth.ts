import "server-only";
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { organization } from "better-auth/plugins";
import { createAccessControl } from "better-auth/plugins/access";
import { defaultStatements, ownerAc } from "better-auth/plugins/organization/access";
import { getDb, type Db } from "@/lib/db/client";
import { isPostgres } from "@/lib/db/client";
import { schema } from "@/lib/db/tables";
import { deriveKey } from "@/lib/secrets";
import { sendInvitation } from "./invitations";
import { dashboardOrigins } from "./origins";

/**
 * Accounts (better-auth): email and password, organisations with SPEC §9's roles, and API
 * keys sent as `x-api-key`. One instance per database, made on first use.
 */

const ac = createAccessControl({ ...defaultStatements, app: ["view", "recheck", "try", "manage"] } as const);
// better-auth's own organisation endpoints (invite, re-role, remove) check these; our routes check lib/auth/roles.ts.
const roles = {
  leader: ac.newRole({ ...ownerAc.statements, app: ["view", "recheck", "try", "manage"] }),
  developer: ac.newRole({ app: ["view", "recheck", "try"] }),
  support: ac.newRole({ app: ["view", "recheck"] }),
};

/** Minimum password length: better-auth's default of 8 is kept. */
export const MIN_PASSWORD = 8;

function createAuth(db: Db) {
  const origins = dashboardOrigins();
  return betterAuth({
    appName: "Theorem Connections",
    baseURL: origins[0],
    trustedOrigins: origins,
    secret: deriveKey("auth").toString("hex"),
    database: drizzleAdapter(db, { provider: isPostgres(db) ? "pg" : "sqlite", schema }),
    emailAndPassword: { enabled: true, minPasswordLength: MIN_PASSWORD, autoSignIn: true },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Sign-in attempts are slowed in every environment, and counted in the database so that
    // the count holds across instances.
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 300,
      customRules: { "/sign-in/email": { window: 60, max: 10 }, "/sign-up/email": { window: 60, max: 10 } },
    },
    advanced: { ipAddress: { ipAddressHeaders: ["x-forwarded-for"] } },
    telemetry: { enabled: false },
    plugins: [
      organization({
        ac,
        roles,
        creatorRole: "leader",
        invitationExpiresIn: 60 * 60 * 24 * 7,
        cancelPendingInvitationsOnReInvite: true,
        sendInvitationEmail: sendInvitation,
      }),
      apiKey({
        apiKeyHeaders: "x-api-key",
        // better-auth's own organisation endpoints then act for a key's creator too (our wrapper has bound the key to its organisation).
        enableSessionForAPIKeys: true,
        enableMetadata: true,
        // Checks are rate-limited by our own limits (SPEC §10), not the plugin's 10 a day.
        rateLimit: { enabled: false },
        startingCharactersConfig: { shouldStore: true, charactersLength: 8 },
      }),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

const cache = globalThis as typeof globalThis & { __theoremAuth?: { db: Db; auth: Auth } };

/** The process's better-auth, over the process's database. */
export function getAuth(): Auth {
  const db = getDb();
  if (cache.__theoremAuth?.db !== db) cache.__theoremAuth = { db, auth: createAuth(db) };
  return cache.__theoremAuth.auth;
}
