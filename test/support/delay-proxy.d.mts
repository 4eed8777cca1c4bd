export interface DelayProxyOptions {
  /** Where to forward: a URL (its path is kept in the proxy's `url`) or a host/port. */
  target: string | { host?: string; port: number };
  /** Round-trip delay in ms (default 10): each chunk waits rttMs/2 each way; a new connection waits one RTT. */
  rttMs?: number;
  /** Terminate TLS on the client-facing side with a self-signed certificate made by openssl. */
  tls?: boolean;
}

export interface DelayProxy {
  /** http(s)://127.0.0.1:PORT + the target's path. */
  url: string;
  port: number;
  rttMs: number;
  /** Whether the client-facing side is TLS (false when TLS was asked for but could not be set up). */
  tls: boolean;
  /** The self-signed certificate (PEM) to trust, with TLS. */
  ca?: string;
  /** Why TLS was asked for and not set up (no openssl, …). */
  tlsSkipReason?: string;
  /** Client connections accepted. */
  connections(): number;
  close(): Promise<void>;
}

export function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy>;

/** A self-signed certificate for 127.0.0.1 made with openssl, or why it could not be made. */
export function makeSelfSignedCert(): { key: string; cert: string } | { error: string };
