import { describe, expect, it } from "vitest";
import { fieldOfIssue, pastedUrl, remoteOf, toImportInput, type ImportFormValues } from "./import-app-form";
import { sameAddress, twiceQuestion } from "./same-address";

const values = (over: Partial<ImportFormValues> = {}): ImportFormValues => ({ source: "paste", text: "", registryUrl: "", serverName: "", version: "", name: "", variables: [], headers: [], ...over });
const row = (name: string, value = "") => ({ name, value, secret: false, required: true, description: "" });

describe("the import form", () => {
  it("sends what appImport takes: the server.json or the registry, and only the values given", () => {
    expect(toImportInput(values({ text: '{"name":"io.test/a"}', variables: [row("v", "1"), row("w")], headers: [row("X-Key", "k")] }))).toEqual({ serverJson: { name: "io.test/a" }, variables: { v: "1" }, headers: { "X-Key": "k" } });
    expect(toImportInput(values({ source: "registry", registryUrl: "https://r.test", serverName: "io.test/a", name: "Mine" }))).toEqual({ registry: { url: "https://r.test", name: "io.test/a" }, name: "Mine" });
  });

  it.each([
    [["variables", "tenant"], "variables.1.value"],
    [["headers", "x-key"], "headers.0.value"],
    [["headers", "Other"], "headers"],
    [["registry", "url"], "registryUrl"],
    [["registry", "name"], "serverName"],
    [["serverJson", "name"], "text"],
    [["serverJson", "title"], "name"],
    [["registry", "title"], "name"],
    [["name"], "name"],
  ])("puts the issue at %j on %s", (path, field) => {
    expect(fieldOfIssue(path, { variables: [row("a"), row("tenant")], headers: [row("X-Key")] })).toBe(field);
  });

  it("shows the remote chosen and asks for its variables and headers, keeping values typed", () => {
    const text = JSON.stringify({ name: "io.test/a", description: "A.", version: "1", remotes: [{ type: "sse", url: "https://{t}.test/sse", headers: [{ name: "X-Key", isSecret: true, isRequired: true }] }] });
    const shown = remoteOf(text, { variables: [row("t", "acme")], headers: [] });
    expect(shown).toMatchObject({ name: "a", remote: { type: "sse" }, variables: [{ name: "t", value: "acme" }], headers: [{ name: "X-Key", secret: true, required: true }] });
    expect(remoteOf("{", { variables: [], headers: [] })).toEqual({ error: "This is not JSON: paste the whole server.json." });
    // A title that cannot name the app still shows its remote: a name given fixes it.
    const hostile = JSON.stringify({ name: "io.test/a", title: "Ro\u202eta", description: "A.", version: "1", remotes: [{ type: "sse", url: "https://a.test/sse" }] });
    expect(remoteOf(hostile, { variables: [], headers: [] })).toMatchObject({ name: "this server (give it a name below)", remote: { type: "sse" } });
  });

  describe("an address already connected", () => {
    const entry = (url: string, variables = {}) => JSON.stringify({ name: "io.test/planner", description: "P.", version: "1", remotes: [{ type: "streamable-http", url, variables }] });
    const connected = [
      { id: "a1", name: "Attendance", url: "http://127.0.0.1:3101/mcp" },
      { id: "a6", name: "Planner", url: "http://127.0.0.1:3106/mcp" },
    ];

    it("is found for a pasted entry before it is sent, whatever the trailing slash, and asked about as adding by URL asks", () => {
      const url = pastedUrl(values({ text: entry("http://127.0.0.1:3106/mcp/") }));
      expect(url).toBe("http://127.0.0.1:3106/mcp/");
      const twice = sameAddress(connected, url!);
      expect(twice?.name).toBe("Planner");
      expect(twiceQuestion(twice!.name)).toBe("Planner is already connected at this address: people would get its tools twice.");
      expect(sameAddress(connected, pastedUrl(values({ text: entry("http://127.0.0.1:3107/mcp") }))!)).toBeUndefined();
    });

    it("fills the URL's variables from the values typed, else their defaults, before comparing", () => {
      const text = entry("http://127.0.0.1:{port}/mcp", { port: { default: "3101" } });
      expect(pastedUrl(values({ text, variables: [row("port", "3106")] }))).toBe("http://127.0.0.1:3106/mcp");
      expect(pastedUrl(values({ text, variables: [row("port")] }))).toBe("http://127.0.0.1:3101/mcp");
    });

    it("is not known before sending for a registry's entry, nor for a text that cannot be read or a variable missing", () => {
      expect(pastedUrl(values({ source: "registry", registryUrl: "https://r.test", serverName: "io.test/planner" }))).toBeNull();
      expect(pastedUrl(values({ text: "{" }))).toBeNull();
      expect(pastedUrl(values({ text: entry("http://{host}/mcp"), variables: [row("host")] }))).toBeNull();
    });
  });
});
