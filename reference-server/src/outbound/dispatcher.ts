import { attemptDelivery, claimDue, pruneFinished, type DeliveryContext } from '../domain/webhooks/deliver';

export interface DispatcherLog {
  debug(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface DispatcherOptions {
  /** How often due deliveries are looked for; `wake()` looks at once. */
  pollMs?: number;
  /** Attempts on their way at once, per process. */
  maxInFlight?: number;
  /** How often (server clock) finished deliveries past their retention are pruned. */
  pruneEveryMs?: number;
}

/**
 * The delivery loop of outbound webhooks, one per server process (started when the app is ready, stopped when it
 * closes): every `pollMs` it claims due deliveries from the outbox and sends them, without waiting for slow
 * endpoints before claiming more (spec/openapi.yaml, tag `outbound-webhooks`, "Delivery": first attempt within about
 * 2 seconds). What is due follows the server's clock, so moving the test-control clock sends due retries on the
 * next poll. Nothing here holds state a restart needs: the outbox and its leases are in the database.
 */
export class WebhookDispatcher {
  private readonly pollMs: number;
  private readonly maxInFlight: number;
  private readonly pruneEveryMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private tick: Promise<void> | undefined;
  private again = false;
  /**
   * One controller per attempt, aborted by `stop()`: a signal shared by every attempt would collect a listener per
   * attempt on its way (past 10, Node warns of a leak).
   */
  private readonly aborts = new Set<AbortController>();
  private readonly inFlight = new Set<Promise<void>>();
  private lastPruneAt: number | undefined;

  constructor(
    private readonly deps: DeliveryContext,
    private readonly log: DispatcherLog,
    options: DispatcherOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.maxInFlight = options.maxInFlight ?? 16;
    this.pruneEveryMs = options.pruneEveryMs ?? 3_600_000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Looks for due deliveries now (a test event was queued, the clock moved). */
  wake(): void {
    if (!this.running) return;
    if (this.tick) this.again = true;
    else this.schedule(0);
  }

  /** Stops claiming; attempts on their way are abandoned and their deliveries given back for the next start. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    for (const abort of this.aborts) abort.abort();
    await this.tick;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.tick = this.poll().finally(() => {
        this.tick = undefined;
        if (!this.running) return;
        const next = this.again ? 0 : this.pollMs;
        this.again = false;
        this.schedule(next);
      });
    }, ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      await this.pruneNowAndThen();
      const room = this.maxInFlight - this.inFlight.size;
      if (room <= 0 || !this.running) return;
      const claimed = await claimDue(this.deps, room);
      for (const delivery of claimed) {
        const abort = new AbortController();
        // Stopped while claiming: the attempt starts aborted and gives its delivery back.
        if (!this.running) abort.abort();
        this.aborts.add(abort);
        const attempt = attemptDelivery(this.deps, delivery, abort.signal)
          .then((result) => {
            if (result && !result.delivered) {
              // Ids only: the URL may carry a token and the headers a signature.
              this.log.warn(
                { webhook_id: delivery.message_id, delivery_id: delivery.id, attempt: delivery.attempts + 1, error: result.error },
                'webhook attempt failed',
              );
            }
          })
          .catch((error: unknown) => this.log.error({ err: error, delivery_id: delivery.id }, 'webhook attempt could not be recorded'))
          .finally(() => {
            this.inFlight.delete(attempt);
            this.aborts.delete(abort);
          });
        this.inFlight.add(attempt);
      }
    } catch (error) {
      if (this.running) this.log.error({ err: error }, 'webhook delivery loop failed; retrying');
    }
  }

  private async pruneNowAndThen(): Promise<void> {
    const now = this.deps.clock.now();
    if (this.lastPruneAt !== undefined && now - this.lastPruneAt < this.pruneEveryMs && now >= this.lastPruneAt) return;
    this.lastPruneAt = now;
    await pruneFinished(this.deps);
  }
}
