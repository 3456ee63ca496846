/**
 * What kind of place an IP address is, for the SSRF guard. IPv6 forms that carry an IPv4 address
 * (mapped `::ffff:a.b.c.d` in dotted or hex form, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) are judged by the IPv4 address inside, so `::ffff:a9fe:a9fe` is the metadata
 * service like 169.254.169.254 is.
 */
import { isIPv4, isIPv6 } from "node:net";

export type AddressKind =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "invalid";

interface Range {
  bytes: number[];
  prefix: number;
  kind: Exclude<AddressKind, "public" | "invalid">;
}

function v4(text: string, kind: Range["kind"]): Range {
  const [address = "", prefix = "32"] = text.split("/");
  return { bytes: address.split(".").map(Number), prefix: Number(prefix), kind };
}

function v6(text: string, kind: Range["kind"]): Range {
  const [address = "", prefix = "128"] = text.split("/");
  return { bytes: ipv6Bytes(address) ?? [], prefix: Number(prefix), kind };
}

// Most specific first: the first range that holds the address names its kind.
const V4_RANGES: Range[] = [
  v4("169.254.169.254", "metadata"),
  // Alibaba Cloud's metadata service sits inside the CGNAT range.
  v4("100.100.100.200", "metadata"),
  v4("0.0.0.0/8", "unspecified"),
  v4("127.0.0.0/8", "loopback"),
  v4("10.0.0.0/8", "private"),
  v4("172.16.0.0/12", "private"),
  v4("192.168.0.0/16", "private"),
  v4("100.64.0.0/10", "private"),
  v4("169.254.0.0/16", "link-local"),
  v4("192.0.0.0/24", "reserved"),
  v4("192.0.2.0/24", "reserved"),
  v4("198.18.0.0/15", "reserved"),
  v4("198.51.100.0/24", "reserved"),
  v4("203.0.113.0/24", "reserved"),
  v4("224.0.0.0/4", "multicast"),
  v4("240.0.0.0/4", "reserved"),
];

/**
 * The IPv6 tables, parsed at the first IPv6 address judged: parsing them runs node:net's IPv6
 * check, whose first call compiles a large regular expression, and most cold starts judge none.
 */
let v6Tables: { ranges: Range[]; carriers: V4Carrier[] } | undefined;

function v6TablesOf(): { ranges: Range[]; carriers: V4Carrier[] } {
  v6Tables ??= { ranges: v6Ranges(), carriers: v4Carriers() };
  return v6Tables;
}

/** Where an IPv6 form carries an IPv4 address: the prefix that says so and the offset of the 4 bytes. */
interface V4Carrier {
  bytes: number[];
  prefix: number;
  at: number;
}

const v6Ranges = (): Range[] => [
  v6("fd00:ec2::254", "metadata"),
  v6("::/128", "unspecified"),
  v6("::1/128", "loopback"),
  v6("64:ff9b:1::/48", "private"),
  v6("fc00::/7", "private"),
  v6("fec0::/10", "private"),
  v6("fe80::/10", "link-local"),
  v6("ff00::/8", "multicast"),
  v6("100::/64", "reserved"),
  // Teredo tunnels to an address reelay cannot see; documentation addresses route nowhere.
  v6("2001::/32", "reserved"),
  v6("2001:db8::/32", "reserved"),
];

const v4Carriers = (): V4Carrier[] => [
  { bytes: ipv6Bytes("::ffff:0:0") ?? [], prefix: 96, at: 12 },
  { bytes: ipv6Bytes("64:ff9b::") ?? [], prefix: 96, at: 12 },
  { bytes: ipv6Bytes("2002::") ?? [], prefix: 16, at: 2 },
  // IPv4-compatible (deprecated); :: and ::1 themselves are matched before this is consulted.
  { bytes: ipv6Bytes("::") ?? [], prefix: 96, at: 12 },
];

function within(bytes: readonly number[], range: { bytes: number[]; prefix: number }): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if (((bytes[i] ?? 0) & mask) !== ((range.bytes[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address in any textual form (`::`, embedded dotted IPv4, zone id). */
export function ipv6Bytes(text: string): number[] | undefined {
  const bare = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!isIPv6(bare)) return undefined;
  let groups: string[];
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  const head = dotted === undefined ? bare : bare.slice(0, -dotted.length);
  if (dotted !== undefined) tail = dotted.split(".").map(Number);
  const [left = "", right] = head.split("::");
  const split = (part: string) =>
    part === "" ? [] : part.split(":").filter((group) => group !== "");
  const tailGroups = tail.length / 2;
  if (right === undefined) {
    groups = split(left);
  } else {
    const l = split(left);
    const r = split(right);
    groups = [...l, ...Array<string>(8 - tailGroups - l.length - r.length).fill("0"), ...r];
  }
  const bytes = groups.flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  return [...bytes, ...tail];
}

function kindOf(bytes: readonly number[], ranges: readonly Range[]): AddressKind {
  return ranges.find((range) => within(bytes, range))?.kind ?? "public";
}

/** The kind of an IPv4 or IPv6 address (brackets allowed); "invalid" when it is neither. */
export function classifyAddress(address: string): AddressKind {
  if (isIPv4(address)) return kindOf(address.split(".").map(Number), V4_RANGES);
  const bytes = ipv6Bytes(address);
  if (bytes === undefined) return "invalid";
  const { ranges, carriers } = v6TablesOf();
  const own = kindOf(bytes, ranges);
  if (own !== "public") return own;
  const carrier = carriers.find((c) => within(bytes, c));
  if (carrier === undefined) return "public";
  return kindOf(bytes.slice(carrier.at, carrier.at + 4), V4_RANGES);
}
