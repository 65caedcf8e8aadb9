/**
 * POSTs JSON as a string body, which the browser labels `text/plain;charset=UTF-8`: a CORS simple request, so
 * no preflight (the spec accepts `text/plain` on click and lead). `keepalive` lets the request finish when the
 * page navigates away. Never rejects: a network failure answers status 0. Answers `[status, body]`.
 */
export async function postPlain(url: string, body: unknown): Promise<[status: number, body: unknown]> {
  try {
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(body), keepalive: true });
    return [response.status, await response.json().catch(() => undefined)];
  } catch (error) {
    return [0, { error: { message: String(error) } }];
  }
}
