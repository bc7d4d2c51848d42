import { describe, expect, it } from "vitest";
import configured from "@/config/hosts.json";
import { HostProfilesError, hostProfiles, parseHostProfiles, requestedHosts } from "./hosts";

const good = configured.hosts;
const withHost = (index: number, change: Record<string, unknown>) => ({ hosts: good.map((h, i) => (i === index ? { ...h, ...change } : h)) });
const without = (index: number, field: string) => ({ hosts: good.map((h, i) => (i === index ? Object.fromEntries(Object.entries(h).filter(([k]) => k !== field)) : h)) });

describe("the host profiles file (refused at start-up, saying which)", () => {
  it("as shipped, is valid", () => {
    expect(parseHostProfiles(configured).map((h) => h.id)).toEqual(hostProfiles().map((h) => h.id));
  });

  it.each([
    ["a missing source", without(3, "source"), 'config/hosts.json has a profile that cannot be used: host 4 ("claude-code"): source: Give the page or thread its limits come from (`source`).'],
    ["an empty source", withHost(1, { source: " " }), 'host 2 ("openai-api"): source: Give the page or thread its limits come from (`source`).'],
    ["a pattern that does not compile", withHost(4, { namePattern: "^[a-z" }), 'host 5 ("gemini"): namePattern: The name pattern "^[a-z" does not compile'],
    ["a missing date", without(0, "checked"), 'host 1 ("theorem"): checked: Give the date the limits were checked'],
    ["an id twice", withHost(2, { id: "openai-api" }), 'host 3 ("openai-api"): id: The id "openai-api" is given twice.'],
    ["an unknown placeholder", withHost(3, { nameForm: "mcp__{server}__{tool}" }), "nameForm: A name form's placeholders are {app}, {tool}, {whole}."],
    ["a negative limit", withHost(6, { maxTools: -1 }), 'host 7 ("windsurf"): maxTools:'],
  ])("refuses %s", (_, file, says) => {
    expect(() => parseHostProfiles(file)).toThrow(HostProfilesError);
    expect(() => parseHostProfiles(file)).toThrow(says);
  });

  it("names every problem at once", () => {
    const file = { hosts: good.map((h, i) => (i === 1 ? { ...h, namePattern: "(" } : i === 2 ? { ...h, source: "" } : h)) };
    expect(() => parseHostProfiles(file)).toThrow(/has 2 problems: host 2 \("openai-api"\): namePattern: .*; host 3 \("vscode-copilot"\): source:/);
  });
});

describe("the hosts a check asks about", () => {
  it("takes known ids", () => {
    expect(requestedHosts.parse(["theorem", "claude-code"])).toEqual(["theorem", "claude-code"]);
  });

  it("names an unknown id", () => {
    const issues = requestedHosts.safeParse(["claude-code", "cursor"]).error?.issues ?? [];
    expect(issues.map((i) => [i.path, i.message])).toEqual([[[1], expect.stringMatching(/^Unknown host "cursor": the hosts are theorem, openai-api, /)]]);
  });

  it("refuses 1,000 ids with one sentence", () => {
    const issues = requestedHosts.safeParse(Array.from({ length: 1000 }, () => "theorem")).error?.issues ?? [];
    expect(issues.map((i) => i.message)).toEqual(["At most 20 hosts in one check (GET /api/hosts lists them)."]);
  });

  it("refuses a host asked for twice", () => {
    expect(requestedHosts.safeParse(["gemini", "gemini"]).error?.issues[0]?.message).toBe('The host "gemini" is asked for twice.');
  });
});
