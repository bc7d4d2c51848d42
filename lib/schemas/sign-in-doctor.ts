import { z } from "zod";

/**
 * The sign-in doctor's answer (SPEC §27): what Connect does, step by step, with what was found and
 * expected at each. Shared by `POST …/apps/{app}/oauth/diagnose` and the "Why can't it sign in?" panel.
 */

/** The steps, in the order they are walked. */
export const doctorStepName = z.enum(["www-authenticate", "protected-resource-metadata", "authorization-server-metadata", "client-registration", "iss", "token-audience"]);
export type DoctorStepName = z.infer<typeof doctorStepName>;

export const doctorStep = z.object({
  step: doctorStepName,
  /** true: as it should be; false: the fault that stops the sign-in; null: not checked (a person must sign in). */
  ok: z.boolean().nullable(),
  /** The address asked at this step. */
  url: z.string().optional(),
  /** The HTTP status it answered. */
  status: z.number().int().optional(),
  /** What the step found, and what it should have found, as short text (never a token or a secret). */
  found: z.string().optional(),
  expected: z.string().optional(),
  /** The sentence for the app's developer. */
  message: z.string(),
});
export type DoctorStep = z.infer<typeof doctorStep>;

/** In order; it ends at the first step whose `ok` is false. */
export const diagnosis = z.object({ steps: z.array(doctorStep) });
export type Diagnosis = z.infer<typeof diagnosis>;
