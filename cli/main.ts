import { unknownOption } from './args.js';
import { closest } from './closest.js';
import { runLint } from './lint.js';
import { MAIN_USAGE } from './usage.js';
import { VERSION } from './version.js';

/** The commands, each loaded only when it runs (`lint` is the common one and is loaded with the CLI). */
const COMMANDS: Record<string, (argv: readonly string[]) => Promise<number>> = {
  lint: runLint,
  fix: async (argv) => (await import('./fix.js')).runFix(argv),
  serve: async (argv) => (await import('./serve.js')).runServe(argv),
  prove: async (argv) => (await import('./prove.js')).runProve(argv),
};

const MAIN_OPTIONS = { options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } } as const;

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return COMMANDS[command](rest);
  switch (command) {
    case '-h':
    case '--help':
      process.stdout.write(MAIN_USAGE);
      return 0;
    case '-v':
    case '--version':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case undefined:
      process.stderr.write(MAIN_USAGE);
      return 2;
    default: {
      const suggestion = closest(command, Object.keys(COMMANDS));
      const error = command.startsWith('-')
        ? unknownOption(command, MAIN_OPTIONS)
        : `unknown command '${command}'${suggestion ? ` (did you mean ${suggestion}?)` : ''}`;
      process.stderr.write(`drainguard: ${error}\nRun 'drainguard --help' for usage.\n`);
      return 2;
    }
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
