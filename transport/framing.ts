// Whether the rest of a response can be read to its end with the connection still reusable afterwards: an
// HTTP/1.1 body delimited by chunked framing or a Content-Length. What is not (a body delimited by the close
// of the connection, `Connection: close`, a response without a body, HTTP/2) is left to the abort as before.
type Headers = Record<string, string | string[] | undefined>;

/** The header's values joined by commas, lowercased ('' when absent). */
function header(headers: Headers, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value.join(',') : value ?? '').toLowerCase();
}

export interface Framing {
  /** The rest of the body can be read to its end on a connection that stays reusable. */
  reusable: boolean;
  /** The body's length when a Content-Length gives it. */
  contentLength?: number;
}

const NOT_REUSABLE: Framing = { reusable: false };

/**
 * HTTP/2 is told apart without a look at the socket, which an interceptor does not get: undici hands an HTTP/2
 * response over with an empty status message and HTTP/2 has no Transfer-Encoding, while an HTTP/1.1 server sends a
 * reason phrase (`200 OK`). A Content-Length body with an empty reason phrase is therefore left alone too.
 */
export function responseFraming(method: string, statusCode: number, headers: Headers, statusMessage: string | undefined): Framing {
  if (method === 'HEAD' || statusCode === 204 || statusCode === 304) return NOT_REUSABLE;
  if (header(headers, 'connection').split(',').some((token) => token.trim() === 'close')) return NOT_REUSABLE;
  const codings = header(headers, 'transfer-encoding');
  if (codings !== '') return { reusable: codings.split(',').at(-1)?.trim() === 'chunked' };
  const length = header(headers, 'content-length');
  if (!/^\d+$/.test(length) || !statusMessage) return NOT_REUSABLE;
  return { reusable: true, contentLength: Number(length) };
}
