import { isIP } from 'node:net';
import { ConfigError } from '../config-error';

/**
 * Which `X-Forwarded-For` hops are the operator's own proxies: a hop count, or their addresses / CIDRs (also
 * `loopback`, `linklocal`, `uniquelocal`). Never "every hop": the leftmost entries are whatever the client wrote,
 * so trusting them let one client pose as any number of addresses and defeat every per-IP limit.
 */
export type TrustProxy = number | readonly string[];

const namedRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: unset, empty or `0` trusts no proxy; a positive integer is that many hops (`1` = one proxy in
 * front, e.g. nginx, Caddy, a cloud load balancer); otherwise a comma-separated list of proxy addresses or CIDRs.
 * `true` is refused because it would trust every hop.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === '0') return 0;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError(`TRUST_PROXY: "${entry}" is neither a hop count nor a proxy address or CIDR (e.g. 1, or 10.0.0.0/8,::1)`);
    }
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (namedRanges.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d+$/.test(bits) && Number(bits) <= max;
}

/**
 * The Fastify `trustProxy` option; `true` (programmatic) is one hop. A hop count becomes a function: Fastify's own
 * numeric option trusts no hop at all, which behind a proxy put every client in the proxy's one bucket.
 */
export function fastifyTrustProxy(trust: TrustProxy | boolean | undefined): false | string[] | ((address: string, hop: number) => boolean) {
  const hops = trust === true ? 1 : trust;
  if (hops === undefined || hops === false || hops === 0) return false;
  if (typeof hops === 'number') return (_address, hop) => hop < hops;
  return [...hops];
}
