import { describe, expect, it } from "vitest";
import { sameAddress } from "./same-address";

const apps = [
  { name: "Rota", url: "https://rota.example/mcp" },
  { name: "Notes", url: "https://notes.example/mcp?team=a" },
];

describe("an address already connected", () => {
  it.each([
    ["https://rota.example/mcp", "Rota"],
    ["https://ROTA.example/mcp/", "Rota"],
    [" https://rota.example/mcp ", "Rota"],
    ["https://rota.example:443/mcp", "Rota"],
    ["https://rota.example/mcp2", undefined],
    ["http://rota.example/mcp", undefined],
    ["https://notes.example/mcp?team=a", "Notes"],
    ["https://notes.example/mcp?team=b", undefined],
    ["not a url", undefined],
  ])("%s is %s", (url, name) => {
    expect(sameAddress(apps, url)?.name).toBe(name);
  });
});
