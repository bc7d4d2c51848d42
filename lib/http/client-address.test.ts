import { describe, expect, it } from "vitest";
import { clientAddressOf, trustedProxiesFromEnv } from "./client-address";

describe("the client's address", () => {
  it.each([
    // peer, X-Forwarded-For, trusted proxies → the client
    ["203.0.113.7", null, 0, "203.0.113.7"],
    ["203.0.113.7", "198.51.100.1", 0, "203.0.113.7"],
    ["::ffff:203.0.113.7", null, 0, "203.0.113.7"],
    ["::1", "1.2.3.4", 0, "::1"],
    ["10.0.0.2", "198.51.100.1", 1, "198.51.100.1"],
    ["10.0.0.2", "6.6.6.6, 198.51.100.1", 1, "198.51.100.1"],
    ["10.0.0.3", "6.6.6.6, 198.51.100.1, 10.0.0.2", 2, "198.51.100.1"],
    // Fewer entries than proxies said: not known, rather than the client's own words.
    ["10.0.0.2", null, 1, null],
    ["10.0.0.2", "not an address", 1, null],
    [null, "198.51.100.1", 0, null],
    [null, "198.51.100.1", 1, null],
  ] as const)("peer %s, forwarded %j, %i proxies: %s", (peer, forwarded, proxies, expected) => {
    expect(clientAddressOf(peer, forwarded, proxies)).toBe(expected);
  });

  it.each([
    [undefined, 0],
    ["", 0],
    ["1", 1],
    ["2", 2],
    ["-1", 0],
    ["1.5", 0],
    ["many", 0],
  ])("THEOREM_TRUSTED_PROXIES=%j is %i", (value, count) => {
    expect(trustedProxiesFromEnv((value === undefined ? {} : { THEOREM_TRUSTED_PROXIES: value }) as NodeJS.ProcessEnv)).toBe(count);
  });
});
