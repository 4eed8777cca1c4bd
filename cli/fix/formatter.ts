import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { packagePrettierKey } from '../../rules/fix/style.js';

/** A formatter a repository configures, with the arguments that format standard input as `file` would be. */
interface Formatter {
  name: string;
  bin: string;
  args: (file: string) => string[];
  /** The command that formats files in place (what the report tells a maintainer to run). */
  write: string[];
  configs: readonly string[];
}

const FORMATTERS: readonly Formatter[] = [
  {
    name: 'prettier',
    bin: 'prettier',
    args: (file) => ['--stdin-filepath', file],
    write: ['--write'],
    configs: ['.prettierrc', '.prettierrc.json', '.prettierrc.json5', '.prettierrc.yaml', '.prettierrc.yml', '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs', 'prettier.config.js', 'prettier.config.cjs', 'prettier.config.mjs'],
  },
  { name: 'biome', bin: 'biome', args: (file) => ['format', `--stdin-file-path=${file}`], write: ['format', '--write'], configs: ['biome.json', 'biome.jsonc'] },
  { name: 'oxfmt', bin: 'oxfmt', args: (file) => [`--stdin-filepath=${file}`], write: [], configs: ['.oxfmtrc.json', '.oxfmtrc.jsonc', 'oxfmt.config.ts', 'oxfmt.config.js', 'oxfmt.config.mjs'] },
];

const TIMEOUT_MS = 30_000;

/** The formatter whose configuration is nearest to a file (up to the work tree's top): where it is configured, and its binary where it is installed. */
interface FormatterAt {
  formatter: Formatter;
  /** The configuration file (`package.json` for a `prettier` key). */
  config: string;
  /** `node_modules/.bin/<name>` in the configuration's directory or above it; null where it is not installed. */
  bin: string | null;
  cwd: string;
}

/**
 * A repository's formatter that `fix` could not run: its configuration cannot be loaded (a TypeScript config under a
 * Node.js that cannot import it, a syntax error, a missing plugin), it is not installed, or it failed on a file.
 */
export interface FormatProblem {
  formatter: string;
  /** The configuration file. */
  config: string;
  reason: string;
  /** What formats files in place, to be followed by their paths: `node_modules/.bin/oxfmt`, `… prettier --write`. */
  command: string[];
}

const found = new Map<string, FormatterAt | null>();

/** The formatter configured for a JavaScript or TypeScript file (looked up once per directory); null for other files. */
function formatterFor(file: string): FormatterAt | null {
  if (!/\.[cm]?[jt]sx?$/i.test(file)) return null;
  const dir = path.dirname(path.resolve(file));
  let formatter = found.get(dir);
  if (formatter === undefined) {
    formatter = formatterIn(dir);
    found.set(dir, formatter);
  }
  return formatter;
}

function formatterIn(start: string): FormatterAt | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    for (const formatter of FORMATTERS) {
      const config = formatter.configs.find((name) => existsSync(path.join(dir, name)));
      if (config) return { formatter, config: path.join(dir, config), bin: installedBin(dir, formatter.bin), cwd: dir };
    }
    if (packagePrettierKey(dir) !== undefined) return { formatter: FORMATTERS[0], config: path.join(dir, 'package.json'), bin: installedBin(dir, 'prettier'), cwd: dir };
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return null;
  }
}

/** `node_modules/.bin/<name>` in `dir` or a directory above it (a monorepo installs at its root). */
function installedBin(dir: string, name: string): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    const bin = path.join(current, 'node_modules', '.bin', name);
    if (existsSync(bin)) return bin;
    if (path.dirname(current) === current) return null;
  }
}

type RunResult = { ok: true; stdout: string } | { ok: false; reason: string };

function run(bin: string, args: string[], cwd: string, input: string, signal?: AbortSignal): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = execFile(bin, args, { cwd, timeout: TIMEOUT_MS, maxBuffer: 1 << 28, encoding: 'utf8', signal }, (error, stdout, stderr) => {
      if (!error) resolve({ ok: true, stdout });
      else resolve({ ok: false, reason: failureOf(error, stderr || stdout) });
    });
    child.stdin?.on('error', () => {});
    child.stdin?.end(input);
  });
}

