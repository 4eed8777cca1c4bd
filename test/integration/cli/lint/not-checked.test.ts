// Files drainguard cannot check (unreadable, over the size limit, binary, UTF-16, not UTF-8) end no run: each is a fatal
// result that says why, at the offending byte, and every other file keeps its result, through every engine.
import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sarifValidator } from '../../../cli/sarif-schema.js';
import { DRAINED_JS, EARLY_CANCEL_JS } from '../../../cli/sources.js';
import { CLI, ROOT, RULE_ID, parseFixJson, runCli, tempProject, writeFiles } from '../../../cli/helpers.js';

const ENGINES = ['native', 'eslint', 'oxlint'] as const;

const EARLY_PYTHON = readFileSync(new URL('../../../../fixtures/python/02-aconnect-sse-break/input.py', import.meta.url), 'utf8');
/** EARLY_CANCEL_JS with 200 lines of comments after it: 2,535 bytes, over the limit the tests set (1,000). */
const BUNDLE_JS = `${EARLY_CANCEL_JS}${'// padding\n'.repeat(200)}`;

/**
 * A tree with one good file and one of each kind drainguard cannot check, every one holding an early close (so the
 * pre-filter keeps it), and a latin-1 file without one (the pre-filter rules it out: clean, as a syntax error there
 * would go unseen). `loop.js` is a symbolic link to itself, named on the command line (the walk does not follow links).
 */
function mixedTree(): string {
  const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'src/bundle.js': BUNDLE_JS, 'src/binary.js': `const header = '\0';\n${EARLY_CANCEL_JS}` });
  writeFileSync(path.join(dir, 'src/latin1.js'), Buffer.from(`// café\n${EARLY_CANCEL_JS}`, 'latin1'));
  writeFileSync(path.join(dir, 'src/clean-latin1.js'), Buffer.from('// café\nexport const x = 1;\n', 'latin1'));
  writeFileSync(path.join(dir, 'src/utf16.js'), Buffer.from(`\uFEFF${EARLY_CANCEL_JS}`, 'utf16le'));
  writeFiles(dir, { 'pkg/.keep': '' });
  writeFileSync(path.join(dir, 'pkg/latin1.py'), Buffer.from(`# café\n${EARLY_PYTHON}`, 'latin1'));
  symlinkSync('loop.js', path.join(dir, 'loop.js'));
  return dir;
}

const LIMIT = { DRAINGUARD_MAX_FILE_BYTES: '1000' };

const STYLISH = `
<dir>/loop.js
  0:0  error  Cannot read file: ELOOP: too many symbolic links encountered, open '<dir>/loop.js'

<dir>/pkg/latin1.py
  1:6  error  File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)

<dir>/src/binary.js
  1:17  error  File not checked: a binary file (it holds a NUL byte)

<dir>/src/bundle.js
  0:0  error  File not checked: 2535 bytes, over the 1000 bytes limit for one file (DRAINGUARD_MAX_FILE_BYTES sets it)

<dir>/src/latin1.js
  1:7  error  File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)

<dir>/src/stream.js
  9:13  error  \`reader\` is closed with \`cancel()\` after the terminal event \`text.includes('[DONE]')\` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (\`drainguard fix\`)  drainguard/no-early-stream-close

<dir>/src/utf16.js
  1:1  error  File not checked: UTF-16 text (byte order mark FF FE), not UTF-8

✖ 7 problems (7 errors, 0 warnings)
`;

/** The fatal message of each file not checked, as `--format json` gives it. */
const fatal = (message: string, line: number, column: number) => [{ ruleId: null, fatal: true, severity: 2, message, line, column }];
const JSON_MESSAGES = {
  'loop.js': fatal("Cannot read file: ELOOP: too many symbolic links encountered, open '<dir>/loop.js'", 0, 0),
  'pkg/latin1.py': fatal('File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)', 1, 6),
  'src/binary.js': fatal('File not checked: a binary file (it holds a NUL byte)', 1, 17),
  'src/bundle.js': fatal('File not checked: 2535 bytes, over the 1000 bytes limit for one file (DRAINGUARD_MAX_FILE_BYTES sets it)', 0, 0),
  'src/clean-latin1.js': [],
  'src/latin1.js': fatal('File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)', 1, 7),
  'src/stream.js': [RULE_ID],
  'src/utf16.js': fatal('File not checked: UTF-16 text (byte order mark FF FE), not UTF-8', 1, 1),
};

