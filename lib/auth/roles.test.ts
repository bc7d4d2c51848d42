import { describe, expect, it } from "vitest";
import { role, type Role } from "@/lib/schemas/roles";
import { ACTIONS, can, parseRole, roleNeeded, roleNeededAnywhere, type Action } from "./roles";

// SPEC §9's table, written out once more by hand: the test fails if the data drifts from it.
const TABLE: Record<Action, Record<Role, boolean>> = {
  view: { leader: true, developer: true, support: true },
  recheck: { leader: true, developer: true, support: true },
  diagnose: { leader: true, developer: true, support: true },
  try: { leader: true, developer: true, support: false },
  tryAnyway: { leader: true, developer: false, support: false },
  manage: { leader: true, developer: false, support: false },
  personal: { leader: true, developer: true, support: true },
  lookUpOthers: { leader: true, developer: false, support: true },
  exportOthers: { leader: true, developer: false, support: true },
};

describe("the role table", () => {
  const cases = (Object.keys(ACTIONS) as Action[]).flatMap((action) => role.options.map((who) => [action, who] as const));
  it.each(cases)("%s by a %s", (action, who) => {
    expect(can(who, action)).toBe(TABLE[action][who]);
  });

  it("says which role is needed", () => {
    expect(roleNeeded("manage", "developer")).toBe("Only a leader may connect, edit or remove apps and manage members; you are a developer here.");
    expect(roleNeeded("try", "support")).toBe("Only a leader or a developer may try tools; you are a support here.");
    expect(roleNeeded("tryAnyway", "developer")).toBe('Only a leader may try a tool that is refused to them ("anyway"); you are a developer here.');
    expect(roleNeeded("lookUpOthers", "developer")).toBe("Only a leader or a support may look up tools for another person; you are a developer here.");
    expect(roleNeededAnywhere("try")).toBe("Only a leader or a developer of an organisation may try tools; you are in none.");
  });

  it("reads stored roles, refusing unknown ones", () => {
    expect(parseRole("leader")).toBe("leader");
    expect(parseRole("support, developer")).toBe("support");
    expect(parseRole("owner")).toBeNull();
    expect(parseRole(null)).toBeNull();
  });
});
