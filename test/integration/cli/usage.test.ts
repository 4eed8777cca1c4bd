import { describe, expect, it } from 'vitest';
import packageJson from '../../../package.json' with { type: 'json' };
import { EARLY_CANCEL_JS } from '../../cli/sources.js';
import { runCli, tempProject } from '../../cli/helpers.js';

const LINT_HINT = "Run 'drainguard lint --help' for usage.\n";
const FIX_HINT = "Run 'drainguard fix --help' for usage.\n";
const MAIN_HINT = "Run 'drainguard --help' for usage.\n";

describe('drainguard usage errors and help', () => {
  const dir = tempProject({ 'stream.js': EARLY_CANCEL_JS });

  /** A usage error: exit 2, nothing on stdout, exactly `stderr` on stderr. */
  async function expectUsageError(args: string[], stderr: string): Promise<void> {
    expect(await runCli(args, dir), args.join(' ')).toEqual({ code: 2, stdout: '', stderr });
  }

  it('prints usage on stderr and exits 2 without a subcommand', async () => {
    const run = await runCli([], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('Usage: drainguard <command>');
  });

  it('names the closest command for a mistyped one, and says nothing when none is close', async () => {
    await expectUsageError(['lnit'], `drainguard: unknown command 'lnit' (did you mean lint?)\n${MAIN_HINT}`);
    await expectUsageError(['fxi', '.'], `drainguard: unknown command 'fxi' (did you mean fix?)\n${MAIN_HINT}`);
    await expectUsageError(['check'], `drainguard: unknown command 'check'\n${MAIN_HINT}`);
    await expectUsageError(['--verison'], `drainguard: unknown option '--verison' (did you mean --version?)\n${MAIN_HINT}`);
  });

  it('names the closest option for a mistyped lint option (exit 2, nothing linted)', async () => {
    await expectUsageError(['lint', '--fromat', 'json', '.'], `drainguard lint: unknown option '--fromat' (did you mean --format?)\n${LINT_HINT}`);
    await expectUsageError(['lint', '--type'], `drainguard lint: unknown option '--type' (did you mean --types?)\n${LINT_HINT}`);
    await expectUsageError(['lint', '--close-methods', 'stop'], `drainguard lint: unknown option '--close-methods' (did you mean --close-method?)\n${LINT_HINT}`);
    await expectUsageError(['lint', '--terminal', 'eos'], `drainguard lint: unknown option '--terminal' (did you mean --terminal-pattern?)\n${LINT_HINT}`);
    await expectUsageError(['lint', '--frobnicate'], `drainguard lint: unknown option '--frobnicate'\n${LINT_HINT}`);
    await expectUsageError(['lint', '-x'], `drainguard lint: unknown option '-x'\n${LINT_HINT}`);
    await expectUsageError(['lint', '--fix'], `drainguard lint: unknown option '--fix' (lint only reports: 'drainguard fix' rewrites the sites)\n${LINT_HINT}`);
  });

  it('names the closest option for a mistyped fix option (exit 2, nothing written)', async () => {
    await expectUsageError(['fix', '--dyr'], `drainguard fix: unknown option '--dyr' (did you mean --dry?)\n${FIX_HINT}`);
    await expectUsageError(['fix', '--drain-timeout', '5'], `drainguard fix: unknown option '--drain-timeout' (did you mean --drain-timeout-ms?)\n${FIX_HINT}`);
    await expectUsageError(['fix', '--frobnicate'], `drainguard fix: unknown option '--frobnicate'\n${FIX_HINT}`);
  });

  it('says when an option lacks its value or takes none', async () => {
    await expectUsageError(['lint', '--format'], `drainguard lint: option '--format' needs a value\n${LINT_HINT}`);
    await expectUsageError(['lint', '-f', '--types'], `drainguard lint: option '-f' needs a value\n${LINT_HINT}`);
    await expectUsageError(['lint', '--types=yes'], `drainguard lint: option '--types' takes no value, got 'yes'\n${LINT_HINT}`);
    await expectUsageError(['fix', '--close-method'], `drainguard fix: option '--close-method' needs a value\n${FIX_HINT}`);
  });

  it('rejects an unknown format with exit 2', async () => {
    await expectUsageError(['lint', '--format', 'xml'], `drainguard lint: unknown format 'xml' (use stylish, json or sarif)\n${LINT_HINT}`);
  });

  it('checks the rule options the same way in lint and fix', async () => {
    for (const command of ['lint', 'fix']) {
      const hint = command === 'lint' ? LINT_HINT : FIX_HINT;
      await expectUsageError(
        [command, '--terminal-pattern', '(eos'],
        `drainguard ${command}: --terminal-pattern '(eos' is not a regular expression: Invalid regular expression: /(eos/i: Unterminated group\n${hint}`,
      );
      await expectUsageError([command, '--terminal-pattern='], `drainguard ${command}: --terminal-pattern needs a non-empty regular expression (an empty one matches every name).\n${hint}`);
      await expectUsageError([command, '--close-method', 'reader.cancel'], `drainguard ${command}: --close-method takes a method name such as 'cancel', got 'reader.cancel'.\n${hint}`);
    }
  });

  it('prints help on stdout with --help and -h (exit 0)', async () => {
    for (const args of [['--help'], ['-h'], ['lint', '--help'], ['lint', '-h'], ['fix', '-h']]) {
      const run = await runCli(args, dir);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: drainguard');
    }
    const lintHelp = await runCli(['lint', '--help'], dir);
    for (const option of ['--format', '--types', '--terminal-pattern', '--close-method', '--no-color']) expect(lintHelp.stdout).toContain(option);
  });

  it('prints the package version with --version and -v, for every command', async () => {
    const runs = [[], ['lint'], ['fix'], ['serve'], ['prove']].flatMap((command) => ['--version', '-v'].map((flag) => [...command, flag]));
    for (const [args, run] of await Promise.all(runs.map(async (args) => [args, await runCli(args, dir)] as const))) {
      expect(run, args.join(' ')).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    }
  });

  it("lists -h, --help and -v, --version in every command's help", async () => {
    const commands = [[], ['lint'], ['fix'], ['serve'], ['prove']];
    const helps = await Promise.all(commands.map((command) => runCli([...command, '--help'], dir)));
    for (const [i, command] of commands.entries()) {
      const lines = helps[i].stdout.split('\n');
      expect(lines.filter((line) => /^ {2}-h, --help +show this help$/.test(line)), command.join(' ')).toHaveLength(1);
      expect(lines.filter((line) => /^ {2}-v, --version +print the version$/.test(line)), command.join(' ')).toHaveLength(1);
    }
  });

  it('drainguard help [command] prints the same help as --help, on stdout (exit 0)', async () => {
    const main = await runCli(['--help'], dir);
    expect(await runCli(['help'], dir)).toEqual({ code: 0, stdout: main.stdout, stderr: '' });
    expect(main.stdout).toContain('\n  help [command]    show this help, or the options of a command\n');
    await Promise.all(
      ['lint', 'fix', 'serve', 'prove'].map(async (command) => {
        const [own, viaHelp] = await Promise.all([runCli([command, '--help'], dir), runCli(['help', command], dir)]);
        expect(own.stdout.startsWith(`Usage: drainguard ${command} `)).toBe(true);
        expect(viaHelp, command).toEqual({ code: 0, stdout: own.stdout, stderr: '' });
      }),
    );
    expect(await runCli(['help', 'help'], dir)).toEqual({ code: 0, stdout: main.stdout, stderr: '' });
  });

  it('drainguard help with an unknown command or too many words is a usage error', async () => {
    await expectUsageError(['help', 'lnit'], `drainguard: unknown command 'lnit' (did you mean lint?)\n${MAIN_HINT}`);
    await expectUsageError(['help', 'lint', 'fix'], `drainguard help: takes one command, got 'fix' after 'lint'\n${MAIN_HINT}`);
    await expectUsageError(['hepl'], `drainguard: unknown command 'hepl' (did you mean help?)\n${MAIN_HINT}`);
  });

  it('rejects a missing path with exit 2, names it, and lints nothing', async () => {
    await expectUsageError(['lint', '--format', 'json', 'stream.js', 'no/such/dir'], 'drainguard lint: no such file or directory: no/such/dir\n');
  });
});
