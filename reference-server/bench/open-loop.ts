import http from 'node:http';

export interface OpenLoopRequest {
  path: string;
  headers: Record<string, string>;
  /** The n-th request's body, n counting from 0 in each run. */
  body: (n: number) => string;
  onResponse?: (status: number, body: string) => void;
}

export interface OpenLoopResult {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  non2xx: number;
}

/**
 * Sends `rate` POSTs a second for `seconds`, each at its due time whether or not earlier ones were answered (an open
 * loop, as real visitors arrive), and times each from its due time, so a request held up behind a slow one counts the
 * wait. autocannon's `overallRate` sends each second's requests in a burst instead, which measures the burst.
 */
export async function openLoop(url: string, rate: number, seconds: number, request: OpenLoopRequest): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(url);
  const total = Math.round(rate * seconds);
  const latencies: number[] = [];
  let non2xx = 0;
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const send = (n: number, due: number) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: request.path, method: 'POST', headers: request.headers, agent },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            latencies.push(performance.now() - due);
            if (res.statusCode === undefined || res.statusCode >= 300) non2xx++;
            request.onResponse?.(res.statusCode ?? 0, text);
            if (++answered === total) resolve();
          });
        },
      );
      req.once('error', reject);
      req.end(request.body(n));
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000));
      for (; sent < due; sent++) send(sent, start + (sent * 1000) / rate);
      if (sent < total) setTimeout(tick, 1);
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10;
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1), non2xx };
}
