import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/read.js';
import { parseCidrList } from '../config/webhooks.js';
import { fixedResolver } from '../test-support/webhooks.js';
import {
  type AddressPolicy,
  BlockedAddressError,
  checkWebhookUrl,
  EXEMPTION_HINT,
  guardedLookup,
  hostOf,
  judgeAddress,
  resolveAllowed,
  systemResolver,
  toBigInt,
} from './address-guard.js';

const nothingAllowed: AddressPolicy = { allow: [], resolve: fixedResolver({}) };

describe('judgeAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:192.168.0.1', 'private'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::a00:1', 'private'],
    ['[::1]', 'loopback'],
    // The whole of 0.0.0.0/8 and of fe80::/10, not just their first address.
    ['0.1.2.3', 'unspecified'],
    ['0.255.255.255', 'unspecified'],
    ['fe90::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['fec0::1', 'site-local'],
    ['feff::1', 'site-local'],
    ['::ffff:0.1.2.3', 'unspecified'],
    ['::ffff:1:203', 'unspecified'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['2002:7f00:1::1', '6to4'],
    ['100::1', 'discard-only'],
    ['192.0.0.8', 'IETF protocol'],
    ['198.19.255.255', 'benchmarking'],
    ['ff0e::1', 'multicast'],
    ['FE90::1', 'link-local'],
    ['[fe90::1%25eth0]', 'link-local'],
  ])('refuses %s (%s)', (address, kind) => {
    const verdict = judgeAddress(address, []);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed ? '' : verdict.reason).toContain(kind);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    // Just outside the refused ranges.
    '1.0.0.1',
    '9.255.255.255',
    '11.0.0.1',
    '126.255.255.255',
    '128.0.0.1',
    '169.253.255.255',
    '172.15.255.255',
    '192.0.1.1',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '2001:200::1',
  ])('allows the public address %s', (address) => {
    expect(judgeAddress(address, [])).toEqual({ allowed: true });
  });

  it('exempts exactly the ranges the operator lists', () => {
    const allow = parseCidrList('127.0.0.1/32, 10.1.0.0/16, fd00::/8');
    expect(judgeAddress('127.0.0.1', allow).allowed).toBe(true);
    expect(judgeAddress('::ffff:127.0.0.1', allow).allowed).toBe(true);
    expect(judgeAddress('127.0.0.2', allow).allowed).toBe(false);
    expect(judgeAddress('10.1.200.3', allow).allowed).toBe(true);
    expect(judgeAddress('10.2.0.1', allow).allowed).toBe(false);
    expect(judgeAddress('fd00::5', allow).allowed).toBe(true);
    expect(judgeAddress('fc00::5', allow).allowed).toBe(false);
    expect(judgeAddress('::1', allow).allowed).toBe(false);
  });

  it('reads IPv6 literals the way they are written', () => {
    expect(toBigInt('::1', 6)).toBe(1n);
    expect(toBigInt('::ffff:1.2.3.4', 6)).toBe((0xffffn << 32n) + 0x01020304n);
    expect(toBigInt('2001:db8::8:1', 6)).toBe((0x20010db8n << 96n) + (8n << 16n) + 1n);
    expect(toBigInt('1:2:3:4:5:6:7:8', 6)).toBe(0x00010002000300040005000600070008n);
  });
});

