import { describe, expect, it } from "vitest";
import { isAppOnly } from "./app-only";

describe("a tool for the app's own view only (MCP Apps)", () => {
  it.each([
    ["for the app alone", { _meta: { ui: { visibility: ["app"] } } }, true],
    ["for no one", { _meta: { ui: { visibility: [] } } }, true],
    ["for the model and the app", { _meta: { ui: { visibility: ["model", "app"] } } }, false],
    ["for the model alone", { _meta: { ui: { visibility: ["model"] } } }, false],
    ["no visibility: both", { _meta: { ui: { resourceUri: "ui://week" } } }, false],
    ["no _meta", {}, false],
    ["visibility a string, not an array", { _meta: { ui: { visibility: "app" } } }, false],
    ["visibility an object", { _meta: { ui: { visibility: { app: true } } } }, false],
    ["ui not an object", { _meta: { ui: ["app"] } }, false],
    ["_meta not an object", { _meta: "ui" }, false],
    ['"MODEL" is not "model"', { _meta: { ui: { visibility: ["MODEL"] } } }, true],
  ])("%s", (_what, extra, expected) => {
    expect(isAppOnly({ name: "render_week", ...extra })).toBe(expected);
  });
});
