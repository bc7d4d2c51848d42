import { z } from "zod";

/**
 * SPEC §9's roles: one per member. A schema like the others here, shared by the routes and forms
 * that take a role; what each role may do is lib/auth/roles.ts's.
 */
export const role = z.enum(["leader", "developer", "support"], { error: "A role is leader, developer or support." });
export type Role = z.infer<typeof role>;
