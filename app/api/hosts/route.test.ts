import { describe, expect, it } from "vitest";
import { hostsAnswer } from "@/lib/schemas/hosts";
import { GET } from "./route";

describe("GET /api/hosts", () => {
  it("answers every profile of config/hosts.json, each limit as its own field, with its source and date", async () => {
    const res = await GET(new Request("http://localhost/api/hosts"));
    expect(res.status).toBe(200);
    const body = hostsAnswer.parse(await res.json());
    expect(body.hosts.map((h) => h.id)).toEqual(["theorem", "openai-api", "vscode-copilot", "claude-code", "gemini", "copilot-cli", "windsurf"]);
    // Each limit as FIELD-NOTES §10 gives it, as a caller reads it (not the file compared with itself).
    const limits = Object.fromEntries(body.hosts.map((h) => [h.id, [h.nameForm, h.nameMax, h.maxTools, h.descriptionMax]]));
    expect(limits).toEqual({
      theorem: ["{whole}", 64, null, null],
      "openai-api": ["{tool}", 64, 128, null],
      "vscode-copilot": ["{tool}", null, 128, null],
      "claude-code": ["mcp__{app}__{tool}", 64, null, 2048],
      gemini: ["{app}__{tool}", 64, null, null],
      "copilot-cli": ["{tool}", 128, null, null],
      windsurf: ["{tool}", null, 100, null],
    });
    for (const host of body.hosts) expect(host.checked, host.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(body.hosts.find((h) => h.id === "claude-code")).toMatchObject({ nameForm: "mcp__{app}__{tool}", nameMax: 64, descriptionMax: 2048, maxTools: null, source: expect.stringContaining("claude-code/issues/2412") });
    expect(body.hosts.find((h) => h.id === "windsurf")).toMatchObject({ maxTools: 100 });
  });
});
