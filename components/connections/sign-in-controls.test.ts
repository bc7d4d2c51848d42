import { describe, expect, it } from "vitest";
import { appSignIn } from "@/lib/schemas/orgs";
import { signInWords } from "./sign-in-controls";

const signIn = (state: "offered" | "connected" | "expired") => ({ state, issuer: "https://auth.example", connectedAt: null, expiresAt: null });

describe("signInWords", () => {
  it.each([
    ["offered", "Signs in with OAuth: not connected", "Connect"],
    ["expired", "Its sign-in expired", "Reconnect"],
    ["connected", "Signed in with OAuth", null],
  ] as const)("%s: %s, %s", (state, heading, action) => {
    expect(signInWords({ header: null, signIn: signIn(state) })).toEqual({ heading, action });
  });

  it("a connected app refused for want of scope offers Sign in again, and nothing once the dashboard gave up", () => {
    expect(signInWords({ header: null, signIn: { ...signIn("connected"), stepUp: { scope: "mcp:basic mcp:write", gaveUp: false } } })).toEqual({ heading: "The app needs more permission", action: "Sign in again" });
    expect(signInWords({ header: null, signIn: { ...signIn("connected"), stepUp: { scope: "mcp:admin", gaveUp: true } } })).toEqual({ heading: "The app needs permission its sign-in server does not grant", action: null });
  });

  it("covers every state", () => {
    for (const state of appSignIn.shape.state.options) expect(signInWords({ header: null, signIn: signIn(state) })).not.toBeNull();
  });

  it("says nothing for an app read with a header, or without a sign-in", () => {
    expect(signInWords({ header: { name: "Authorization", set: true }, signIn: signIn("offered") })).toBeNull();
    expect(signInWords({ header: null, signIn: null })).toBeNull();
    expect(signInWords({ header: null })).toBeNull();
  });
});
