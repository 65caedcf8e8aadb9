import Fastify from 'fastify';
import { bodyLimitBytes } from '../src/http/body-parsers';

/**
 * The baseline: a bare Fastify route that parses the same JSON body (same size limit) and answers a constant.
 * Run as its own process, like the server, so both pay the same process and socket costs.
 */
const app = Fastify({ logger: false, bodyLimit: bodyLimitBytes });
const constant = { success: true, click_id: 'clk_constant', cookie_window_days: 60 };
app.post('/bare', async (request) => {
  if (typeof request.body !== 'object' || request.body === null) throw new Error('no body');
  return constant;
});
const port = Number(process.env.PORT ?? 8788);
await app.listen({ port, host: '127.0.0.1' });
console.log(`listening on http://127.0.0.1:${port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
