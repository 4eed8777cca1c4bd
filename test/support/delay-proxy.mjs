// A TCP proxy on 127.0.0.1 that injects a round-trip delay between a client and a server, optionally
// terminating TLS on its client-facing side. Plain ESM with a .d.mts beside it.
//
// Model: every chunk, in each direction, is delayed by rttMs/2, in order (Node's timers of one
// duration fire in creation order, and half-closes and resets are queued behind the data). A new
// connection also waits one full RTT before anything flows, which is what the TCP handshake costs a
// real client before its first byte can reach the server. With `tls: true` the delay sits below TLS
// (client ⇄ delay ⇄ TLS terminator ⇄ server), so the TLS handshake round trips pay the RTT too.
//
// The TLS certificate is self-signed, made at startup with the `openssl` binary (Node has no API to
// make an X.509 certificate and no package that does is a dependency). Without openssl the proxy
// starts without TLS and says why in `tlsSkipReason`.
import net from 'node:net';
import tls from 'node:tls';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Make a self-signed certificate for 127.0.0.1 with openssl.
 * @returns {{ key: string, cert: string } | { error: string }}
 */
export function makeSelfSignedCert() {
  const dir = mkdtempSync(join(tmpdir(), 'drainguard-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
        '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1',
        '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch (err) {
    const e = /** @type {NodeJS.ErrnoException & { stderr?: Buffer }} */ (err);
    if (e.code === 'ENOENT') return { error: 'openssl is not installed (needed to make a self-signed certificate)' };
    return { error: `openssl failed: ${(e.stderr?.toString() || e.message).trim().split('\n')[0]}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Pipe `from` into `to` with every chunk, the end and a reset delayed by `delayMs`, in order.
 * @param {net.Socket} from
 * @param {net.Socket} to
 * @param {(fn: () => void) => void} schedule runs fn after the one-way delay, in call order
 */
function delayedPipe(from, to, schedule) {
  from.on('data', (chunk) => {
    schedule(() => {
      if (!to.destroyed) to.write(chunk);
    });
  });
  from.on('end', () => {
    schedule(() => {
      if (!to.destroyed) to.end();
    });
  });
  from.on('close', () => {
    // A reset (or a close after both halves ended): pass it on once the data before it went through.
    schedule(() => {
      if (!to.destroyed && (!to.writableEnded || from.errored)) to.destroy();
    });
  });
  from.on('error', () => {});
}

/**
 * @param {import('./delay-proxy.d.mts').DelayProxyOptions} options
 * @returns {Promise<import('./delay-proxy.d.mts').DelayProxy>}
 */
export async function startDelayProxy(options) {
  const { rttMs = 10, tls: wantTls = false } = options;
  const target = typeof options.target === 'string' ? new URL(options.target) : null;
  const targetPort = target ? Number(target.port) : /** @type {{ port: number }} */ (options.target).port;
  const targetHost = target ? target.hostname : (/** @type {{ host?: string }} */ (options.target).host ?? '127.0.0.1');
  const half = rttMs / 2;

  /** @type {Set<NodeJS.Timeout>} */
  const timers = new Set();
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  let connections = 0;
  let closed = false;

  const track = (/** @type {net.Socket} */ s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    return s;
  };
  /** @param {number} ms @param {() => void} fn */
  const after = (ms, fn) => {
    if (closed) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  // The TLS terminator (only with tls): plaintext from it goes straight to the target.
  /** @type {tls.Server | undefined} */
  let tlsServer;
  /** @type {string | undefined} */
  let ca;
  /** @type {string | undefined} */
  let tlsSkipReason;
  let innerPort = targetPort;
  let innerHost = targetHost;
  if (wantTls) {
    const made = makeSelfSignedCert();
    if ('error' in made) {
      tlsSkipReason = made.error;
    } else {
      ca = made.cert;
      const terminator = tls.createServer({ key: made.key, cert: made.cert, noDelay: true }, (secure) => {
        track(secure);
        const upstream = track(net.connect(targetPort, targetHost));
        upstream.setNoDelay(true);
        secure.pipe(upstream);
        upstream.pipe(secure);
        secure.on('close', () => upstream.destroy());
        upstream.on('close', () => secure.destroy());
      });
      terminator.on('tlsClientError', () => {});
      await new Promise((resolve, reject) => {
        terminator.once('error', reject);
        terminator.listen(0, '127.0.0.1', () => resolve(undefined));
      });
      tlsServer = terminator;
      innerPort = /** @type {net.AddressInfo} */ (terminator.address()).port;
      innerHost = '127.0.0.1';
    }
  }

  const server = net.createServer({ noDelay: true }, (client) => {
    connections++;
    track(client);
    client.setNoDelay(true);
    client.pause();
    // The handshake: one RTT before the client's first byte may travel.
    after(rttMs, () => {
      if (client.destroyed) return;
      const upstream = track(net.connect(innerPort, innerHost));
      upstream.setNoDelay(true);
      if (half <= 0) {
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      } else {
        /** @param {() => void} fn */
        const schedule = (fn) => after(half, fn);
        delayedPipe(client, upstream, schedule);
        delayedPipe(upstream, client, schedule);
      }
      client.resume();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const port = /** @type {net.AddressInfo} */ (server.address()).port;
  const useTls = tlsServer !== undefined;
  const path = target ? `${target.pathname}${target.search}` : '/';

  return {
    url: `${useTls ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    port,
    rttMs,
    tls: useTls,
    ca,
    tlsSkipReason,
    connections: () => connections,
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const done = [new Promise((resolve) => server.close(() => resolve(undefined)))];
      if (tlsServer) {
        const t = tlsServer;
        done.push(new Promise((resolve) => t.close(() => resolve(undefined))));
      }
      for (const s of sockets) s.destroy();
      await Promise.all(done);
    },
  };
}
