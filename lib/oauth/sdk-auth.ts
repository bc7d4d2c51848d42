import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { auth as sdkAuth } from "@modelcontextprotocol/client";
import { logger } from "@/lib/log";

/**
 * The SDK's `auth()`, with what it writes to `console.warn` (a refresh that fell back, credentials
 * it invalidates, an unstamped credential) sent to the dashboard's JSON log instead (SPEC §16).
 * Only the warning's own words are kept: its "Cause: …" can quote what a server answered.
 */

const inAuth = new AsyncLocalStorage<{ app?: string }>();

/** A warning of the SDK's, without the cause it quotes. */
export function sdkWarning(args: readonly unknown[]): string {
  const text = args.map((a) => (typeof a === "string" ? a : a instanceof Error ? a.message : "")).join(" ");
  return text.replace(/^\[mcp-sdk\]\s*/, "").replace(/\s*Cause:[\s\S]*$/, "").slice(0, 300);
}

const shared = globalThis as typeof globalThis & { __theoremSdkWarn?: true };
if (shared.__theoremSdkWarn === undefined) {
  shared.__theoremSdkWarn = true;
  const original = console.warn.bind(console);
  // Warnings outside a call of `auth()` are left as they were; inside one, they are the log's.
  console.warn = (...args: unknown[]) => {
    const context = inAuth.getStore();
    if (context === undefined) return original(...args);
    logger.warn({ sdk: "@modelcontextprotocol/client", ...(context.app !== undefined ? { app: context.app } : {}) }, sdkWarning(args));
  };
}

/** `auth()` of the SDK, its warnings logged as JSON lines (with the app's id when given). */
export function auth(provider: Parameters<typeof sdkAuth>[0], options: Parameters<typeof sdkAuth>[1], app?: string): ReturnType<typeof sdkAuth> {
  return inAuth.run(app !== undefined ? { app } : {}, () => sdkAuth(provider, options));
}
