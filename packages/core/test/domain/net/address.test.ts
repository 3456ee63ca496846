import { describe, expect, it } from "vitest";
import { classifyAddress, ipv6Bytes, type AddressKind } from "../../../src/domain/net/address.ts";

const TABLE: [string, AddressKind][] = [
  ["169.254.169.254", "metadata"],
  ["::ffff:169.254.169.254", "metadata"],
  ["[::ffff:169.254.169.254]", "metadata"],
  ["[::ffff:a9fe:a9fe]", "metadata"],
  ["0:0:0:0:0:ffff:a9fe:a9fe", "metadata"],
  ["::a9fe:a9fe", "metadata"],
  ["64:ff9b::a9fe:a9fe", "metadata"],
  ["64:ff9b::169.254.169.254", "metadata"],
  ["fd00:ec2::254", "metadata"],
  ["100.100.100.200", "metadata"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.254", "private"],
  ["192.168.1.1", "private"],
  ["100.64.0.1", "private"],
  ["fc00::1", "private"],
  ["fd12:3456::1", "private"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:c0a8:101", "private"],
  ["2002:c0a8:0101::1", "private"],
  ["127.0.0.1", "loopback"],
  ["127.1.2.3", "loopback"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  ["::ffff:0.0.0.0", "unspecified"],
  ["169.254.1.1", "link-local"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["224.0.0.1", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "reserved"],
  ["2001:db8::1", "reserved"],
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["172.32.0.1", "public"],
  ["100.128.0.1", "public"],
  ["169.255.0.1", "public"],
  ["::ffff:8.8.8.8", "public"],
  ["64:ff9b::808:808", "public"],
  ["2606:4700:4700::1111", "public"],
  ["2a00:1450:4001:81b::200e", "public"],
  ["not-an-address", "invalid"],
  ["1.2.3", "invalid"],
];

describe("classifyAddress", () => {
  it.each(TABLE)("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe("ipv6Bytes", () => {
  it("reads the dotted and the hex form of an IPv4-mapped address as the same 16 bytes", () => {
    const expected = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 169, 254, 169, 254];
    expect(ipv6Bytes("::ffff:169.254.169.254")).toEqual(expected);
    expect(ipv6Bytes("::ffff:a9fe:a9fe")).toEqual(expected);
    expect(ipv6Bytes("0:0:0:0:0:ffff:a9fe:a9fe")).toEqual(expected);
  });

  it("is undefined for what is not IPv6", () => {
    expect(ipv6Bytes("169.254.169.254")).toBeUndefined();
    expect(ipv6Bytes("::ffff::1")).toBeUndefined();
  });
});
