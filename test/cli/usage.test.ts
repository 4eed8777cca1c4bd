import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { EARLY_CANCEL_JS } from './sources.js';
import { runCli, tempProject } from './helpers.js';

describe('drainguard usage errors and help', () => {
  const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });

  it('prints usage on stderr and exits 2 without a subcommand', async () => {
    const run = await runCli([], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: drainguard <command>');
  });

  it('rejects an unknown subcommand with exit 2, naming it', async () => {
    const run = await runCli(['lnit'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown command 'lnit'");
    expect(run.stderr).toContain('Usage: drainguard <command>');
  });

  it('prints help on stdout with --help and -h (exit 0)', async () => {
    for (const args of [['--help'], ['-h'], ['lint', '--help'], ['lint', '-h']]) {
      const run = await runCli(args, dir);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: drainguard');
    }
    const lintHelp = await runCli(['lint', '--help'], dir);
    expect(lintHelp.stdout).toContain('--format');
    expect(lintHelp.stdout).toContain('--types');
  });

  it('prints the package version with --version', async () => {
    for (const args of [['--version'], ['lint', '--version']]) {
      const run = await runCli(args, dir);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`${packageJson.version}\n`);
    }
  });

  it('rejects an unknown flag with a message on stderr and exit 2, linting nothing', async () => {
    const run = await runCli(['lint', '--fromat', 'json', '.'], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("Unknown option '--fromat'");
    expect(run.stderr).toContain('drainguard lint --help');
  });

  it('rejects an unknown format with exit 2', async () => {
    const run = await runCli(['lint', '--format', 'xml'], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("Unknown format 'xml'");
  });

  it('rejects a missing path with exit 2, names it, and lints nothing', async () => {
    const run = await runCli(['lint', '--format', 'json', 'stream.js', 'no/such/dir'], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('no/such/dir');
  });
});
