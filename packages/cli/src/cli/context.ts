import { Svc } from '@svc/server';
import { printableClient } from '../client/printable-client';
import { rotationNotice } from '../client/warnings';
import { configPath } from '../config/paths';
import type { Output } from '../output/output';

/** What every command gets: the resolved global options, the output and a client factory. */
export interface Context {
  baseUrl: string;
  output: Output;
  env: Record<string, string | undefined>;
  configPath: string;
  /** A client of `@svc/server` (with the program key for `status` and `test`), its server text printable. */
  client(apiKey?: string): Svc;
}

export function createContext(options: { baseUrl: string; output: Output; env: Record<string, string | undefined> }): Context {
  const onWarning = rotationNotice(options.output);
  return {
    ...options,
    configPath: configPath(options.env),
    // `apiKey: ''` keeps a stray SVC_API_KEY off the login-token and login routes.
    client: (apiKey = '') => printableClient(new Svc({ baseUrl: options.baseUrl, apiKey, onWarning })),
  };
}
