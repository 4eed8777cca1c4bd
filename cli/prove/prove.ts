// `drainguard prove -- <command>`: runs the user's command once per server mode (its calls go to the
// URL in DRAINGUARD_URL, DRAINGUARD_CALLS of them) and prints what the server saw: connections for N
// calls, how soon the calls came back from silent, trickling and flooding bodies, and what a reset did.
import { parseProveArgs } from './args.js';
import { jsonReport, markdownReport, runSucceeded, textReport, type ProveReport } from './report.js';
import { CommandNotStarted, runMode, type ModeRun, type RunVariant } from './run.js';
import { PROVE_USAGE } from '../shared/usage.js';
import { VERSION } from '../shared/version.js';

/** `drainguard prove`: 0 every run exited 0, 1 some run failed or was killed at the time limit, 2 usage error or a command that cannot start. */
export async function runProve(argv: readonly string[]): Promise<number> {
  const parsed = parseProveArgs(argv, process.cwd());
  if (!parsed.ok) {
    process.stderr.write(`drainguard prove: ${parsed.error}\nRun 'drainguard prove --help' for usage.\n`);
    return 2;
  }
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(PROVE_USAGE);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // --transport: each mode as it is, then with drainguard/undici installed by `--import` (the package's own
  // installer module, found through the package's exports like any importer would).
  const variants: RunVariant[] = args.transport ? [{}, { transportImport: import.meta.resolve('drainguard/undici/register') }] : [{}];
  const runs: ModeRun[] = [];
  for (const mode of args.modes) {
    for (const variant of variants) {
      if (process.stderr.isTTY) process.stderr.write(`drainguard prove: running against '${mode}'${variant.transportImport ? ' with drainguard/undici' : ''}…\n`);
      try {
        runs.push(await runMode(mode, args, variant));
      } catch (error) {
        if (!(error instanceof CommandNotStarted)) throw error;
        process.stderr.write(`drainguard prove: ${error.message}\n`);
        return 2;
      }
    }
  }
  const report: ProveReport = { command: args.command, calls: args.calls, timeoutMs: args.timeoutMs, server: args.server, transport: args.transport, runs };
  const print = { text: textReport, markdown: markdownReport, json: jsonReport }[args.output];
  process.stdout.write(print(report));
  return runs.every(runSucceeded) ? 0 : 1;
}
