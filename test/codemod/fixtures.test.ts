import { describe, expect, it } from 'vitest';
import { loadFixtures } from './fixture-cases.js';
import { lintText } from '../support/lint-text.js';
import { typeDiagnostics } from '../support/type-diagnostics.js';

import * as transform from '../../codemods/rewrite.js';

const fixtures = loadFixtures();

describe('fixtures', () => {
  it('has at least 25 input/expected pairs', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(25);
  });
});

describe.each(fixtures)('fixture $name', (fixture) => {
  const options = fixture.drainTimeoutMs === undefined ? {} : { drainTimeoutMs: fixture.drainTimeoutMs };
  const allFixed = fixture.sites.every((site) => site.status === 'fixed');

  it('the rule reports exactly the sites of the fixture', () => {
    const reports = lintText(fixture.input, fixture.inputPath).map((message) => [message.line, message.column, message.ruleId]);
    expect(reports).toEqual(fixture.sites.map((site) => [site.line, site.column, 'drainguard/no-early-stream-close']));
  });

  it('rewrites to the expected output with the expected site statuses', () => {
    const result = transform.rewrite(fixture.input, fixture.inputPath, options);
    expect(result.output ?? fixture.input).toBe(fixture.output);
    expect(result.sites).toEqual(fixture.sites);
  });

  it('is a fixed point: a second run changes nothing', () => {
    const again = transform.rewrite(fixture.output, fixture.inputPath, options);
    expect(again.output).toBeNull();
    expect(again.sites).toEqual(fixture.sites.filter((site) => site.status === 'manual'));
  });

  it(allFixed ? 'the output lints clean with the rule' : 'a manual site is left untouched and still reported', () => {
    const reports = lintText(fixture.output, fixture.inputPath);
    if (allFixed) expect(reports).toEqual([]);
    else {
      expect(fixture.output).toBe(fixture.input);
      expect(reports.length).toBe(fixture.sites.length);
    }
  });

  it('the output adds no TypeScript diagnostic', () => {
    const before = typeDiagnostics(`/fixtures/${fixture.name}/input${fixture.ext}`, fixture.input);
    const after = typeDiagnostics(`/fixtures/${fixture.name}/output${fixture.ext}`, fixture.output);
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
