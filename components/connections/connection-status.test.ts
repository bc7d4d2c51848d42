import { describe, expect, it } from "vitest";
import { CONNECTION_STATUS, connectionStatus, type ConnectionStatus, type RowProgress } from "./connection-status";
import type { StoredApp } from "@/lib/schemas/orgs";

function stored(status: "available" | "unavailable" | null): StoredApp {
  return {
    id: "a1",
    name: "Attendance",
    url: "https://mcp.example.com/mcp",
    personal: false,
    header: null,
    connectedAt: "2026-12-01T10:00:00.000Z",
    nextCheckAt: null,
    lastCheck:
      status === null
        ? null
        : ({ id: "c1", appId: "a1", checkedAt: "2026-12-01T10:00:01.000Z", durationMs: 40, result: { status } } as unknown as NonNullable<StoredApp["lastCheck"]>),
  };
}

describe("connectionStatus: what a row of the list says", () => {
  it.each<[string, "available" | "unavailable" | null, RowProgress | undefined, ConnectionStatus, string]>([
    ["a checked, available app", "available", undefined, "available", "Available"],
    ["a checked, unavailable app", "unavailable", undefined, "unavailable", "Unavailable"],
    ["an app never checked", null, undefined, "unchecked", "Not checked yet"],
    ["an app being read in a re-check", "available", "checking", "checking", "Checking…"],
    ["an app read while others are still read", "unavailable", "read", "read", "Read · naming…"],
    ["an app whose re-check failed", "available", "failed", "check-failed", "Check failed"],
  ])("%s", (_, last, progress, status, label) => {
    expect(connectionStatus(stored(last), progress)).toBe(status);
    expect(CONNECTION_STATUS[status].label).toBe(label);
  });
});