/** What --format json and --format sarif print on stderr: the files not checked, one line each. */
const NOT_CHECKED_STDERR = `drainguard lint: loop.js: Cannot read file: ELOOP: too many symbolic links encountered, open '<dir>/loop.js'
drainguard lint: pkg/latin1.py: File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)
drainguard lint: src/binary.js: File not checked: a binary file (it holds a NUL byte)
drainguard lint: src/bundle.js: File not checked: 2535 bytes, over the 1000 bytes limit for one file (DRAINGUARD_MAX_FILE_BYTES sets it)
drainguard lint: src/latin1.js: File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)
drainguard lint: src/utf16.js: File not checked: UTF-16 text (byte order mark FF FE), not UTF-8
`;

interface SarifNotification {
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region?: Record<string, number> } }[];
  descriptor: { id: string; index: number };
}

const notification = (uri: string, text: string, region?: { startLine: number; startColumn: number }): SarifNotification => ({
  level: 'error',
  message: { text },
  locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, ...(region ? { region } : {}) } }],
  descriptor: { id: 'drainguard/file-not-checked', index: 0 },
});

const SARIF_NOTIFICATIONS = [
  notification('loop.js', "Cannot read file: ELOOP: too many symbolic links encountered, open '<dir>/loop.js'"),
  notification('pkg/latin1.py', 'File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)', { startLine: 1, startColumn: 6 }),
  notification('src/binary.js', 'File not checked: a binary file (it holds a NUL byte)', { startLine: 1, startColumn: 17 }),
  notification('src/bundle.js', 'File not checked: 2535 bytes, over the 1000 bytes limit for one file (DRAINGUARD_MAX_FILE_BYTES sets it)'),
  notification('src/latin1.js', 'File not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8)', { startLine: 1, startColumn: 7 }),
  notification('src/utf16.js', 'File not checked: UTF-16 text (byte order mark FF FE), not UTF-8', { startLine: 1, startColumn: 1 }),
];

