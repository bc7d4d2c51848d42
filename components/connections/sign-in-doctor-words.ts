import type { BadgeTone } from "@/components/ui/badge";
import type { DoctorStep, DoctorStepName } from "@/lib/schemas/sign-in-doctor";

/** Each step of the sign-in doctor (SPEC §27) as its panel names it. */
export const DOCTOR_STEP_LABELS: Record<DoctorStepName, string> = {
  "www-authenticate": "The app's 401 and its WWW-Authenticate",
  "protected-resource-metadata": "Protected resource metadata (RFC 9728)",
  "authorization-server-metadata": "Authorization server metadata (RFC 8414)",
  "client-registration": "Client registration",
  iss: "iss in the sign-in's answer (RFC 9207)",
  "token-audience": "The token's audience",
};

/** A step's verdict as a badge: ok, the fault, or not checked (a person must sign in). */
export function doctorVerdict(ok: DoctorStep["ok"]): { word: string; tone: BadgeTone } {
  switch (ok) {
    case true:
      return { word: "ok", tone: "green" };
    case false:
      return { word: "fails", tone: "red" };
    case null:
      return { word: "not checked", tone: "slate" };
    default: {
      const never: never = ok;
      return never;
    }
  }
}
