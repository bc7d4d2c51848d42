import { describe, expect, it } from "vitest";
import { doctorStepName } from "@/lib/schemas/sign-in-doctor";
import { DOCTOR_STEP_LABELS, doctorVerdict } from "./sign-in-doctor-words";

describe("the sign-in doctor's words", () => {
  it.each(doctorStepName.options)("names the step %s", (step) => {
    expect(DOCTOR_STEP_LABELS[step].length).toBeGreaterThan(0);
  });

  it.each([
    [true, "ok", "green"],
    [false, "fails", "red"],
    [null, "not checked", "slate"],
  ] as const)("says %s as %s", (ok, word, tone) => {
    expect(doctorVerdict(ok)).toEqual({ word, tone });
  });
});
