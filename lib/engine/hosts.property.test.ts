import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostProfiles } from "@/lib/schemas/hosts";
import { checkListings, type AppListing, type TheoremNames } from "./check";
import { checkHosts, jsonBytes, type HostRules } from "./hosts";

const anyText = fc.string({ unit: "binary", maxLength: 40 });
const appNameArb = fc.oneof(anyText, fc.constantFrom("Attendance", "attendance", "HR", "3D Lab", "الحضور", "Café", "a", "A B"));
const toolNameArb = fc.oneof(
  anyText,
  fc.constantFrom("clock_in", "clock in", "clock.in", "hr_clock_in", "2x", "search", "__proto__", ""),
  fc.string({ unit: fc.constantFrom("x", "_", "-", "😀", "é", " "), minLength: 50, maxLength: 140 }),
);
const entryArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ name: toolNameArb, description: fc.option(fc.string({ maxLength: 3000 })), inputSchema: fc.option(fc.record({ type: fc.constant("object"), description: fc.string({ maxLength: 200 }) })) }, { requiredKeys: ["name"] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);
const appArb: fc.Arbitrary<AppListing> = fc.record({
  name: appNameArb,
  entries: fc.array(entryArb, { maxLength: 30 }),
  unavailable: fc.option(fc.constant({ code: "connect-failed" as const, message: "It refused the connection." }), { freq: 5 }),
});
const theoremArb: fc.Arbitrary<TheoremNames> = fc.record({
  connections: fc.array(fc.constantFrom("attendance", "hr", "app", "a"), { maxLength: 3 }),
  tools: fc.array(fc.constantFrom("attendance_clock_in", "hr_clock_in", "a_b"), { maxLength: 3 }),
});
const personArb = fc.tuple(fc.array(appArb, { minLength: 1, maxLength: 6 }), theoremArb);
const runs = { numRuns: 200 };

const theoremProfile = hostProfiles().find((h) => h.id === "theorem")!;

function hostsOf(apps: AppListing[], theorem: TheoremNames, hosts: readonly HostRules[]) {
  const result = checkListings(apps, theorem);
  const checked = checkHosts(result.apps, hosts, { schemaBytes: (a, t) => jsonBytes((apps[a]!.entries[t] as { inputSchema?: unknown }).inputSchema) });
  return { result, checked };
}

describe("properties of the host rules", () => {
  it("a profile equal to Theorem's gives Theorem's answer: no problem for the tools Theorem includes", () => {
    fc.assert(
      fc.property(personArb, fc.constantFrom("theorem", "theorem-copy"), ([apps, theorem], id) => {
        const { checked } = hostsOf(apps, theorem, [{ ...theoremProfile, id, name: "Theorem again" }]);
        expect(checked[0]!.problems).toEqual([]);
      }),
      runs,
    );
  });

  it("every host counts the same included tools, and speaks only of tools Theorem includes", () => {
    fc.assert(
      fc.property(personArb, ([apps, theorem]) => {
        const { result, checked } = hostsOf(apps, theorem, hostProfiles());
        const included = result.apps.flatMap((app, a) => app.tools.filter((t) => t.included).map((t) => `${a}/${t.index}`));
        for (const host of checked) {
          expect(host.tools).toBe(included.length);
          for (const problem of host.problems) {
            if (problem.code === "too-many-tools") expect(problem.app).toBeUndefined();
            else expect(included).toContain(`${problem.app}/${problem.tool}`);
          }
        }
      }),
      runs,
    );
  });

  it("a host that states no limit finds no problem", () => {
    const none: HostRules = { id: "none", name: "None", maxTools: null, nameForm: "{tool}", nameMax: null, namePattern: null, descriptionMax: null, schemaMaxBytes: null };
    fc.assert(
      fc.property(personArb, ([apps, theorem]) => {
        expect(hostsOf(apps, theorem, [none]).checked[0]!.problems).toEqual([]);
      }),
      runs,
    );
  });
});
