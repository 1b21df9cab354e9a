// The SSRF guard: a webhook URL must be http(s) and must not reach loopback, private, link-local,
// CGNAT, multicast or reserved addresses, unless the operator exempted the range. Checked when a
// subscription is created (the name is resolved) and again on the address each delivery connects to.
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import type { Cidr } from '../config/webhooks.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address it has (tests inject one instead of using DNS). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface AddressPolicy {
  /** Ranges the operator exempted (DCLEDGER_WEBHOOK_ALLOW_CIDRS). */
  allow: readonly Cidr[];
  resolve: Resolver;
}

/** Why a URL or address is refused; the message is safe to show the subscriber. */
export class BlockedAddressError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

interface Range {
  family: 4 | 6;
  network: bigint;
  prefix: number;
  reason: string;
}

function range(text: string, reason: string): Range {
  const [address = '', prefix = ''] = text.split('/');
  const family = isIP(address) === 4 ? 4 : 6;
  return { family, network: toBigInt(address, family), prefix: Number(prefix), reason };
}

// IANA special-purpose registries (RFC 6890 and successors): nothing here is a public receiver.
const BLOCKED: readonly Range[] = [
  range('0.0.0.0/8', 'an unspecified ("this network") address'),
  range('10.0.0.0/8', 'a private address'),
  range('100.64.0.0/10', 'a carrier-grade NAT address'),
  range('127.0.0.0/8', 'a loopback address'),
  range('169.254.0.0/16', 'a link-local address'),
  range('172.16.0.0/12', 'a private address'),
  range('192.0.0.0/24', 'an IETF protocol assignment'),
  range('192.0.2.0/24', 'a documentation address'),
  range('192.88.99.0/24', 'a 6to4 relay address'),
  range('192.168.0.0/16', 'a private address'),
  range('198.18.0.0/15', 'a benchmarking address'),
  range('198.51.100.0/24', 'a documentation address'),
  range('203.0.113.0/24', 'a documentation address'),
  range('224.0.0.0/4', 'a multicast address'),
  range('240.0.0.0/4', 'a reserved address'),
  range('::/128', 'an unspecified address'),
  range('::1/128', 'a loopback address'),
  range('::/96', 'an IPv4-compatible address'),
  range('64:ff9b:1::/48', 'a local-use translation address'),
  range('100::/64', 'a discard-only address'),
  range('2001::/23', 'an IETF protocol assignment'),
  range('2001:db8::/32', 'a documentation address'),
  range('2002::/16', 'a 6to4 address'),
  range('3fff::/20', 'a documentation address'),
  range('fc00::/7', 'a unique-local address'),
  range('fe80::/10', 'a link-local address'),
  range('fec0::/10', 'a site-local address'),
  range('ff00::/8', 'a multicast address'),
];

// IPv6 forms that carry an IPv4 address the connection really reaches: judged by that address.
const MAPPED = range('::ffff:0:0/96', 'an IPv4-mapped address');
const NAT64 = range('64:ff9b::/96', 'a NAT64 address');

/** `reason` names the address and its kind: "10.0.0.1 (a private address)". */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

/** Whether a delivery may connect to `address` (an IPv4 or IPv6 literal). */
export function judgeAddress(address: string, allow: readonly Cidr[]): AddressVerdict {
  const literal = address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
  const family = isIP(literal);
  if (family !== 4 && family !== 6) return { allowed: false, reason: `${address} (not an IP address)` };
  const value = toBigInt(literal, family);
  if (allowed(value, family, allow)) return { allowed: true };
  if (family === 6 && (contains(MAPPED, value, 6) || contains(NAT64, value, 6))) {
    const embedded = fromBigIntV4(value & 0xffffffffn);
    const inner = judgeAddress(embedded, allow);
    return inner.allowed ? inner : { allowed: false, reason: `${literal} (which maps to ${inner.reason})` };
  }
  const hit = BLOCKED.find((blocked) => contains(blocked, value, family));
  return hit ? { allowed: false, reason: `${literal} (${hit.reason})` } : { allowed: true };
}

