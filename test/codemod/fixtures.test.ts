import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtures, type FixtureCase } from './fixture-cases.js';
import { lintText } from '../support/lint-text.js';
import { typeDiagnosticsOfFiles } from '../support/type-diagnostics.js';
import { helperModuleText } from '../../rules/fix/helper-module.js';
import { detectStyle } from '../../rules/fix/style.js';
import { drainBounds } from '../../rules/contract/drain-options.js';

import * as transform from '../../codemods/rewrite.js';

const fixtures = loadFixtures();

/** Where the type check puts a fixture's files: input, output and the helper module the output imports, side by side. */
const checkedPaths = (fixture: FixtureCase) => ({
  input: `/fixtures/${fixture.name}/input${fixture.ext}`,
  output: `/fixtures/${fixture.name}/output${fixture.ext}`,
  helper: `/fixtures/${fixture.name}/${basename(fixture.helperPath)}`,
});

/** The TypeScript diagnostics of every fixture's files, checked in one program the first time a test asks (see typeDiagnosticsOfFiles). */
let typeChecked: Map<string, string[]> | undefined;
function typeDiagnosticsOf(fixture: FixtureCase): { before: string[]; after: string[] } {
  typeChecked ??= typeDiagnosticsOfFiles(
    fixtures.flatMap((each) => {
      const paths = checkedPaths(each);
      const files: [string, string][] = [[paths.input, each.input], [paths.output, each.output]];
      return each.helper === null ? files : [[paths.helper, each.helper], ...files];
    }),
  );
  const paths = checkedPaths(fixture);
  return { before: typeChecked.get(paths.input)!, after: typeChecked.get(paths.output)! };
}

const optionsOf = (fixture: FixtureCase): transform.RewriteOptions => ({
  drainTimeoutMs: fixture.drainTimeoutMs,
  drainMaxBytes: fixture.drainMaxBytes,
  helperModule: { path: fixture.helperPath },
});

describe('fixtures', () => {
  it('has at least 25 input/expected pairs', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(25);
  });
});

describe.each(fixtures)('fixture $name', (fixture) => {
  const options = optionsOf(fixture);
  const allFixed = fixture.sites.every((site) => site.status === 'fixed');

  it('the rule reports exactly the sites of the fixture', () => {
    const reports = lintText(fixture.input, fixture.inputPath).map((message) => [message.line, message.column, message.ruleId]);
    expect(reports).toEqual(fixture.sites.map((site) => [site.line, site.column, 'drainguard/no-early-stream-close']));
  });

  it('rewrites to the expected output and helper module, with the expected site statuses', () => {
    const result = transform.rewrite(fixture.input, fixture.inputPath, options);
    expect(result.output ?? fixture.input).toBe(fixture.output);
    expect(result.sites).toEqual(fixture.sites);
    const pieces = result.helperPieces ?? [];
    const helper = pieces.length === 0 ? null : helperModuleText(pieces, detectStyle(fixture.input.replace(/^\uFEFF/, ''), fixture.ext !== '.js'), drainBounds(options));
    expect(helper).toBe(fixture.helper);
  });

  it('is a fixed point: a second run changes nothing', () => {
    const again = transform.rewrite(fixture.output, fixture.inputPath, options);
    expect(again.output).toBeNull();
    expect(again.sites).toEqual(fixture.sites.filter((site) => site.status === 'manual'));
  });

  it(allFixed ? 'the output and its helper module lint clean with the rule' : 'a manual site is left untouched and still reported', () => {
    const reports = lintText(fixture.output, fixture.inputPath);
    if (allFixed) expect(reports).toEqual([]);
    else {
      expect(fixture.output).toBe(fixture.input);
      expect(reports.length).toBe(fixture.sites.length);
    }
    if (fixture.helper !== null) expect(lintText(fixture.helper, fixture.helperPath)).toEqual([]);
  });

  it("adds no negated test before a plain else (ESLint's no-negated-condition, which SDKs enable)", () => {
    const negated = (text: string) => lintText(text, fixture.inputPath, { 'no-negated-condition': 'error' }).filter((message) => message.ruleId === 'no-negated-condition');
    const output = transform.rewrite(fixture.input, fixture.inputPath, options).output ?? fixture.input;
    expect(negated(output).length).toBe(negated(fixture.input).length);
    if (fixture.helper !== null) expect(negated(fixture.helper)).toEqual([]);
  });

  it('the output adds no TypeScript diagnostic', () => {
    const { before, after } = typeDiagnosticsOf(fixture);
    expect(after.filter((diagnostic) => !before.includes(diagnostic))).toEqual([]);
  });

  it('keeps line endings and the byte order mark', () => {
    expect(fixture.output.startsWith('\uFEFF')).toBe(fixture.input.startsWith('\uFEFF'));
    const crlf = (text: string) => (text.match(/\r\n/g) ?? []).length;
    const lf = (text: string) => (text.match(/(?<!\r)\n/g) ?? []).length;
    if (crlf(fixture.input) > 0) expect(lf(fixture.output)).toBe(0);
    else expect(crlf(fixture.output)).toBe(0);
  });
});