describe('checkWebhookUrl (subscribe time)', () => {
  const refused = async (url: string, policy: AddressPolicy = nothingAllowed) => {
    const error = await checkWebhookUrl(url, policy).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error, url).toBeInstanceOf(BlockedAddressError);
    return (error as Error).message;
  };

  it('refuses the addresses the issue names, and a DNS name resolving to a private address', async () => {
    const policy: AddressPolicy = {
      allow: [],
      resolve: fixedResolver({ 'internal.example.test': ['10.20.30.40'] }),
    };
    for (const url of [
      'http://127.0.0.1/hook',
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:8080/hook',
      'http://[::ffff:192.168.0.1]/hook',
      'https://internal.example.test/hook',
      'http://0.1.2.3/hook',
      'http://[fe90::1]/hook',
      'http://[fec0::1]:8080/hook',
    ]) {
      await refused(url, policy);
    }
    expect(await refused('https://internal.example.test/hook', policy)).toContain('10.20.30.40');
  });

  it('accepts each of them once its range is exempt', async () => {
    const resolve = fixedResolver({ 'internal.example.test': ['10.20.30.40'] });
    const cases: [string, string][] = [
      ['http://127.0.0.1/hook', '127.0.0.1/32'],
      ['http://10.0.0.1/hook', '10.0.0.0/8'],
      ['http://169.254.169.254/latest/meta-data/', '169.254.0.0/16'],
      ['http://[::1]:8080/hook', '::1/128'],
      ['http://[::ffff:192.168.0.1]/hook', '192.168.0.0/16'],
      ['https://internal.example.test/hook', '10.20.30.0/24'],
    ];
    for (const [url, cidr] of cases) {
      await expect(checkWebhookUrl(url, { allow: parseCidrList(cidr), resolve })).resolves.toBeInstanceOf(
        URL,
      );
    }
    // An exemption covers its range only.
    await refused('http://127.0.0.2/hook', { allow: parseCidrList('127.0.0.1/32'), resolve });
    await refused('http://[::ffff:192.168.0.1]/hook', { allow: parseCidrList('10.0.0.0/8'), resolve });
    await refused('https://internal.example.test/hook', { allow: parseCidrList('10.20.31.0/24'), resolve });
  });

  it('refuses a name with any refused address among its answers', async () => {
    const policy: AddressPolicy = {
      allow: [],
      resolve: fixedResolver({ 'mixed.example.test': ['93.184.215.14', '192.168.1.9'] }),
    };
    expect(await refused('https://mixed.example.test/', policy)).toContain('192.168.1.9');
  });

  it('accepts a public name and refuses names that do not resolve', async () => {
    const policy: AddressPolicy = {
      allow: [],
      resolve: fixedResolver({ 'hooks.example.org': ['93.184.215.14'] }),
    };
    await expect(checkWebhookUrl('https://hooks.example.org/x?y=1', policy)).resolves.toBeInstanceOf(URL);
    expect(await refused('https://nowhere.example.org/', policy)).toContain('could not be resolved');
  });

  it('refuses other schemes, credentials and malformed URLs', async () => {
    expect(await refused('ftp://93.184.215.14/')).toContain('http');
    expect(await refused('file:///etc/passwd')).toContain('http');
    expect(await refused('https://user:pass@93.184.215.14/')).toContain('password');
    expect(await refused('not a url')).toContain('absolute URL');
    // WHATWG parsing turns numeric hosts into dotted addresses before they are judged.
    expect(await refused('http://2130706433/')).toContain('127.0.0.1');
    expect(await refused('http://0x7f.1/')).toContain('127.0.0.1');
  });
});

describe('DCLEDGER_WEBHOOK_ALLOW_CIDRS', () => {
  it('is empty by default and reads CIDRs and bare addresses', () => {
    expect(parseCidrList('')).toEqual([]);
    expect(parseCidrList(' 127.0.0.1/32 , ::1 ')).toEqual([
      { address: '127.0.0.1', prefix: 32, family: 4 },
      { address: '::1', prefix: 128, family: 6 },
    ]);
  });

  it.each(['10.0.0.0/33', 'fd00::/129', 'example.org/8', '10.0.0.0/x', '1.2.3.4/8/9'])(
    'refuses %s',
    (value) => {
      expect(() => parseCidrList(value)).toThrow(ConfigError);
    },
  );
});

