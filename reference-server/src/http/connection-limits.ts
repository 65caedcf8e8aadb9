import { ConfigError } from '../config-error';

/**
 * Limits on connections and slow clients. Without them a client trickling a body (or holding idle sockets) kept
 * a socket and a file descriptor forever: enough of them and nothing, `/healthz` included, was answered.
 */
export interface ConnectionLimits {
  /** Whole request (headers and body) must arrive within it, else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** A socket with no activity for this long is closed. */
  connectionTimeoutMs: number;
  /** An idle keep-alive connection is kept this long: above a proxy's own idle timeout (AWS ALB: 60 s). */
  keepAliveTimeoutMs: number;
  /** Connections past this many are closed on arrival (keep it below the process's file-descriptor limit). */
  maxConnections: number;
}

export const defaultConnectionLimits: ConnectionLimits = {
  requestTimeoutMs: 30_000,
  connectionTimeoutMs: 75_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 1_000,
};

/** `SVC_REQUEST_TIMEOUT_MS`, `SVC_CONNECTION_TIMEOUT_MS`, `SVC_KEEP_ALIVE_TIMEOUT_MS`, `SVC_MAX_CONNECTIONS`. */
export function readConnectionLimits(env: NodeJS.ProcessEnv): ConnectionLimits {
  const read = (name: string, fallback: number) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
    return Number(value);
  };
  const d = defaultConnectionLimits;
  return {
    requestTimeoutMs: read('SVC_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
    connectionTimeoutMs: read('SVC_CONNECTION_TIMEOUT_MS', d.connectionTimeoutMs),
    keepAliveTimeoutMs: read('SVC_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs),
    maxConnections: read('SVC_MAX_CONNECTIONS', d.maxConnections),
  };
}