function allowed(value: bigint, family: 4 | 6, allow: readonly Cidr[]): boolean {
  return allow.some((cidr) =>
    contains(
      { family: cidr.family, network: toBigInt(cidr.address, cidr.family), prefix: cidr.prefix, reason: '' },
      value,
      family,
    ),
  );
}

function contains(candidate: Range, value: bigint, family: 4 | 6): boolean {
  if (candidate.family !== family) return false;
  const bits = family === 4 ? 32 : 128;
  const shift = BigInt(bits - candidate.prefix);
  return value >> shift === candidate.network >> shift;
}

/** An IP literal as a number (IPv6 may embed a dotted IPv4 tail and one `::`). */
export function toBigInt(address: string, family: 4 | 6): bigint {
  if (family === 4) return address.split('.').reduce((sum, octet) => (sum << 8n) + BigInt(Number(octet)), 0n);
  let text = address;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1]) {
    const v4 = toBigInt(dotted[1], 4);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill('0'), ...tailGroups];
  return groups.reduce((sum, group) => (sum << 16n) + BigInt(Number.parseInt(group || '0', 16)), 0n);
}

function fromBigIntV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

const MAX_URL_LENGTH = 2048;

/** Checks the form of a webhook URL (no network); throws BlockedAddressError saying what is wrong. */
export function parseWebhookUrl(raw: string): URL {
  if (raw.length > MAX_URL_LENGTH)
    throw new BlockedAddressError(`is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedAddressError('is not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new BlockedAddressError('must use http or https');
  // Credentials in the URL would be listed back by GET /alerts/subscriptions; the signature
  // authenticates deliveries instead.
  if (url.username !== '' || url.password !== '')
    throw new BlockedAddressError('must not contain a user name or password');
  if (url.hostname === '') throw new BlockedAddressError('has no host');
  return url;
}

/** The URL's host as a bare name or IP literal (URL keeps IPv6 literals in brackets). */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * Subscribe-time check: the URL's form, then every address its host resolves to. A name with
 * one refused address is refused: DNS answers rotate, and a delivery could connect to that one.
 */
export async function checkWebhookUrl(raw: string, policy: AddressPolicy): Promise<URL> {
  const url = parseWebhookUrl(raw);
  await resolveAllowed(hostOf(url), policy);
  return url;
}

/** What a refused address can do about it: the setting that exempts a range. */
export const EXEMPTION_HINT =
  'the operator of this server can exempt a range with DCLEDGER_WEBHOOK_ALLOW_CIDRS, e.g. 127.0.0.1/32';

/** The addresses a delivery may connect to for `host`; throws when any of them is refused. */
export async function resolveAllowed(host: string, policy: AddressPolicy): Promise<ResolvedAddress[]> {
  if (isIP(host) !== 0) {
    const verdict = judgeAddress(host, policy.allow);
    if (!verdict.allowed)
      throw new BlockedAddressError(`${verdict.reason} is not allowed; ${EXEMPTION_HINT}`);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    throw new BlockedAddressError(`host ${host} could not be resolved`);
  }
  if (addresses.length === 0) throw new BlockedAddressError(`host ${host} has no address`);
  for (const { address } of addresses) {
    const verdict = judgeAddress(address, policy.allow);
    if (!verdict.allowed)
      throw new BlockedAddressError(
        `host ${host} resolves to ${verdict.reason}, which is not allowed; ${EXEMPTION_HINT}`,
      );
  }
  return addresses;
}

/**
 * A `lookup` for net/tls.connect that resolves through the policy and hands the socket only
 * checked addresses: the address a delivery connects to is the one that was judged.
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(new BlockedAddressError(`host ${hostname} has no IPv${wanted} address`), '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: Error) => callback(error, '', 0),
    );
  };
}
