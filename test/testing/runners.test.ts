// What docs/testing.md shows of the regression tests of docs/examples, read in process: the pytest fixture as it is,
// and links that resolve. The runners themselves run the examples in test/integration/testing/runners.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = path.join(ROOT, 'docs/examples');

describe('the docs/examples regression tests, under each runner', () => {
  it('the pytest fixture is at most 20 lines, shown in docs/testing.md as it is', () => {
    const conftest = readFileSync(path.join(EXAMPLES, 'pytest/conftest.py'), 'utf8');
    const fixture = conftest.slice(conftest.indexOf('@pytest.fixture'));
    expect(fixture.trimEnd().split('\n').length).toBeLessThanOrEqual(20);
    expect(readFileSync(path.join(ROOT, 'docs/testing.md'), 'utf8')).toContain(`\`\`\`python\n${fixture}\`\`\``);
  });
});

describe('docs/testing.md', () => {
  it('links only to files that exist', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/testing.md'), 'utf8');
    const targets = [...doc.matchAll(/\]\(((?!https?:|#)[^)#]+)/g)].map((match) => match[1]);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(existsSync(path.join(ROOT, 'docs', target)), target).toBe(true);
  });
});
