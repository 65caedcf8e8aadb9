import type { FastifyReply } from 'fastify';

/** An HTML page of the dashboard or sign-in: never cached (it may name the signed-in account). */
export function sendPage(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(body);
}
