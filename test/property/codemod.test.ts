/**
 * Property: for generated stream programs (TypeScript and JavaScript, laid out formatted, on one line, without
 * semicolons (ASI) and minified; importing a helper module or carrying their own copy) and for every invalid case of
 * the rule's test suite, the codemod's output parses, is a fixed point (a second run changes nothing and finds only the
 * sites the first left manual), lints clean except for those manual sites, and adds no TypeScript diagnostic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../support/property-runs.js';
import { rewrite, type RewriteResult } from '../../codemods/rewrite.js';
import { helperModuleText } from '../../rules/fix/helper-module.js';
import { detectStyle } from '../../rules/fix/style.js';
import { drainBounds } from '../../rules/contract/drain-options.js';
import { invalid } from '../rules/cases.js';
import { typeDiagnosticsOfFiles } from '../support/type-diagnostics.js';

type Language = 'ts' | 'js';

/**
 * How a program's lines are laid out: as written; on one line; without semicolons (ASI), which the rewrite must not
 * run together with the next statement; minified (one line, no indentation).
 */
type Layout = 'formatted' | 'one-line' | 'asi' | 'minified';
const LAYOUTS: Layout[] = ['formatted', 'one-line', 'asi', 'minified'];

function layOut(lines: string[], layout: Layout): string {
  if (layout === 'one-line') return `${lines.filter((line) => line.trim() !== '').join(' ')}\n`;
  if (layout === 'minified') return `${lines.map((line) => line.trim()).join('')}\n`;
  const text = lines.join('\n');
  return layout === 'asi' ? text.replace(/;$/gm, '') : text;
}

const TERMINAL_TESTS = ["data === '[DONE]'", "data.includes('message_stop')", 'isComplete(data)'];

/** What the completion branch does; `jump` is the statement that leaves the loop (if any). */
const COMPLETIONS: Array<(jump: string) => string[]> = [
  (jump) => ['await reader.cancel();', jump],
  (jump) => ['reader.cancel();', jump],
  (jump) => ['controller.abort();', jump],
  (jump) => [jump],
];

const JUMPS = ['break;', 'return out;', 'break outer;'];

interface Shape {
  /** The read loop around `branch` (the completion `if`), with `data: string` in scope. */
  loop: (branch: string[]) => string[];
  /** Whether `reader` is the loop's reader (explicit reader closes make sense). */
  reader: boolean;
}

const SHAPES: Shape[] = [
  {
    reader: true,
    loop: (branch) => [
      'outer: while (true) {',
      '  const { done, value } = await reader.read();',
      '  if (done) break;',
      '  const data = decoder.decode(value);',
      ...indent(branch),
      '  out.push(data);',
      '}',
    ],
  },
  {
    reader: false,
    loop: (branch) => ['outer: for await (const chunk of res.body!) {', '  const data = decoder.decode(chunk);', ...indent(branch), '  out.push(data);', '}'],
  },
  {
    reader: false,
    loop: (branch) => [
      'outer: for await (const chunk of res.body!) {',
      "  for (const data of decoder.decode(chunk).split('\\n')) {",
      ...indent(indent(branch)),
      '    out.push(data);',
      '  }',
      '}',
    ],
  },
  {
    reader: false,
    loop: (branch) => ['outer: for await (const event of parse(res, controller)) {', '  const data = event.data;', ...indent(branch), '  out.push(data);', '}'],
  },
];

function indent(lines: string | string[]): string[] {
  return (Array.isArray(lines) ? lines : lines.split('\n')).map((line) => `  ${line}`);
}

const PRELUDE_TS = [
  'declare function isComplete(data: string): boolean;',
  'declare function parse(res: Response, controller: AbortController): AsyncIterable<{ data: string }>;',
  'const decoder = new TextDecoder();',
  '',
];
const PRELUDE_JS = ["import { isComplete, parse } from './elsewhere.js';", 'const decoder = new TextDecoder();', ''];

