// rules/python/sites.ts: what a function's statements do to its response streams.
import { describe, expect, it } from 'vitest';
import type { FlowEvent } from '../../../rules/python/cfg.js';
import type { Node } from '../../../rules/python/parser.js';
import { SiteFinder } from '../../../rules/python/sites.js';
import { DEFAULT_PYTHON_CLOSE_METHODS, StreamScope } from '../../../rules/python/streams.js';
import { collectBindings, named } from '../../../rules/python/tree.js';
import { firstFunctionBody, lines, nodesOf } from './tree-nodes.js';

/** A finder over the first function of `code`; a site is exempt where its text says `# exempt` on its line. */
async function finderFor(code: string): Promise<{ finder: SiteFinder; body: Node }> {
  const body = await firstFunctionBody(code);
  const bindings = collectBindings(body);
  const exemptLines = new Set(code.split('\n').flatMap((line, index) => (line.includes('# exempt') ? [index] : [])));
  const finder = new SiteFinder({ body, streams: new StreamScope(bindings), bindings, closeMethods: new Set(DEFAULT_PYTHON_CLOSE_METHODS), isExempt: (site) => exemptLines.has(site.startPosition.row) });
  return { finder, body };
}

function show(event: FlowEvent): string {
  if (event.kind !== 'close') return event.kind;
  const { kind, node, statement, stream, method, by, exempt } = event.site;
  return `${kind} close of ${stream} by ${method}${by ? ` (${by})` : ''} at ${node.text}, statement ${statement.type}${exempt ? ', exempt' : ''}`;
}

describe('SiteFinder.events', () => {
  it('finds closes of response streams and reads to EOF in each statement, in source order', async () => {
    const code = lines(
      'async def f(client, request):',
      '    response = await client.send(request, stream=True)',
      '    await response.aread()',
      '    _drain_response(response, events)',
      '    await response.aclose()',
      '    client.close()',
      '    response.close(timeout)',
      '    await response.aclose()  # exempt',
      '    if check(response.release()):',
      '        pass',
    );
    const { finder, body } = await finderFor(code);
    expect(named(body).map((statement) => finder.events(statement).map(show))).toEqual([
      [],
      ['eof'],
      ['eof'],
      ['explicit close of response by aclose at response.aclose(), statement expression_statement'],
      [],
      [],
      ['explicit close of response by aclose at response.aclose(), statement expression_statement, exempt'],
      ['explicit close of response by release at response.release(), statement if_statement'],
    ]);
  });
});

describe('SiteFinder.events, where the text of a call is spread out', () => {
  it('finds a close whose arguments follow a line continuation, and a drain function of any case', async () => {
    const code = lines('def f(response):', '    response.close \\', '        ()', '    DrainBody(response)', '    response.aclose  ()');
    const { finder, body } = await finderFor(code);
    expect(named(body).map((statement) => finder.events(statement).map(show))).toEqual([
      ['explicit close of response by close at response.close \\\n        (), statement expression_statement'],
      ['eof'],
      ['explicit close of response by aclose at response.aclose  (), statement expression_statement'],
    ]);
  });
});

describe('SiteFinder.stopIteration', () => {
  it('a raise StopIteration in __next__ abandons the response an iterator of the function reads', async () => {
    const code = lines(
      'def __next__(self):',
      '    lines = self.response.iter_lines()',
      '    raise StopIteration',
    );
    const { finder } = await finderFor(code);
    const [raise] = await nodesOf(code, 'raise_statement');
    const site = finder.stopIteration(raise);
    expect(site && show({ kind: 'close', site })).toBe('implicit close of self.response by abandoned (nothing) at raise StopIteration, statement raise_statement');
  });

  it('elsewhere only where an except StopIteration around it ends the loop; never without an iterator over a response', async () => {
    const caught = lines(
      'def read(response):',
      '    lines = response.iter_lines()',
      '    try:',
      '        raise StopIteration',
      '    except StopIteration:',
      '        pass',
      '    raise StopIteration',
    );
    const { finder } = await finderFor(caught);
    const raises = await nodesOf(caught, 'raise_statement');
    expect(raises.map((raise) => finder.stopIteration(raise)?.stream ?? null)).toEqual(['response', null]);
    const noIterator = lines('def __next__(self):', '    raise StopIteration');
    const { finder: plain } = await finderFor(noIterator);
    const [raise] = await nodesOf(noIterator, 'raise_statement');
    expect(plain.stopIteration(raise)).toBeNull();
  });
});

describe('SiteFinder.finallyCloses', () => {
  it("names the response a finally closes, the first one; nothing for a finally that closes no response", async () => {
    const code = lines(
      'async def f(client):',
      '    try:',
      '        pass',
      '    finally:',
      '        await client.aclose()',
      '        await resp.aclose()',
      '        await response.aclose()',
      '    try:',
      '        pass',
      '    finally:',
      '        client.close()',
    );
    const { finder } = await finderFor(code);
    const clauses = await nodesOf(code, 'finally_clause');
    expect(clauses.map((clause) => finder.finallyCloses(clause))).toEqual(['resp', null]);
  });
});
