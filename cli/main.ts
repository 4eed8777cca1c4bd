import { unknownOption } from './shared/args.js';
import { closest } from './shared/closest.js';
import { runLint } from './lint/lint.js';
import { FIX_USAGE, LINT_USAGE, MAIN_USAGE, PROVE_USAGE, SERVE_USAGE } from './shared/usage.js';
import { VERSION } from './shared/version.js';

/** The commands, each loaded only when it runs (`lint` is the common one and is loaded with the CLI). */
const COMMANDS: Record<string, (argv: readonly string[]) => Promise<number>> = {
  lint: runLint,
  fix: async (argv) => (await import('./fix/fix.js')).runFix(argv),
  serve: async (argv) => (await import('./serve/serve.js')).runServe(argv),
  prove: async (argv) => (await import('./prove/prove.js')).runProve(argv),
};

const MAIN_OPTIONS = { options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } } as const;

/** The usage text of each command, for `drainguard help <command>`. */
const USAGES: Record<string, string> = { lint: LINT_USAGE, fix: FIX_USAGE, serve: SERVE_USAGE, prove: PROVE_USAGE, help: MAIN_USAGE };

function unknownCommand(command: string): number {
  const suggestion = closest(command, [...Object.keys(COMMANDS), 'help']);
  process.stderr.write(`drainguard: unknown command '${command}'${suggestion ? ` (did you mean ${suggestion}?)` : ''}\nRun 'drainguard --help' for usage.\n`);
  return 2;
}

/** `drainguard help [command]`: the usage of drainguard, or of one command (as `drainguard <command> --help`). */
function help(args: readonly string[]): number {
  const [topic, ...extra] = args;
  if (topic === undefined) {
    process.stdout.write(MAIN_USAGE);
    return 0;
  }
  if (!Object.hasOwn(USAGES, topic)) return unknownCommand(topic);
  if (extra.length > 0) {
    process.stderr.write(`drainguard help: takes one command, got '${extra[0]}' after '${topic}'\nRun 'drainguard --help' for usage.\n`);
    return 2;
  }
  process.stdout.write(USAGES[topic]);
  return 0;
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== undefined && Object.hasOwn(COMMANDS, command)) return COMMANDS[command](rest);
  switch (command) {
    case 'help':
      return help(rest);
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
    default:
      if (!command.startsWith('-')) return unknownCommand(command);
      process.stderr.write(`drainguard: ${unknownOption(command, MAIN_OPTIONS)}\nRun 'drainguard --help' for usage.\n`);
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