const program = fc
  .record({
    shape: fc.constantFrom(...SHAPES),
    test: fc.constantFrom(...TERMINAL_TESTS),
    completion: fc.constantFrom(...COMPLETIONS),
    jump: fc.constantFrom(...JUMPS),
    braces: fc.boolean(),
    finallyClose: fc.boolean(),
    language: fc.constantFrom<Language>('ts', 'js'),
    generator: fc.boolean(),
    layout: fc.constantFrom(...LAYOUTS),
    helperModule: fc.boolean(),
  })
  .map(({ shape, test, completion, jump, braces, finallyClose, language, generator, layout, helperModule }) => {
    const statements = completion(jump).filter((statement) => shape.reader || !statement.startsWith('await reader') && !statement.startsWith('reader.'));
    const branch = braces || statements.length > 1 ? [`if (${test}) {`, ...indent(statements), '}'] : [`if (${test}) ${statements[0]}`];
    const body = [
      'const controller = new AbortController();',
      'const res = await fetch(url, { signal: controller.signal });',
      'const reader = res.body!.getReader();',
      `const out${language === 'ts' ? ': string[]' : ''} = [];`,
      ...(finallyClose ? ['try {', ...indent(shape.loop(branch)), '} finally {', '  await reader.cancel();', '}'] : shape.loop(branch)),
      generator ? 'yield out;' : 'return out;',
    ];
    const ts = language === 'ts';
    const signature = generator
      ? `export async function* run(url: string)${ts ? ': AsyncGenerator<string[]>' : ''} {`
      : `export async function run(url: string)${ts ? ': Promise<string[]>' : ''} {`;
    const lines = [...(ts ? PRELUDE_TS : PRELUDE_JS), signature.replace(ts ? '' : ': string', ''), ...indent(body), '}', ''];
    const text = layOut(lines, layout);
    const code = ts ? text : text.replaceAll('res.body!', 'res.body');
    return { code, file: `/property/generated.${language}`, layout, helperModule };
  });

/**
 * The type check `checkRewrite` owes an input: the input and the output, each as a module (scripts of one program
 * would see each other's declarations), and the helper module the output imports, as `drainguard fix` writes it.
 */
interface TypeCheck {
  file: string;
  before: string;
  after: string;
  helper?: { name: string; text: string };
}

