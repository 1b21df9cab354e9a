// The address this service publishes for itself (/v1/tools `base_url`): the configured public URL
// (DCLEDGER_PUBLIC_URL), else the address it listens on. Never the Host header: a client could
// make a public, cacheable answer point agents (and their keys) at any host it likes.
import type { AddressInfo } from 'node:net';

const WILDCARD = new Set(['0.0.0.0', '::', '']);

export function listeningUrl(address: AddressInfo | string | null): string {
  if (address === null || typeof address === 'string') return 'http://localhost';
  const host = WILDCARD.has(address.address)
    ? 'localhost'
    : address.family === 'IPv6'
      ? `[${address.address}]`
      : address.address;
  return `http://${host}:${address.port}`;
}

export function serviceBaseUrl(publicUrl: string | undefined, address: AddressInfo | string | null): string {
  return publicUrl ?? listeningUrl(address);
}
