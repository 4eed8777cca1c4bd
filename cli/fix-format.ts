import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packagePrettierKey } from '../rules/fix/style.js';

/** A formatter a repository configures, with the arguments that format standard input as `file` would be. */
interface Formatter {
  name: string;
  bin: string;
  args: (file: string) => string[];
  configs: readonly string[];
}

const FORMATTERS: readonly Formatter[] = [
  {
    name: 'prettier',
    bin: 'prettier',
    args: (file) => ['--stdin-filepath', file],
    configs: ['.prettierrc', '.prettierrc.json', '.prettierrc.json5', '.prettierrc.yaml', '.prettierrc.yml', '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs', 'prettier.config.js', 'prettier.config.cjs', 'prettier.config.mjs'],
  },
  { name: 'biome', bin: 'biome', args: (file) => ['format', `--stdin-file-path=${file}`], configs: ['biome.json', 'biome.jsonc'] },
  { name: 'oxfmt', bin: 'oxfmt', args: (file) => [`--stdin-filepath=${file}`], configs: ['.oxfmtrc.json', '.oxfmtrc.jsonc', 'oxfmt.config.ts', 'oxfmt.config.js', 'oxfmt.config.mjs'] },
];

const TIMEOUT_MS = 30_000;

/** The formatter whose configuration is nearest to `file` (up to the work tree's top), where it is installed there. */
function formatterFor(file: string): { formatter: Formatter; bin: string; cwd: string } | null {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const formatter = FORMATTERS.find((candidate) => candidate.configs.some((config) => existsSync(path.join(dir, config)))) ?? (hasPrettierKey(dir) ? FORMATTERS[0] : undefined);
    if (formatter) {
      const bin = installedBin(dir, formatter.bin);
      return bin ? { formatter, bin, cwd: dir } : null;
    }
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return null;
  }
}

function hasPrettierKey(dir: string): boolean {
  return packagePrettierKey(dir) !== undefined;
}

/** `node_modules/.bin/<name>` in `dir` or a directory above it (a monorepo installs at its root). */
function installedBin(dir: string, name: string): string | null {
  for (let current = dir; ; current = path.dirname(current)) {
    const bin = path.join(current, 'node_modules', '.bin', name);
    if (existsSync(bin)) return bin;
    if (path.dirname(current) === current) return null;
  }
}

function run(bin: string, args: string[], cwd: string, input: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = execFile(bin, args, { cwd, timeout: TIMEOUT_MS, maxBuffer: 1 << 28, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : stdout));
    child.stdin?.end(input);
  });
}

/**
 * The rewritten text formatted with the repository's own formatter (prettier, biome or oxfmt, as configured and
 * installed there), so that the touched lines read as the rest of the file. Only where the file was already as its
 * formatter writes it: then formatting changes nothing but the touched lines. Otherwise, or where no formatter is
 * installed or it fails, the text as drainguard laid it out (in the style the settings and the file show).
 */
export async function formatRewrite(file: string, before: string | null, after: string): Promise<{ text: string; formatter: string | null }> {
  const found = formatterFor(file);
  if (!found) return { text: after, formatter: null };
  const { formatter, bin, cwd } = found;
  const args = formatter.args(file);
  if (before !== null && (await run(bin, args, cwd, before)) !== before) return { text: after, formatter: null };
  const formatted = await run(bin, args, cwd, after);
  return formatted === null ? { text: after, formatter: null } : { text: formatted, formatter: formatter.name };
}