/** The type check of a rewrite that changed the input (undefined when it left the input as it was). */
function typeCheckOf(code: string, file: string, options: Parameters<typeof rewrite>[2], first: RewriteResult): TypeCheck | undefined {
  if (first.output === null) return undefined;
  const module = options?.helperModule?.path;
  const pieces = first.helperPieces ?? [];
  // Checked as modules: scripts (no import/export) of one project would see each other's declarations.
  const asModule = (text: string): string => (/^\s*(import|export)\b/m.test(text) ? text : `${text}\nexport {};\n`);
  return {
    file: file.replace(/^\/property\//, ''),
    before: asModule(code),
    after: asModule(first.output),
    // The module the imports name, as `drainguard fix` writes it, in the project the output is checked in.
    ...(module && pieces.length > 0 ? { helper: { name: module.slice(module.lastIndexOf('/') + 1), text: helperModuleText(pieces, detectStyle(code, file.endsWith('.ts')), drainBounds()) } } : {}),
  };
}

/**
 * Checks three of the four promises on one input (the output parses, is a fixed point, and leaves only the manual
 * sites); returns the first run's result and the type check of the fourth (no TypeScript diagnostic added), which
 * `addedDiagnostics` makes for many inputs at once.
 */
function checkRewrite(code: string, file: string, options: Parameters<typeof rewrite>[2] = {}): { first: RewriteResult; typeCheck?: TypeCheck } {
  const first = rewrite(code, file, options);
  expect(first.parseError).toBeUndefined();
  const manual = first.sites.filter((site) => site.status === 'manual');
  if (first.output === null) {
    expect(manual).toEqual(first.sites);
    return { first };
  }
  const second = rewrite(first.output, file, options);
  expect(second.parseError, first.output).toBeUndefined();
  expect(second.output, first.output).toBeNull();
  expect(second.sites.map((site) => site.status)).toEqual(manual.map(() => 'manual'));
  return { first, typeCheck: typeCheckOf(code, file, options, first) };
}

/**
 * The TypeScript diagnostics each output adds to its input (a diagnostic the input has may stay, as often as it had
 * it). The checks share one program (one type checker, see typeDiagnosticsOfFiles), each input and output in a folder
 * of its own under the same file name, the helper module beside the output.
 */
function addedDiagnostics(checks: TypeCheck[]): string[][] {
  const where = (index: number, side: 'before' | 'after', name: string): string => `/property/${index}/${side}/${name}`;
  const diagnostics = typeDiagnosticsOfFiles(
    checks.flatMap((check, index) => [
      ...(check.helper ? [[where(index, 'after', check.helper.name), check.helper.text] as const] : []),
      [where(index, 'before', check.file), check.before] as const,
      [where(index, 'after', check.file), check.after] as const,
    ]),
  );
  return checks.map((check, index) => {
    const remaining = [...diagnostics.get(where(index, 'before', check.file))!];
    return diagnostics.get(where(index, 'after', check.file))!.filter((diagnostic) => {
      const found = remaining.indexOf(diagnostic);
      if (found < 0) return true;
      remaining.splice(found, 1);
      return false;
    });
  });
}

function expectNoAddedDiagnostics(checks: TypeCheck[]): void {
  for (const [index, added] of addedDiagnostics(checks).entries()) expect(added, checks[index].after).toEqual([]);
}

describe('the codemod on generated stream programs', () => {
  it('output parses, is a fixed point, lints clean but for manual sites, adds no TypeScript diagnostic', () => {
    let fixed = 0;
    const typeChecks: TypeCheck[] = [];
    fc.assert(
      fc.property(program, ({ code, file, helperModule }) => {
        const { first: result, typeCheck } = checkRewrite(code, file, helperModule ? { helperModule: { path: `/property/drain-body.${file.endsWith('.ts') ? 'ts' : 'js'}` } } : {});
        if (typeCheck) typeChecks.push(typeCheck);
        fixed += result.sites.filter((site) => site.status === 'fixed').length;
        // The rewrite itself is sound in every layout: nothing had to be rolled back by the verification.
        expect(result.sites.filter((site) => site.reason?.startsWith('rolled back')), code).toEqual([]);
      }),
      { numRuns: propertyRuns(80), seed: Number(process.env.FC_SEED ?? 20261201), endOnFailure: true },
    );
    // The type checks of the programs, in one program (the property above holds every other promise).
    expectNoAddedDiagnostics(typeChecks);
    // The generator builds programs with sites, most of them fixable: the property is not vacuous.
    expect(fixed).toBeGreaterThan(propertyRuns(80) * 0.65);
  }, 120_000);
});

describe('the codemod on every invalid case of the rule tests', () => {
  const fileOf = (testCase: (typeof invalid)[number]): string => testCase.filename ?? (testCase.js ? 'case.js' : 'case.ts');
  const optionsOf = (testCase: (typeof invalid)[number]): Parameters<typeof rewrite>[2] => {
    const ruleOptions = { ...testCase.options?.[0] };
    delete ruleOptions.useTypes;
    return { ruleOptions };
  };
  /** What every case's output adds, type-checked in one program the first time a case asks (a check not among them, none, is made on its own). */
  let addedByCheck: Map<string, string[]> | undefined;
  const addedTo = (typeCheck: TypeCheck): string[] => {
    if (!addedByCheck) {
      const checks = invalid.flatMap((testCase) => {
        const check = typeCheckOf(testCase.code, fileOf(testCase), optionsOf(testCase), rewrite(testCase.code, fileOf(testCase), optionsOf(testCase)));
        return check ? [check] : [];
      });
      const added = addedDiagnostics(checks);
      addedByCheck = new Map(checks.map((check, index) => [JSON.stringify(check), added[index]]));
    }
    return addedByCheck.get(JSON.stringify(typeCheck)) ?? addedDiagnostics([typeCheck])[0];
  };

  it.each(invalid.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
    const { typeCheck } = checkRewrite(testCase.code, fileOf(testCase), optionsOf(testCase));
    if (typeCheck) expect(addedTo(typeCheck), typeCheck.after).toEqual([]);
  });
});
