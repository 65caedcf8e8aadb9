import type { Clock } from '../clock';
import { systemClock } from '../clock';
import type { Store } from '../store/db';
import { WebhookDispatcher, type DispatcherLog } from './dispatcher';
import { httpSender } from './http-sender';

/** The outbound webhooks of one server process: the address guard's setting and the delivery loop over `store`. */
export function outboundWebhooks(options: {
  store: Store;
  /** The server's clock (the retry schedule); attempts are stamped with the real time. */
  clock: Clock;
  allowPrivateAddresses: boolean;
  serverKey: () => Promise<string>;
  log: DispatcherLog;
}): { allowPrivateAddresses: boolean; dispatcher: WebhookDispatcher } {
  const { store, allowPrivateAddresses } = options;
  const dispatcher = new WebhookDispatcher(
    {
      db: store.db,
      dialect: store.dialect,
      clock: options.clock,
      realClock: systemClock,
      serverKey: options.serverKey,
      send: httpSender({ allowPrivateAddresses, log: options.log }),
    },
    options.log,
  );
  return { allowPrivateAddresses, dispatcher };
}
