// `drainguard serve`: drainguard/testing's stream server on 127.0.0.1 for tests in any language. The
// first line of stdout is its URL; the counts are JSON at <url>/__drainguard/stats. It runs until
// SIGINT or SIGTERM.
import { startStreamServer } from '../../testing/stream-server.js';
import { errorCode } from '../shared/errors.js';
import { parseServeArgs } from './args.js';
import { catchStopSignals } from './stop-signals.js';
import { SERVE_USAGE } from '../shared/usage.js';
import { VERSION } from '../shared/version.js';

/** `drainguard serve`: 0 stopped by a signal, 1 could not listen, 2 usage error. */
export async function runServe(argv: readonly string[]): Promise<number> {
  void catchStopSignals();
  const parsed = parseServeArgs(argv, process.cwd());
  if (!parsed.ok) {
    process.stderr.write(`drainguard serve: ${parsed.error}\nRun 'drainguard serve --help' for usage.\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(SERVE_USAGE);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  let server;
  try {
    server = await startStreamServer(args.server);
  } catch (error) {
    const reason = errorCode(error) ?? (error instanceof Error ? error.message : String(error));
    process.stderr.write(`drainguard serve: cannot listen on 127.0.0.1:${args.server.port ?? 0}: ${reason}\n`);
    return 1;
  }
  process.stdout.write(`${server.origin}\n`);
  process.stderr.write(`drainguard serve: ${server.format} bodies, '${server.mode}' after the terminal event; counts at ${server.statsUrl}\n`);
  // Caught since the CLI started (cli/bin.ts): a signal that came while the server started ends it here, at once.
  const signal = await catchStopSignals();
  const stats = server.stats();
  await server.close();
  process.stderr.write(`drainguard serve: stopped (${signal}): ${JSON.stringify(stats)}\n`);
  // Exit now, with the signal handlers still in place: a process left to end by itself closes them while it tears down,
  // and a second signal then (a test runner's SIGTERM after its SIGINT) sometimes ended it by that signal under load.
  // stderr and stdout are pipes or files here, which Node writes synchronously.
  process.exit(0);
}
