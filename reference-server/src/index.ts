export { buildApp, type AppOptions } from './app';
export { startReferenceServer, type ReferenceServer, type StartOptions } from './start';
export { openStore, type Store } from './store/db';
export { ControllableClock, systemClock, type Clock } from './clock';
export type { ControlClient } from './testing/control-client';
