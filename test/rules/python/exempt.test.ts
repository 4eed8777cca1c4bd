// rules/python/exempt.ts: whether a close lies on an exempt path (an error, cancellation or not-finished branch).
import { describe, expect, it } from 'vitest';
import { testMeaning } from '../../../rules/python/conditions.js';
import { isExemptPath } from '../../../rules/python/exempt.js';
import { pythonAnalysisOptions } from '../../../rules/python/options.js';
import { firstFunctionBody, lines, nodesOf } from './tree-nodes.js';

/** Each `aclose()` call of the first function with whether it is exempt, as `line: text` pairs. */
async function exemptCloses(code: string): Promise<string[]> {
  const { patterns } = pythonAnalysisOptions();
  const body = await firstFunctionBody(code);
  const closes = (await nodesOf(code, 'call')).filter((call) => call.text.endsWith('.aclose()'));
  return closes.map((call) => `${call.startPosition.row + 1}: ${isExemptPath(call, body, (test) => testMeaning(test, patterns)) ? 'exempt' : 'reported'}`);
}

describe('isExemptPath', () => {
  it('an except block, a block that ends in a raise, and a branch whose test is about an error are exempt', async () => {
    const code = lines(
      'async def f(response):',
      '    try:',
      '        pass',
      '    except Exception:',
      '        await response.aclose()',
      '    if response.status_code >= 400:',
      '        await response.aclose()',
      '    if ready:',
      '        await response.aclose()',
      '        raise RuntimeError("bad")',
      '    await response.aclose()',
    );
    expect(await exemptCloses(code)).toEqual(['5: exempt', '7: exempt', '9: exempt', '11: reported']);
  });

  it('a not-finished guard is exempt on its true side; the else of a success test is exempt', async () => {
    const code = lines(
      'async def f(response, done):',
      '    if not done:',
      '        await response.aclose()',
      '    if response.is_success:',
      '        await response.aclose()',
      '    else:',
      '        await response.aclose()',
    );
    expect(await exemptCloses(code)).toEqual(['3: exempt', '5: reported', '7: exempt']);
  });

  it('a raise StopIteration ends an iteration, not an error; a raise past a nested branch does not reach back', async () => {
    const code = lines(
      'async def f(response):',
      '    if ready:',
      '        await response.aclose()',
      '        raise StopAsyncIteration',
      '    while True:',
      '        if ready:',
      '            await response.aclose()',
      '        raise RuntimeError("bad")',
    );
    expect(await exemptCloses(code)).toEqual(['3: reported', '7: reported']);
  });
});
