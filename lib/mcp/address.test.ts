import { describe, expect, it } from "vitest";
import { bareHost, literalAddress, parseAllowList, refusedClass } from "./address";

const none = parseAllowList("");

describe("which addresses a check may reach", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["192.168.1.1", "a private address"],
    ["169.254.169.254", "a link-local address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["0.0.0.0", "an unspecified address"],
    ["224.0.0.1", "a multicast address"],
    ["255.255.255.255", "a broadcast address"],
    ["::1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["fd00::1", "a private (unique local) address"],
    ["::ffff:10.0.0.1", "a private address"],
    ["2002:7f00:1::", "a 6to4 address"],
    ["64:ff9b::7f00:1", "a NAT64 address"],
  ])("refuses %s as %s", (address, why) => {
    expect(refusedClass(address, address, none)).toBe(why);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4001:82a::200e"])("allows the public unicast address %s", (address) => {
    expect(refusedClass(address, address, none)).toBeNull();
  });

  it.each([
    ["::127.0.0.1", "a loopback address"], // ipaddr.js reads the dotted tail as IPv4-mapped
    ["::7f00:1", "an address outside the public IPv6 range"],
    ["4000::1", "an address outside the public IPv6 range"],
    ["fc00::1", "a private (unique local) address"],
    ["fe80::1", "a link-local address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["64:ff9b::7f00:1", "a NAT64 address"],
    ["2001:db8::1", "a reserved address"],
    ["::", "an unspecified address"],
    ["ff02::1", "a multicast address"],
  ])("takes an IPv6 address as public only inside 2000::/3 and outside every special range: %s is %s", (address, why) => {
    expect(refusedClass(address, address, none)).toBe(why);
  });

  it("lets CHECK_ALLOW_HOSTS open an IPv6 address outside 2000::/3", () => {
    expect(refusedClass("::7f00:1", "::7f00:1", parseAllowList("[::7f00:1]"))).toBeNull();
    expect(refusedClass("4000::1", "four.test", parseAllowList("four.test"))).toBeNull();
    expect(refusedClass("4000::1", "four.test", parseAllowList("4000::/16"))).toBeNull();
    expect(refusedClass("4000::1", "five.test", parseAllowList("four.test"))).toBe("an address outside the public IPv6 range");
  });

  it("opens what CHECK_ALLOW_HOSTS names: host names, IPs and CIDRs, and nothing else", () => {
    const allow = parseAllowList(" localhost, 10.0.0.0/8 ,[::1], 192.168.1.5,not a cidr/x");
    expect(refusedClass("127.0.0.1", "localhost", allow)).toBeNull();
    expect(refusedClass("127.0.0.1", "other.test", allow)).toBe("a loopback address");
    expect(refusedClass("10.200.3.4", "x.test", allow)).toBeNull();
    expect(refusedClass("::ffff:10.200.3.4", "x.test", allow)).toBeNull();
    expect(refusedClass("::1", "::1", allow)).toBeNull();
    expect(refusedClass("192.168.1.5", "192.168.1.5", allow)).toBeNull();
    expect(refusedClass("192.168.1.6", "192.168.1.6", allow)).toBe("a private address");
  });

  it("opens an entry with a port on that port only", () => {
    const allow = parseAllowList("127.0.0.1:4100,[::1]:4200,demo.test:4300,demo.test:4301,10.0.0.0/8:80,host.test:99999");
    expect(refusedClass("127.0.0.1", "127.0.0.1", allow, 4100)).toBeNull();
    expect(refusedClass("127.0.0.1", "127.0.0.1", allow, 22)).toBe("a loopback address");
    expect(refusedClass("::1", "::1", allow, 4200)).toBeNull();
    expect(refusedClass("::1", "::1", allow, 4100)).toBe("a loopback address");
    expect(refusedClass("127.0.0.1", "demo.test", allow, 4301)).toBeNull();
    expect(refusedClass("127.0.0.1", "demo.test", allow, 4302)).toBe("a loopback address");
    expect(refusedClass("10.1.2.3", "10.1.2.3", allow, 80)).toBeNull();
    expect(refusedClass("10.1.2.3", "10.1.2.3", allow, 443)).toBe("a private address");
    // A port that cannot be opens nothing.
    expect(refusedClass("127.0.0.1", "host.test", allow, 99999 % 65536)).toBe("a loopback address");
  });

  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[::127.0.0.1]/", "::7f00:1"],
    ["http://0/", "0.0.0.0"],
  ])("reads the literal IP in %s as %s", (url, address) => {
    const host = bareHost(new URL(url));
    expect(literalAddress(host)?.address).toBe(address);
    expect(refusedClass(address, host, none)).not.toBeNull();
  });

  it("takes a host name for a name, not an IP", () => {
    expect(literalAddress("attendance.example.com")).toBeNull();
  });
});
