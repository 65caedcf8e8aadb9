import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error';
import { readServerArgs } from './server-args';

describe('svc-reference-server command line', () => {
  it('--help and -h ask for help (nothing starts)', () => {
    expect(readServerArgs(['--help'], {})).toEqual({ help: true });
    expect(readServerArgs(['-h'], {})).toEqual({ help: true });
  });

  it('--port and --host override PORT and HOST', () => {
    expect(readServerArgs(['--port', '9000', '--host', '0.0.0.0'], { PORT: '1', HOST: 'x' })).toEqual({
      help: false,
      env: { PORT: '9000', HOST: '0.0.0.0' },
    });
    expect(readServerArgs([], { PORT: '1' })).toEqual({ help: false, env: { PORT: '1' } });
  });

  it('reads the flags after a leading -- (pnpm serve -- --port 9000)', () => {
    expect(readServerArgs(['--', '--port', '9000'], {})).toEqual({ help: false, env: { PORT: '9000' } });
    expect(readServerArgs(['--', '--help'], {})).toEqual({ help: true });
  });

  it('refuses an unknown flag and a port that is not a number', () => {
    expect(() => readServerArgs(['--prot', '1'], {})).toThrow(/Unknown option '--prot'/);
    expect(() => readServerArgs(['--prot', '1'], {})).toThrow(ConfigError);
    expect(() => readServerArgs(['--port', 'abc'], {})).toThrow(ConfigError);
    expect(() => readServerArgs(['--port', 'abc'], {})).toThrow('--port must be a port number, got abc');
  });
});