/**
 * What a formatter's failure says: its own message, on one line (without colour, prettier's `[error]` prefixes, stack
 * frames and the caret under a quoted line), else how it ended.
 */
function failureOf(error: Error & { code?: unknown; killed?: boolean }, output: string): string {
  // A formatter colours its message where the environment asks for colour (FORCE_COLOR in CI); the report keeps words only.
  const said = stripVTControlCharacters(output)
    .split(/\r?\n/)
    .map((line) => line.replace(/^\[(?:error|warn)\]\s?/, '').trim())
    .filter((line) => line !== '' && !/^at\s/.test(line) && !/^\^+$/.test(line))
    .join(' ');
  if (said) return said.length > 600 ? `${said.slice(0, 600)}…` : said;
  if (error.killed) return `no answer within ${TIMEOUT_MS / 1000} s`;
  return typeof error.code === 'number' ? `exit ${error.code}` : error.message;
}

/** Per configuration: whether its formatter runs here (null) or what stops it, found by formatting an empty text. */
const states = new Map<string, Promise<FormatProblem | null>>();

function stateOf(found: FormatterAt, file: string, signal?: AbortSignal): Promise<FormatProblem | null> {
  let state = states.get(found.config);
  if (!state) {
    state = probe(found, file, signal);
    states.set(found.config, state);
  }
  return state;
}

async function probe(found: FormatterAt, file: string, signal?: AbortSignal): Promise<FormatProblem | null> {
  const { formatter, bin, config, cwd } = found;
  const command = [...(bin ? [path.relative(process.cwd(), bin) || bin] : ['npx', formatter.bin]), ...formatter.write];
  if (!bin) return { formatter: formatter.name, config, reason: `${formatter.name} is not installed here (no node_modules/.bin/${formatter.bin})`, command };
  const result = await run(bin, formatter.args(file), cwd, '', signal);
  return result.ok ? null : { formatter: formatter.name, config, reason: `${formatter.name} cannot load its configuration: ${result.reason}`, command };
}

/**
 * Whether the repository configures a formatter for `file` that cannot run here, and why (checked once per
 * configuration): then the text is laid out from what the configuration states and the file shows, and the report
 * says to run the formatter. Null where there is none or it runs.
 */
export async function formatterProblem(file: string, signal?: AbortSignal): Promise<FormatProblem | null> {
  const found = formatterFor(file);
  return found ? stateOf(found, file, signal) : null;
}

/**
 * The rewritten text formatted with the repository's own formatter (prettier, biome or oxfmt, as configured and
 * installed there), so that the touched lines read as the rest of the file. Only where the file was already as its
 * formatter writes it: then formatting changes nothing but the touched lines; otherwise the text as drainguard laid it
 * out (in the style the settings and the file show), on purpose. Where the formatter cannot run (its configuration
 * cannot be loaded, it is not installed, it fails on the file), the text as drainguard laid it out and the problem.
 */
export async function formatRewrite(file: string, before: string | null, after: string, signal?: AbortSignal): Promise<{ text: string; formatter: string | null; problem?: FormatProblem }> {
  const found = formatterFor(file);
  if (!found) return { text: after, formatter: null };
  const broken = await stateOf(found, file, signal);
  if (broken) return { text: after, formatter: null, problem: broken };
  const { formatter, bin, cwd, config } = found;
  const args = formatter.args(file);
  const command = [path.relative(process.cwd(), bin!) || bin!, ...formatter.write];
  if (before !== null) {
    const old = await run(bin!, args, cwd, before, signal);
    if (!old.ok) return { text: after, formatter: null, problem: { formatter: formatter.name, config, reason: `${formatter.name} failed on the file: ${old.reason}`, command } };
    if (old.stdout !== before) return { text: after, formatter: null };
  }
  const formatted = await run(bin!, args, cwd, after, signal);
  if (!formatted.ok) return { text: after, formatter: null, problem: { formatter: formatter.name, config, reason: `${formatter.name} failed on the rewritten file: ${formatted.reason}`, command } };
  return { text: formatted.stdout, formatter: formatter.name };
}
