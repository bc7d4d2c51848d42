import { describe, expect, it } from "vitest";
import { InvalidError } from "@/lib/errors";
import { chooseRemote, fillTemplate, importApp, importedName, parseServerJson, urlVariables } from "./server-json";

const server = (over: Record<string, unknown> = {}) => parseServerJson({ name: "io.github.acme/weather", description: "Weather.", version: "1.0.0", ...over });

describe("the remote an app is made from", () => {
  it.each([
    ["streamable-http first, wherever it is", [{ type: "sse", url: "https://a.test/sse" }, { type: "streamable-http", url: "https://a.test/mcp" }], "https://a.test/mcp"],
    ["sse when there is no streamable-http", [{ type: "sse", url: "https://a.test/sse" }], "https://a.test/sse"],
    ["none without remotes", [], null],
  ])("%s", (_, remotes, url) => {
    expect(chooseRemote(server({ remotes }))?.url ?? null).toBe(url);
  });
});

describe("names and variables", () => {
  it("names the app by its title, else the part of its name after /", () => {
    expect(importedName(server({ title: "Weather Pro" }))).toBe("Weather Pro");
    expect(importedName(server())).toBe("weather");
    expect(importedName(server(), "Given")).toBe("Given");
  });

  it("fills {variables} from the values given, else their defaults, naming the rest once", () => {
    expect(fillTemplate("{a}.test/{b}/{a}/{c}", { a: "x" }, { b: { default: "d" } })).toEqual({ text: "x.test/d/x/{c}", missing: ["c"] });
    expect(urlVariables({ type: "sse", url: "https://{tenant}.test/{path}/{tenant}" })).toEqual(["tenant", "path"]);
  });

  it("sends a header with a fixed value as the entry says, its variables filled", () => {
    const app = importApp(server({ remotes: [{ type: "streamable-http", url: "https://a.test/mcp", headers: [{ name: "Authorization", value: "Bearer {token}", isRequired: true, isSecret: true }] }] }), { variables: { token: "t0k" } });
    expect(app.headers).toEqual([["Authorization", "Bearer t0k"]]);
  });

  it("refuses a header value a person could not send (SPEC §10), naming it", () => {
    expect(() => importApp(server({ remotes: [{ type: "streamable-http", url: "https://a.test/mcp" }] }), { headers: { Host: "evil.test" } })).toThrow(/Host/);
  });

  it("refuses a JSON that is not an object, and names each schema issue", () => {
    expect(() => parseServerJson([])).toThrow(InvalidError);
    const error = (() => {
      try {
        parseServerJson({ name: "a", version: 1 });
      } catch (e) {
        return e as InvalidError;
      }
    })();
    expect(error?.issues?.map((i) => i.path.join("."))).toEqual(["serverJson.name", "serverJson.name", "serverJson.description", "serverJson.version"]);
  });
});
