import type { Clock } from '../clock';
import { systemClock } from '../clock';
import { defaultLeaseMs } from '../domain/webhooks/deliver';
import type { Store } from '../store/db';
import { WebhookDispatcher, type DispatcherLog } from './dispatcher';
import { attemptTimeoutMs, httpSender } from './http-sender';

/** The outbound webhooks of one server process: the address guard's setting and the delivery loop over `store`. */
export function outboundWebhooks(options: {
  store: Store;
  /** The server's clock (the retry schedule); attempts are stamped with the real time. */
  clock: Clock;
  allowPrivateAddresses: boolean;
  serverKey: () => Promise<string>;
  log: DispatcherLog;
  /** How long a claim holds a delivery; 30 s by default. */
  leaseMs?: number | undefined;
}): { allowPrivateAddresses: boolean; dispatcher: WebhookDispatcher } {
  const { store, allowPrivateAddresses } = options;
  const leaseMs = options.leaseMs ?? defaultLeaseMs;
  // An attempt must end well inside its lease, or a second server could claim and send it while it is on its way.
  const timeoutMs = Math.min(attemptTimeoutMs, Math.floor(leaseMs / 3));
  const dispatcher = new WebhookDispatcher(
    {
      db: store.db,
      dialect: store.dialect,
      clock: options.clock,
      realClock: systemClock,
      serverKey: options.serverKey,
      send: httpSender({ allowPrivateAddresses, log: options.log, timeoutMs }),
      leaseMs,
    },
    options.log,
  );
  return { allowPrivateAddresses, dispatcher };
}
