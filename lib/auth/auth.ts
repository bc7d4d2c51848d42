import "server-only";
import { apiKey } from "@better-auth/api-key";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getDb, isPostgres, type Db } from "@/lib/db/client";
import { schema } from "@/lib/db/tables";
import { deriveKey } from "@/lib/secrets";
import { errorField, logWith } from "@/lib/log";
import { CLIENT_ADDRESS_HEADER } from "./endpoints";
import { sendVerification } from "./invitations";
import { dashboardOrigins } from "./origins";

/**
 * Accounts (better-auth): email and password, sessions, and API keys sent as `x-api-key` (which
 * our routes bind to their one organisation: never a session). Organisations, members and
 * invitations are ours (lib/orgs/members.ts). One instance per database, made on first use.
 */

const authLog = logWith({ component: "better-auth" });

/** better-auth's own lines, as JSON through our logger (its arguments may be errors, never secrets we hand it). */
function logAuth(level: "debug" | "info" | "warn" | "error", message: string, ...args: unknown[]): void {
  const err = args.find((arg) => arg instanceof Error);
  authLog[level](err === undefined ? {} : { err: errorField(err) }, message);
}

/** How long a session lasts, and how old it may grow before a request extends it (seconds). */
export const SESSION_TIMES = { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 } as const;

/** Minimum password length: better-auth's default of 8 is kept. */
const MIN_PASSWORD = 8;

function createAuth(db: Db) {
  const origins = dashboardOrigins();
  return betterAuth({
    appName: "Theorem Connections",
    baseURL: origins[0],
    trustedOrigins: origins,
    secret: deriveKey("auth").toString("hex"),
    database: drizzleAdapter(db, { provider: isPostgres(db) ? "pg" : "sqlite", schema }),
    emailAndPassword: { enabled: true, minPasswordLength: MIN_PASSWORD, autoSignIn: true },
    // With SMTP_URL set, an account's address is verified by mail (accepting an invitation needs it, SPEC §9); without it nothing is sent.
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      sendVerificationEmail: ({ user, url }) => sendVerification(user.email, url),
    },
    session: { ...SESSION_TIMES },
    // Sign-ups are slowed in every environment, and counted in the database so that the count
    // holds across instances. Sign-ins are limited by their failures (lib/auth/sign-in-limit.ts).
    rateLimit: {
      enabled: true,
      storage: "database",
      modelName: "rateLimit",
      window: 60,
      max: 300,
      customRules: { "/sign-in/email": false, "/sign-up/email": { window: 60, max: 10 }, "/send-verification-email": { window: 60, max: 3 } },
    },
    // The address lib/auth/endpoints.ts sets from the socket (and trusted proxies), never the client's own header.
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    logger: { level: "warn", log: logAuth },
    telemetry: { enabled: false },
    plugins: [
      apiKey({
        apiKeyHeaders: "x-api-key",
        // A key acts through our routes only, in its own organisation (lib/auth/workspace.ts): never as a session.
        enableSessionForAPIKeys: false,
        enableMetadata: true,
        // Checks are rate-limited by our own limits (SPEC §10), not the plugin's 10 a day.
        rateLimit: { enabled: false },
        startingCharactersConfig: { shouldStore: true, charactersLength: 8 },
      }),
      nextCookies(),
    ],
  });
}

type Auth = ReturnType<typeof createAuth>;

const cache = globalThis as typeof globalThis & { __theoremAuth?: { db: Db; auth: Auth } };

/** The process's better-auth, over the process's database. */
export function getAuth(): Auth {
  const db = getDb();
  if (cache.__theoremAuth?.db !== db) cache.__theoremAuth = { db, auth: createAuth(db) };
  return cache.__theoremAuth.auth;
}
