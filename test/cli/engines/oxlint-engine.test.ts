// cli/engines/oxlint-engine.ts, the translation of oxlint's JSON diagnostics into ESLint's results: UTF-8 byte spans to
// UTF-16 lines and columns, the message id from the message text, the plugin's recorded suggestions, and the files
// left to ESLint. No oxlint process runs here (test/integration/cli/oxlint-run.test.ts runs the real one).
import { describe, expect, it } from 'vitest';
import { toResults, type OxlintDiagnostic } from '../../../cli/engines/oxlint-engine.js';

const CWD = '/project';
const CODE = 'drainguard(no-early-stream-close)';
const EXPLICIT =
  "`reader` is closed with `cancel()` after the terminal event `done` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).";
const IMPLICIT =
  "`break` leaves `for await` over `res.body` after the terminal event `c.done` before EOF: leaving the loop cancels the body and destroys the keep-alive connection. Keep reading to EOF with a time budget instead (`drainguard fix`).";

const diagnostic = (filename: string, message: string, offset: number, length: number, code = CODE): OxlintDiagnostic => ({
  message,
  code,
  filename,
  labels: [{ span: { offset, length } }],
});

const suggestion = { messageId: 'drainInBackground', data: { budget: '1000' }, fix: { range: [0, 1] as [number, number], text: 'x' }, desc: 'drain' };

describe('toResults', () => {
  it('gives ASCII spans as 1-based lines and columns, with the message id and the suggestion the plugin recorded', () => {
    const text = 'if (done) {\n  reader.cancel();\n}\n';
    const start = text.indexOf('reader.cancel()');
    const { results, unsuggested } = toResults(
      [{ filePath: '/project/src/a.js', text }],
      [diagnostic('src/a.js', EXPLICIT, start, 'reader.cancel()'.length)],
      new Map([[`/project/src/a.js:${start}`, { messageId: 'explicitClose', suggestions: [suggestion] }]]),
      CWD,
    );
    expect(unsuggested).toEqual(new Set());
    expect(results.get('/project/src/a.js')).toEqual({
      filePath: '/project/src/a.js',
      messages: [
        {
          ruleId: 'drainguard/no-early-stream-close',
          severity: 2,
          message: EXPLICIT,
          line: 2,
          column: 3,
          messageId: 'explicitClose',
          endLine: 2,
          endColumn: 18,
          suggestions: [suggestion],
        },
      ],
      suppressedMessages: [],
      errorCount: 1,
      fatalErrorCount: 0,
      warningCount: 0,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      source: text,
      usedDeprecatedRules: [],
    });
  });

  it('counts columns in UTF-16 units where oxlint counts UTF-8 bytes, and lines at CRLF and U+2028', () => {
    // 'é' is 2 bytes and 1 unit, '🚀' 4 bytes and 2 units.
    const text = '// é 🚀\r\nconst s = "🚀";\u2028for (;;) { break; }\n';
    const byteOffset = Buffer.byteLength(text.slice(0, text.indexOf('break')), 'utf8');
    const { results } = toResults([{ filePath: '/project/b.ts', text }], [diagnostic('b.ts', IMPLICIT, byteOffset, 6)], new Map([[`/project/b.ts:${text.indexOf('break')}`, { messageId: 'implicitClose', suggestions: [] }]]), CWD);
    const [message] = results.get('/project/b.ts')!.messages;
    expect([message.line, message.column, message.endLine, message.endColumn, message.messageId]).toEqual([3, 12, 3, 18, 'implicitClose']);
    // An empty record: the rule offered no suggestion there, and the file needs no second lint.
    expect(message.suggestions).toBeUndefined();
  });

  it('sorts a file\'s messages by line and column, whatever order oxlint printed them in', () => {
    const text = 'a.cancel();\nb.cancel();\n';
    const { results } = toResults(
      [{ filePath: '/project/c.js', text }],
      [diagnostic('c.js', EXPLICIT, 12, 10), diagnostic('c.js', EXPLICIT, 0, 10)],
      new Map([
        ['/project/c.js:0', { messageId: 'explicitClose', suggestions: [] }],
        ['/project/c.js:12', { messageId: 'explicitClose', suggestions: [] }],
      ]),
      CWD,
    );
    expect(results.get('/project/c.js')!.messages.map((message) => [message.line, message.column])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('lists a file with a report but no recorded suggestion as unsuggested (ESLint lints it again)', () => {
    const text = 'x.cancel();\n';
    const { results, unsuggested } = toResults([{ filePath: '/project/d.js', text }], [diagnostic('d.js', EXPLICIT, 0, 10)], new Map(), CWD);
    expect(unsuggested).toEqual(new Set(['/project/d.js']));
    expect(results.get('/project/d.js')!.messages).toHaveLength(1);
  });

  it('gives a clean file of the batch an empty result, without its source', () => {
    const { results } = toResults([{ filePath: '/project/e.js', text: 'ok();\n' }], [], new Map(), CWD);
    expect(results.get('/project/e.js')).toEqual({
      filePath: '/project/e.js',
      messages: [],
      suppressedMessages: [],
      errorCount: 0,
      fatalErrorCount: 0,
      warningCount: 0,
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      usedDeprecatedRules: [],
    });
  });

  it('leaves out a file with any diagnostic that is not drainguard\'s (a parse error), and keeps the others', () => {
    const { results } = toResults(
      [
        { filePath: '/project/broken.js', text: 'if (\n' },
        { filePath: '/project/fine.js', text: 'ok();\n' },
      ],
      [diagnostic('broken.js', 'Unexpected token', 4, 1, 'parse')],
      new Map(),
      CWD,
    );
    expect([...results.keys()]).toEqual(['/project/fine.js']);
  });

  it('gives no result at all when a diagnostic names a file outside the batch (no file could then be called clean)', () => {
    const { results, unsuggested } = toResults([{ filePath: '/project/f.js', text: 'x.cancel();\n' }], [diagnostic('elsewhere/f.js', EXPLICIT, 0, 10)], new Map(), CWD);
    expect(results.size).toBe(0);
    expect(unsuggested.size).toBe(0);
  });

  it('gives no result at all for a diagnostic without a filename (oxlint could not open a file), instead of throwing', () => {
    // oxlint 1.94's own words for a file that is not UTF-8: a diagnostic with no filename and no labels.
    const cannotOpen = { message: 'Failed to open file /project/latin1.js with error "stream did not contain valid UTF-8"', severity: 'error', labels: [] } as OxlintDiagnostic;
    const { results, unsuggested } = toResults(
      [
        { filePath: '/project/f.js', text: 'x.cancel();\n' },
        { filePath: '/project/latin1.js', text: '// caf\uFFFD\n' },
      ],
      [diagnostic('f.js', EXPLICIT, 0, 10), cannotOpen],
      new Map(),
      CWD,
    );
    expect(results.size).toBe(0);
    expect(unsuggested.size).toBe(0);
  });

  it('takes the message id from the record, not from the text, and gives none without a record', () => {
    const { results } = toResults(
      [
        { filePath: '/project/g.js', text: 'x.cancel();\n' },
        { filePath: '/project/h.js', text: 'x.cancel();\n' },
      ],
      [diagnostic('g.js', EXPLICIT, 0, 10), diagnostic('h.js', EXPLICIT, 0, 10)],
      new Map([['/project/g.js:0', { messageId: 'implicitClose', suggestions: [] }]]),
      CWD,
    );
    expect(results.get('/project/g.js')!.messages[0].messageId).toBe('implicitClose');
    expect(results.get('/project/h.js')!.messages[0]).not.toHaveProperty('messageId');
  });
});
