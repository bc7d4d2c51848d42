import { describe, expect, it } from "vitest";
import configured from "@/config/theorem.json";
import { resolveTheorem } from "./theorem";

describe("resolveTheorem", () => {
  it("takes Theorem's own names from the configuration", () => {
    expect(resolveTheorem()).toEqual({ connections: configured.connections, tools: configured.tools });
    expect(resolveTheorem().connections).toContain("web");
  });

  it("lets a check override each list on its own", () => {
    expect(resolveTheorem({ connections: [] })).toEqual({ connections: [], tools: configured.tools });
    expect(resolveTheorem({ tools: ["x_y"] })).toEqual({ connections: configured.connections, tools: ["x_y"] });
  });
});