describe.each(ENGINES)('drainguard lint with DRAINGUARD_ENGINE=%s on files it cannot check', (engine) => {
  const env = { ...LIMIT, DRAINGUARD_ENGINE: engine };

  it('reports each with its reason and place, lints the others, and exits 1 (stylish)', async () => {
    const dir = mixedTree();
    const run = await runCli(['lint', '.', 'loop.js'], dir, env);
    expect(run.code).toBe(1);
    expect(run.stdout.replaceAll(dir, '<dir>')).toBe(STYLISH);
    expect(run.stderr).toBe('drainguard lint: 8 files found, 1 parsed, 1 early close, 6 files not checked.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n');
  });

  it('gives each a fatal message in ESLint JSON', async () => {
    const dir = mixedTree();
    const run = await runCli(['lint', '--format', 'json', '.', 'loop.js'], dir, env);
    expect(run.code).toBe(1);
    const results = JSON.parse(run.stdout.replaceAll(dir, '<dir>')) as { filePath: string; messages: { ruleId: string | null }[]; errorCount: number; fatalErrorCount: number }[];
    const byFile = Object.fromEntries(
      results.map((result) => [path.relative('<dir>', result.filePath), result.messages.map((message) => (message.ruleId === RULE_ID ? RULE_ID : message))]),
    );
    expect(byFile).toEqual(JSON_MESSAGES);
    expect(results.map((result) => result.fatalErrorCount)).toEqual([1, 1, 1, 1, 0, 1, 0, 1]);
    expect(run.stderr.replaceAll(dir, '<dir>')).toBe(NOT_CHECKED_STDERR);
  });

  it('gives each a SARIF tool execution notification with a help link, and the early close as a result', async () => {
    const dir = mixedTree();
    const run = await runCli(['lint', '--format', 'sarif', '.', 'loop.js'], dir, env);
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as {
      runs: {
        tool: { driver: { rules: { id: string; helpUri?: string }[]; notifications: { id: string; helpUri?: string }[] } };
        invocations: { executionSuccessful: boolean; toolExecutionNotifications: SarifNotification[] }[];
        results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
      }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const [sarifRun] = log.runs;
    expect(JSON.parse(JSON.stringify(sarifRun.invocations).replaceAll(dir, '<dir>'))).toEqual([{ executionSuccessful: true, toolExecutionNotifications: SARIF_NOTIFICATIONS }]);
    expect(sarifRun.tool.driver.notifications).toEqual([
      {
        id: 'drainguard/file-not-checked',
        shortDescription: { text: 'The file could not be read, or is too large, binary or not UTF-8 text, so it was not checked' },
        helpUri: 'https://github.com/drainguard/drainguard/blob/main/docs/cli.md#files-that-cannot-be-checked',
      },
    ]);
    expect(sarifRun.results.map((result) => [result.ruleId, result.locations[0].physicalLocation.artifactLocation.uri])).toEqual([[RULE_ID, 'src/stream.js']]);
    expect(run.stderr.replaceAll(dir, '<dir>')).toBe(NOT_CHECKED_STDERR);
  });
});

describe('drainguard lint on a non-UTF-8 file among enough code for oxlint (engine auto)', () => {
  it('reports the 368 KB latin-1 file in SARIF, with the early close found beside it (never an empty file)', async () => {
    // The tree: 368 KB of latin-1 JavaScript that holds closes, an early close, and 140 KB of clean code that
    // can hold one (so the pre-filter keeps it and the text to parse makes oxlint the cheaper engine).
    let latin1 = '// Copyright © Société Générale\n';
    for (let i = 0; latin1.length < 368 * 1024; i++) latin1 += `export async function f${i}(res) { const r = res.body.getReader(); /* déjà */ r.cancel(); }\n`;
    let clean = '';
    for (let i = 0; clean.length < 140 * 1024; i++) clean += DRAINED_JS.replace('readAll', `readAll${i}`);
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'src/clean.js': clean });
    writeFileSync(path.join(dir, 'vendor.js'), Buffer.from(latin1, 'latin1'));
    // The SARIF the GitHub Actions recipe uploads: the notification and the result, never an empty file.
    const log = path.join(dir, 'processes.jsonl');
    const preload = { NODE_OPTIONS: `--require ${path.join(ROOT, 'test/support/report-loaded.cjs')}`, DRAINGUARD_LOADED_LOG: log };
    const sarif = await runCli(['lint', '--format', 'sarif', 'src', 'vendor.js'], dir, { DRAINGUARD_ENGINE: undefined, ...preload });
    expect(sarif.code, sarif.stderr).toBe(1);
    // oxlint ran: its process left a record (the launcher runs oxlint's bin as its script, cli/engines/oxlint-launcher.ts).
    expect(readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => path.basename((JSON.parse(line) as { script: string }).script))).toContain('oxlint');
    expect(sarif.stderr).toBe('drainguard lint: vendor.js: File not checked: not UTF-8 text (byte 0xA9 is not valid UTF-8)\n');
    const [sarifRun] = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string }[]; invocations: { toolExecutionNotifications: unknown[] }[] }[] }).runs;
    expect(sarifRun.results.map((result) => result.ruleId)).toEqual([RULE_ID]);
    expect(sarifRun.invocations[0].toolExecutionNotifications).toHaveLength(1);
  });
});

