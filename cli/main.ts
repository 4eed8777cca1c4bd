import { runLint } from './lint.js';
import { MAIN_USAGE } from './usage.js';
import { VERSION } from './version.js';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'lint':
      return runLint(rest);
    case 'fix': {
      const { runFix } = await import('./fix.js');
      return runFix(rest);
    }
    case 'serve': {
      const { runServe } = await import('./serve.js');
      return runServe(rest);
    }
    case 'prove': {
      const { runProve } = await import('./prove.js');
      return runProve(rest);
    }
    case '-h':
    case '--help':
      process.stdout.write(MAIN_USAGE);
      return 0;
    case '--version':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case undefined:
      process.stderr.write(MAIN_USAGE);
      return 2;
    default:
      process.stderr.write(`drainguard: unknown command '${command}'\n\n${MAIN_USAGE}`);
      return 2;
  }
}

// A reader that stops early (`drainguard fix --dry --print | head`) closes the pipe: end quietly, with the exit
// status a shell gives a process ended by SIGPIPE, instead of an unhandled EPIPE error and its stack trace.
export const CLOSED_PIPE_EXIT_CODE = 141;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(CLOSED_PIPE_EXIT_CODE);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`drainguard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
