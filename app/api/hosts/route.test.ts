import { describe, expect, it } from "vitest";
import configured from "@/config/hosts.json";
import { hostsAnswer } from "@/lib/schemas/hosts";
import { GET } from "./route";

describe("GET /api/hosts", () => {
  it("answers every profile of config/hosts.json, each limit as its own field, with its source and date", async () => {
    const res = await GET(new Request("http://localhost/api/hosts"));
    expect(res.status).toBe(200);
    const body = hostsAnswer.parse(await res.json());
    expect(body.hosts.map((h) => h.id)).toEqual(["theorem", "openai-api", "vscode-copilot", "claude-code", "gemini", "copilot-cli", "windsurf"]);
    expect(body.hosts).toEqual(configured.hosts);
    expect(body.hosts.find((h) => h.id === "claude-code")).toMatchObject({ nameForm: "mcp__{app}__{tool}", nameMax: 64, descriptionMax: 2048, maxTools: null, source: expect.stringContaining("claude-code/issues/2412") });
    expect(body.hosts.find((h) => h.id === "windsurf")).toMatchObject({ maxTools: 100 });
  });
});
