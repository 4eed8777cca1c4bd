// The streaming test server: every request (any method, any path outside /__drainguard/) gets a
// scripted body, events then the terminal event, and after it what `mode` says (options.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startCountingServer, type CountingServer, type ResponseControl } from './counting-server.js';
import { CONTENT_TYPES, DEFAULT_TAIL, TRICKLE, endlessLineChunk, floodChunk, frame, generatedEvent, terminalFrame, type BodyFormat } from './frames.js';
import {
  DEFAULT_TAIL_DELAY_MS,
  DEFAULT_TRICKLE_INTERVAL_MS,
  streamServerOptionsError,
  type AfterTerminal,
  type StreamServerOptions,
} from './options.js';

export interface StreamServer extends CountingServer {
  readonly mode: AfterTerminal;
  readonly format: BodyFormat;
}

/** The JSON-RPC id and progress token of a POSTed JSON-RPC request (1 and 1 when there is none). */
function rpcRequest(body: Buffer): { id: string | number; progressToken: string | number } {
  const found = { id: 1 as string | number, progressToken: 1 as string | number };
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return found;
    const { id, params } = parsed as { id?: unknown; params?: { _meta?: { progressToken?: unknown } } };
    if (typeof id === 'number' || typeof id === 'string') found.id = id;
    const token = params?._meta?.progressToken;
    if (typeof token === 'number' || typeof token === 'string') found.progressToken = token;
  } catch {
    // not JSON: answer id 1
  }
  return found;
}

export async function startStreamServer(options: StreamServerOptions = {}): Promise<StreamServer> {
  const problem = streamServerOptionsError(options);
  if (problem) throw new TypeError(`startStreamServer: ${problem}`);
  const {
    mode = 'end',
    format = 'sse',
    events = 3,
    terminal,
    tail = DEFAULT_TAIL[format],
    tailDelayMs = DEFAULT_TAIL_DELAY_MS,
    eventDelayMs = 0,
    trickleIntervalMs = DEFAULT_TRICKLE_INTERVAL_MS,
    floodBytes = 64 * 1024 * 1024,
    holdMaxMs = 120_000,
    keepAliveTimeoutMs,
    port,
  } = options;
  const eventCount = typeof events === 'number' ? events : events.length;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
    return timer;
  };
  const every = (ms: number, fn: () => void): NodeJS.Timeout => {
    const timer = setInterval(fn, ms);
    timers.add(timer);
    return timer;
  };
  const stop = (timer: NodeJS.Timeout): void => {
    clearTimeout(timer);
    timers.delete(timer);
  };

  /** Writes filler (comment lines, or one endless line) while the client reads it, up to floodBytes. */
  const flood = (res: ServerResponse, endless: boolean): void => {
    let sent = 0;
    const pump = (): void => {
      while (!res.destroyed && sent < floodBytes) {
        const chunk = endless ? endlessLineChunk(format, sent === 0) : floodChunk(format);
        const piece = sent + chunk.length <= floodBytes ? chunk : chunk.slice(0, floodBytes - sent);
        sent += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  };

  /** What follows the terminal event. */
  const afterTerminal = (res: ServerResponse, control: ResponseControl): void => {
    if (mode === 'end') {
      later(tailDelayMs, () => {
        if (res.destroyed) return;
        if (tail) res.write(tail);
        res.end();
      });
      return;
    }
    if (mode === 'reset') {
      later(tailDelayMs, () => {
        control.expire();
        res.socket?.resetAndDestroy();
      });
      return;
    }
    const bound = later(holdMaxMs, () => {
      control.expire();
      res.destroy();
    });
    const trickle = mode === 'trickle' ? every(trickleIntervalMs, () => res.write(TRICKLE[format])) : undefined;
    res.on('close', () => {
      stop(bound);
      if (trickle) stop(trickle);
    });
    if (mode === 'flood' || mode === 'endless') flood(res, mode === 'endless');
  };

  const handle = (req: IncomingMessage, res: ServerResponse, control: ResponseControl): void => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      if (res.destroyed) return;
      const rpc = format === 'jsonrpc' ? rpcRequest(Buffer.concat(body)) : { id: 1, progressToken: 1 };
      res.writeHead(200, { 'content-type': CONTENT_TYPES[format], 'cache-control': 'no-cache' });
      let i = 0;
      const step = (): void => {
        if (res.destroyed) return;
        while (i < eventCount) {
          res.write(frame(format, typeof events === 'number' ? generatedEvent(format, i, eventCount, rpc.progressToken) : events[i]));
          i++;
          if (eventDelayMs > 0) {
            later(eventDelayMs, step);
            return;
          }
        }
        res.write(terminalFrame(format, terminal, rpc.id));
        control.markTerminal();
        afterTerminal(res, control);
      };
      step();
    });
  };

  const server = await startCountingServer({
    name: 'drainguard stream server',
    keepAliveTimeoutMs,
    port,
    handle,
    onClose() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  });
  return { ...server, mode, format };
}
