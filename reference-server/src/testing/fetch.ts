import { assertValidResponse } from './validate';

/**
 * A `fetch` that validates every response against spec/openapi.yaml before handing it back.
 * Pass it to the SDKs (`new Svc({ fetch: contractFetch })`) or call it directly in tests.
 */
export const contractFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const response = await fetch(request);
  const body = await response.clone().text();
  assertValidResponse({
    method: request.method,
    url: request.url,
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  });
  return response;
};
