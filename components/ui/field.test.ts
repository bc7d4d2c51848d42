import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TextField } from "./field";

const html = (props: Parameters<typeof TextField>[0]) => renderToStaticMarkup(createElement(TextField, props));

describe("TextField", () => {
  it("names its input by the label and points at nothing while valid", () => {
    const out = html({ id: "f-email", label: "Email", error: undefined, type: "email", autoComplete: "email" });
    expect(out).toContain('<label for="f-email"');
    expect(out).toMatch(/<input id="f-email"[^>]* aria-invalid="false"[^>]* type="email" autoComplete="email"\/>/);
    expect(out).not.toContain("aria-describedby");
    expect(out).not.toContain("f-email-error");
  });

  it("reads its hint, its error and the form's refusal, in that order", () => {
    const out = html({ id: "f-pw", label: "Password", error: "Too short.", hint: "At least 8 characters.", describedBy: "f-refusal" });
    expect(out).toContain('aria-invalid="true" aria-describedby="f-pw-hint f-pw-error f-refusal"');
    expect(out.indexOf('id="f-pw-hint"')).toBeLessThan(out.indexOf('<p id="f-pw-error" class="mt-1 text-sm text-rose-800">Too short.</p>'));
  });

  it("is invalid for a reason said elsewhere, and hides its prefix from screen readers", () => {
    const out = html({ id: "f-slug", label: "Address", error: undefined, invalid: true, prefix: "/orgs/", inputClassName: "font-mono" });
    expect(out).toContain('aria-invalid="true"');
    expect(out).toContain('<span class="shrink-0 text-sm text-slate-600" aria-hidden="true">/orgs/</span>');
    expect(out).toMatch(/class="[^"]*aria-\[invalid=true\]:border-rose-600 font-mono"/);
  });
});
