import { describe, expect, it } from "vitest";
import configured from "@/config/hosts.json";
import { parseHostProfiles } from "@/lib/schemas/hosts";
import { checkHostProfilesAtStart } from "./host-profiles";

class Exited extends Error {}

function start(file: unknown) {
  const lines: string[] = [];
  let code: number | null = null;
  try {
    checkHostProfilesAtStart({
      load: () => parseHostProfiles(file),
      write: (line) => lines.push(line),
      exit: (c) => {
        code = c;
        throw new Exited();
      },
    });
  } catch (error) {
    if (!(error instanceof Exited)) throw error;
  }
  return { code, lines };
}

describe("the dashboard's start with the host profiles", () => {
  it("goes on with the shipped profiles", () => {
    expect(start(configured)).toEqual({ code: null, lines: [] });
  });

  it("stops with exit 1, saying which profile has no source", () => {
    const noSource = Object.fromEntries(Object.entries(configured.hosts[3]!).filter(([key]) => key !== "source"));
    const { code, lines } = start({ hosts: configured.hosts.map((h, i) => (i === 3 ? noSource : h)) });
    expect(code).toBe(1);
    expect(lines).toEqual(['The dashboard cannot start: config/hosts.json has a profile that cannot be used: host 4 ("claude-code"): source: Give the page or thread its limits come from (`source`).']);
  });

  it("stops with exit 1, saying which pattern does not compile", () => {
    const { code, lines } = start({ hosts: configured.hosts.map((h) => (h.id === "copilot-cli" ? { ...h, namePattern: "^[a-z+$" } : h)) });
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^The dashboard cannot start: .*host 6 \("copilot-cli"\): namePattern: The name pattern "\^\[a-z\+\$" does not compile: /);
  });
});