describe('guardedLookup (the lookup a delivery socket connects through)', () => {
  const policy: AddressPolicy = {
    allow: [],
    resolve: fixedResolver({
      'both.example.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'v4only.example.test': ['93.184.216.34'],
      'v6only.example.test': ['2606:2800:220:1:248:1893:25c8:1946'],
      'mixed.example.test': ['93.184.216.34', '10.0.0.1'],
    }),
  };
  type Answer = { error: Error | null; address: unknown; family?: number };
  const lookup = (hostname: string, options: { family?: number; all?: boolean }) =>
    new Promise<Answer>((resolve) => {
      const callback = (error: Error | null, address: unknown, family?: number) =>
        resolve({ error, address, family });
      (guardedLookup(policy) as unknown as (h: string, o: object, c: typeof callback) => void)(
        hostname,
        options,
        callback,
      );
    });

  it('hands the socket the first judged address, of the family asked for', async () => {
    expect(await lookup('both.example.test', {})).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
    expect(await lookup('both.example.test', { family: 6 })).toEqual({
      error: null,
      address: '2606:2800:220:1:248:1893:25c8:1946',
      family: 6,
    });
    expect(await lookup('both.example.test', { family: 4 })).toMatchObject({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('answers every judged address of the family with all: true', async () => {
    expect((await lookup('both.example.test', { all: true })).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    expect((await lookup('both.example.test', { all: true, family: 6 })).address).toEqual([
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
  });

  it('refuses a host without an address of the family asked for, naming it', async () => {
    const answer = await lookup('v4only.example.test', { family: 6 });
    expect(answer.error).toBeInstanceOf(BlockedAddressError);
    expect(answer.error?.message).toContain('host v4only.example.test has no IPv6 address');
    expect(answer.address).toBe('');
    const v4 = await lookup('v6only.example.test', { family: 4 });
    expect(v4.error?.message).toBe('host v6only.example.test has no IPv4 address');
    expect(v4.family).toBe(0);
    // Family 0 (or any other number) asks for either family.
    expect(await lookup('v6only.example.test', { family: 0 })).toEqual({
      error: null,
      address: '2606:2800:220:1:248:1893:25c8:1946',
      family: 6,
    });
    expect((await lookup('both.example.test', { family: 5 })).address).toBe('93.184.216.34');
  });

  it('passes on the refusal of a host that resolves to a private address, and a name that does not resolve', async () => {
    const mixed = await lookup('mixed.example.test', {});
    expect(mixed.error).toBeInstanceOf(BlockedAddressError);
    expect(mixed.address).toBe('');
    const unknown = await lookup('nowhere.example.test', {});
    expect(unknown.error?.message).toMatch(/nowhere\.example\.test/);
  });
});

describe('the guard, rule by rule (stated for mutation testing)', () => {
  it.each([
    ['198.51.100.7', 'a documentation address'],
    ['203.0.113.9', 'a documentation address'],
    ['192.88.99.1', 'a 6to4 relay address'],
    ['64:ff9b:1::1', 'a local-use translation address'],
    ['2001::1', 'an IETF protocol assignment'],
    ['2001:1ff::1', 'an IETF protocol assignment'],
    ['3fff::1', 'a documentation address'],
    ['3fff:fff::1', 'a documentation address'],
    ['100::ffff:ffff:ffff:ffff', 'a discard-only address'],
    ['10.255.255.255', 'a private address'],
    ['fe80::1', 'a link-local address'],
  ])('names %s as %s, exactly', (address, reason) => {
    expect(judgeAddress(address, [])).toEqual({ allowed: false, reason: `${address} (${reason})` });
  });

  it.each([
    '198.51.101.1',
    '203.0.114.1',
    '192.88.98.255',
    '192.88.100.0',
    '64:ff9b:2::1',
    '3fff:1000::1',
    '100:0:0:1::1',
  ])('allows %s, just outside a refused range', (address) =>
    expect(judgeAddress(address, [])).toEqual({ allowed: true }),
  );

  it('judges a mapped or NAT64 address by the IPv4 address inside, and says so', () => {
    expect(judgeAddress('::ffff:a01:203', [])).toEqual({
      allowed: false,
      reason: '::ffff:a01:203 (which maps to 10.1.2.3 (a private address))',
    });
    expect(judgeAddress('[64:FF9B::C0A8:102]', [])).toEqual({
      allowed: false,
      reason: '64:ff9b::c0a8:102 (which maps to 192.168.1.2 (a private address))',
    });
    expect(judgeAddress('64:ff9b::808:808', [])).toEqual({ allowed: true });
    expect(judgeAddress('::ffff:c000:201', parseCidrList('192.0.2.0/24'))).toEqual({ allowed: true });
  });

  it('refuses what is not an IP literal, naming it as given', () => {
    expect(judgeAddress('example.org', [])).toEqual({
      allowed: false,
      reason: 'example.org (not an IP address)',
    });
    expect(judgeAddress('1.2.3', [])).toEqual({ allowed: false, reason: '1.2.3 (not an IP address)' });
    expect(judgeAddress('', [])).toEqual({ allowed: false, reason: ' (not an IP address)' });
  });

  it('an exemption applies to its own address family only', () => {
    expect(judgeAddress('::1', parseCidrList('0.0.0.0/0')).allowed).toBe(false);
    expect(judgeAddress('127.0.0.1', parseCidrList('::/0')).allowed).toBe(false);
    expect(judgeAddress('10.9.8.7', parseCidrList('0.0.0.0/0')).allowed).toBe(true);
    expect(judgeAddress('fd00::1', parseCidrList('::/0')).allowed).toBe(true);
    expect(judgeAddress('10.0.0.1', parseCidrList('10.0.0.1')).allowed).toBe(true);
    expect(judgeAddress('10.0.0.2', parseCidrList('10.0.0.1')).allowed).toBe(false);
  });

  it('reads every IPv6 spelling to the same number', () => {
    expect(toBigInt('::', 6)).toBe(0n);
    expect(toBigInt('1::', 6)).toBe(1n << 112n);
    expect(toBigInt('1:2::', 6)).toBe((1n << 112n) + (2n << 96n));
    expect(toBigInt('1::8', 6)).toBe((1n << 112n) + 8n);
    expect(toBigInt('::2:1', 6)).toBe((2n << 16n) + 1n);
    expect(toBigInt('1:0:0:0:0:0:0:1', 6)).toBe(toBigInt('1::1', 6));
    expect(toBigInt('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 6)).toBe((1n << 128n) - 1n);
    expect(toBigInt('::1.2.3.4', 6)).toBe(0x01020304n);
    expect(toBigInt('::ffff:255.255.0.1', 6)).toBe((0xffffn << 32n) + 0xffff0001n);
    expect(toBigInt('::ffff:10.20.30.40', 6)).toBe((0xffffn << 32n) + 0x0a141e28n);
    expect(toBigInt('64:ff9b::192.0.2.33', 6)).toBe((0x64n << 112n) + (0xff9bn << 96n) + 0xc0000221n);
    expect(toBigInt('1:2:3:4:5:6:1.2.3.4', 6)).toBe(0x00010002000300040005000601020304n);
    expect(toBigInt('10.1.2.3', 4)).toBe(0x0a010203n);
    expect(toBigInt('255.255.255.255', 4)).toBe(0xffffffffn);
  });

  it('says why a URL is refused, in words the subscriber can act on', async () => {
    const message = (url: string, policy: AddressPolicy = nothingAllowed) =>
      checkWebhookUrl(url, policy).then(
        () => 'accepted',
        (error: BlockedAddressError) => `${error.code}: ${error.message}`,
      );
    expect(await message('http://127.0.0.1/')).toBe(
      `EWEBHOOKBLOCKED: 127.0.0.1 (a loopback address) is not allowed; ${EXEMPTION_HINT}`,
    );
    expect(EXEMPTION_HINT).toContain('DCLEDGER_WEBHOOK_ALLOW_CIDRS');
    expect(await message('http://[::1]:8080/')).toBe(
      `EWEBHOOKBLOCKED: ::1 (a loopback address) is not allowed; ${EXEMPTION_HINT}`,
    );
    expect(await message('https://nowhere.example.org/')).toBe(
      'EWEBHOOKBLOCKED: host nowhere.example.org could not be resolved',
    );
    const resolve = fixedResolver({
      'empty.example.test': [],
      'lan.example.test': ['93.184.215.14', '192.168.1.9'],
    });
    expect(await message('https://empty.example.test/', { allow: [], resolve })).toBe(
      'EWEBHOOKBLOCKED: host empty.example.test has no address',
    );
    expect(await message('https://lan.example.test/', { allow: [], resolve })).toBe(
      `EWEBHOOKBLOCKED: host lan.example.test resolves to 192.168.1.9 (a private address), which is not allowed; ${EXEMPTION_HINT}`,
    );
    expect(await message('https://user@93.184.215.14/')).toBe(
      'EWEBHOOKBLOCKED: must not contain a user name or password',
    );
    expect(await message('https://:secret@93.184.215.14/')).toBe(
      'EWEBHOOKBLOCKED: must not contain a user name or password',
    );
    expect(await message('ws://93.184.215.14/')).toBe('EWEBHOOKBLOCKED: must use http or https');
    expect(await message('/relative')).toBe('EWEBHOOKBLOCKED: is not an absolute URL');
  });

  it(`accepts http and https URLs up to ${2048} characters, IPv6 literals included`, async () => {
    const base = 'https://93.184.215.14/';
    const exact = `${base}${'a'.repeat(2048 - base.length)}`;
    expect(exact).toHaveLength(2048);
    await expect(checkWebhookUrl(exact, nothingAllowed)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl(`${exact}a`, nothingAllowed)).rejects.toThrow(
      'is longer than 2048 characters',
    );
    await expect(checkWebhookUrl('http://93.184.215.14/hook', nothingAllowed)).resolves.toBeInstanceOf(URL);
    const v6 = await checkWebhookUrl('https://[2606:4700:4700::1111]:8443/x', nothingAllowed);
    expect(hostOf(v6)).toBe('2606:4700:4700::1111');
  });

  it('hands back the address it judged, with its family', async () => {
    expect(await resolveAllowed('93.184.215.14', nothingAllowed)).toEqual([
      { address: '93.184.215.14', family: 4 },
    ]);
    expect(await resolveAllowed('2606:4700:4700::1111', nothingAllowed)).toEqual([
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
    const resolve = fixedResolver({ 'two.example.test': ['93.184.215.14', '2606:4700:4700::1111'] });
    expect(await resolveAllowed('two.example.test', { allow: [], resolve })).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ]);
  });

  it('resolves names through the system resolver, every address of the name', async () => {
    const addresses = await systemResolver('localhost');
    expect(Array.isArray(addresses)).toBe(true);
    expect(addresses.length).toBeGreaterThan(0);
    for (const entry of addresses) expect([4, 6]).toContain(entry.family);
  });
});
