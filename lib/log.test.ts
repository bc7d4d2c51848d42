import { afterEach, describe, expect, it } from "vitest";
import { errorField, logger, logWith, REDACTED, sendLogsTo } from "./log";

let lines: string[] = [];
let restore = () => {};
afterEach(() => restore());

function capture(level: Parameters<typeof sendLogsTo>[1] = "info") {
  lines = [];
  restore = sendLogsTo({ write: (line: string) => lines.push(line) }, level);
}
const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the log", () => {
  it("writes one JSON object per line, its level by name", () => {
    capture();
    logger.info({ org: "acme" }, "hello");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    expect(parsed()[0]).toMatchObject({ level: "info", org: "acme", msg: "hello" });
  });

  it("writes nothing below its level", () => {
    capture("warn");
    logger.info("not written");
    logger.warn("written");
    expect(parsed().map((l) => l.msg)).toEqual(["written"]);
  });

  it("redacts secret-shaped fields at the top and nested, in a child's bindings too", () => {
    capture();
    const secrets = {
      authorization: "Bearer s1",
      cookie: "session=s2",
      "set-cookie": "session=s3",
      "x-api-key": "s4",
      token: "s5",
      accessToken: "s6",
      refresh_token: "s7",
      password: "s8",
      clientSecret: "s9",
      client_secret: "s10",
      code: "s11",
      state: "s12",
      codeVerifier: "s13",
    };
    logger.info(secrets, "top");
    logger.info({ request: secrets, oauth: { tokens: secrets } }, "nested");
    logger.info({ headers: { "x-custom": "s14", accept: "s15" }, app: { header: { name: "X-Key", value: "s16" } } }, "headers");
    logWith({ authorization: "Bearer s17" }).info("child");
    const text = lines.join("");
    for (let i = 1; i <= 17; i++) expect(text).not.toMatch(new RegExp(`\\bs${i}\\b`));
    const [top, nested, headers] = parsed();
    expect(top).toMatchObject({ authorization: REDACTED, "set-cookie": REDACTED, code: REDACTED, state: REDACTED });
    expect(nested).toMatchObject({ request: { cookie: REDACTED }, oauth: { tokens: { password: REDACTED } } });
    // The header's name stays: it says which header an app was given.
    expect(headers).toMatchObject({ headers: { "x-custom": REDACTED }, app: { header: { name: "X-Key", value: REDACTED } } });
  });

  it("keeps an error's name, message and stack, not what else it carries", () => {
    const error = Object.assign(new TypeError("boom"), { config: { headers: { Authorization: "Bearer s1" } } });
    const field = errorField(error);
    expect(field).toMatchObject({ type: "TypeError", message: "boom" });
    expect(field.stack).toContain("boom");
    expect(JSON.stringify(field)).not.toContain("s1");
    expect(errorField("plain")).toEqual({ type: "string", message: "plain" });
    expect(errorField(field)).toEqual(field);
  });

  it("writes an error given as `err` as its name, message and stack only", () => {
    capture();
    const error = Object.assign(new RangeError("out of range"), { request: { url: "https://app.test/?sig=s1" } });
    logger.error({ err: error }, "failed");
    const [line] = parsed();
    expect(line).toMatchObject({ level: "error", err: { type: "RangeError", message: "out of range" } });
    expect(Object.keys(line!.err as object).sort()).toEqual(["message", "stack", "type"]);
    expect(lines.join("")).not.toContain("sig=s1");
  });
});