describe('the size limit under a small heap', () => {
  it("is a 128th of Node's heap limit, and the message says so", async () => {
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'src/big.js': `${EARLY_CANCEL_JS}${'// padding\n'.repeat(300_000)}` });
    const run = await runCli(['lint', '--format', 'json'], dir, { NODE_OPTIONS: '--max-old-space-size=256', DRAINGUARD_MAX_FILE_BYTES: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^drainguard lint: src\/big\.js: File not checked: 3\.1 MiB, over the \d\.\d MiB limit for one file \(lowered by Node's small heap limit; DRAINGUARD_MAX_FILE_BYTES sets it\)\n$/);
  });
});

describe('drainguard fix on files it cannot check', () => {
  it('leaves a latin-1 file byte for byte (no lossy decode written back), reports it, and fixes the others (exit 1)', async () => {
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS });
    const latin1 = Buffer.from(`// café\n${EARLY_CANCEL_JS}`, 'latin1');
    writeFileSync(path.join(dir, 'src/latin1.js'), latin1);
    const run = await runCli(['fix', '--json', 'src'], dir);
    expect(run.code).toBe(1);
    const { files, summary } = parseFixJson(run);
    expect(files.map(({ path: file, changed, sites, error }) => ({ file: path.relative(dir, file), changed, sites: sites.map((site) => site.status), error }))).toEqual([
      { file: 'src/drain-body.js', changed: true, sites: [], error: undefined },
      { file: 'src/drain-body.test.js', changed: true, sites: [], error: undefined },
      { file: 'src/latin1.js', changed: false, sites: [], error: 'not checked: not UTF-8 text (byte 0xE9 is not valid UTF-8) at line 1, column 7' },
      { file: 'src/stream.js', changed: true, sites: ['fixed'], error: undefined },
    ]);
    expect(summary).toEqual({ filesScanned: 2, sitesFound: 1, fixed: 1, manual: 0, errors: 1 });
    expect(readFileSync(path.join(dir, 'src/latin1.js'))).toEqual(latin1);
  });
});

/**
 * The CLI as a user who may not read what the test locked: the test's own user, or, for root (who reads anything),
 * `nobody` through util-linux's runuser.
 */
const root = process.getuid?.() === 0;
const runuser = root ? spawnSync('runuser', ['--help'], { stdio: 'ignore' }).status === 0 : false;
const cannotLock = root && !runuser ? ' (skipped: run as root, which reads anything, and runuser is not installed)' : '';
function runLocked(args: string[], dir: string): Promise<{ code: number; stderr: string }> {
  if (!root) return runCli(args, dir);
  chmodSync(dir, 0o755); // mkdtemp's 0700 would lock out nobody from everything
  return new Promise((resolve) => {
    execFile('runuser', ['-u', 'nobody', '--', process.execPath, CLI, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } }, (error, _stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stderr });
    });
  });
}

describe('drainguard lint on a file or directory it may not read', () => {
  it.skipIf(cannotLock !== '')(`reports the file and lints the others${cannotLock}`, async () => {
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'src/secret.js': EARLY_CANCEL_JS });
    chmodSync(path.join(dir, 'src/secret.js'), 0);
    const run = await runLocked(['lint', '--format', 'json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr.replaceAll(dir, '<dir>')).toBe("drainguard lint: src/secret.js: Cannot read file: EACCES: permission denied, open '<dir>/src/secret.js'\n");
  });

  it.skipIf(cannotLock !== '')(`names a directory it cannot read on stderr, lints the rest, and exits 1 even when they are clean${cannotLock}`, async () => {
    const dir = tempProject({ 'src/stream.js': EARLY_CANCEL_JS, 'locked/stream.js': EARLY_CANCEL_JS });
    chmodSync(path.join(dir, 'locked'), 0);
    const run = await runLocked(['lint'], dir);
    chmodSync(path.join(dir, 'locked'), 0o755);
    expect(run.code).toBe(1);
    expect(run.stderr.replaceAll(dir, '<dir>')).toBe(
      "drainguard lint: cannot read directory locked: EACCES: permission denied, scandir '<dir>/locked'; its files were not checked\ndrainguard lint: 1 file found, 1 parsed, 1 early close.\nnext: drainguard fix rewrites them where you maintain the code; for an SDK you only call, drainguard/undici (Node) and drainguard-httpx (Python) keep its connections with no source change\n",
    );
    const clean = tempProject({ 'src/drained.js': DRAINED_JS, 'locked/stream.js': EARLY_CANCEL_JS });
    chmodSync(path.join(clean, 'locked'), 0);
    const named = await runLocked(['lint', 'locked'], clean);
    chmodSync(path.join(clean, 'locked'), 0o755);
    expect(named.code).toBe(1);
    expect(named.stderr.replaceAll(clean, '<dir>')).toBe(
      "drainguard lint: cannot read directory locked: EACCES: permission denied, scandir '<dir>/locked'; its files were not checked\ndrainguard lint: 0 files found, 0 parsed, 0 early closes.\n",
    );
  });
});
