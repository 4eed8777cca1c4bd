// rules/python/tree.ts: helpers over the Python tree that know no flow.
import { describe, expect, it } from 'vitest';
import { collectBindings, definitionsOf, forEachCall, isAsync, isStopIteration, named, ownDescendants, statementOf } from '../../../rules/python/tree.js';
import { parsePython } from '../../../rules/python/parser.js';
import { firstFunctionBody, lines, nodesOf } from './tree-nodes.js';

describe('named', () => {
  it('gives the named children without comments, and nothing for no node', async () => {
    const [args] = await nodesOf(lines('f(a,  # first', '  b)'), 'argument_list');
    expect(named(args).map((child) => child.text)).toEqual(['a', 'b']);
    expect(named(null)).toEqual([]);
  });
});

describe('isAsync', () => {
  it('is true of an async def, with or for and false of the plain ones', async () => {
    const code = lines('async def f():', '    async with a as b:', '        async for c in b:', '            pass', 'def g():', '    with a as b:', '        pass');
    const found = [...(await nodesOf(code, 'function_definition')), ...(await nodesOf(code, 'with_statement')), ...(await nodesOf(code, 'for_statement'))];
    expect(found.map((node) => `${node.type} ${isAsync(node)}`)).toEqual([
      'function_definition true',
      'function_definition false',
      'with_statement true',
      'with_statement false',
      'for_statement true',
    ]);
  });
});

describe('forEachCall', () => {
  it('visits calls innermost first, in source order, and not inside a lambda or a nested function', async () => {
    const [statement] = await nodesOf(lines('f(g(x), h(lambda: k()), m())'), 'expression_statement');
    const calls: string[] = [];
    forEachCall(statement, (call) => calls.push(call.text));
    expect(calls).toEqual(['g(x)', 'h(lambda: k())', 'm()', 'f(g(x), h(lambda: k()), m())']);
  });
});

describe('collectBindings', () => {
  it('takes assignments, walrus targets and with … as bindings of the body, marking those of an async with (not of a plain with inside one)', async () => {
    const body = await firstFunctionBody(
      lines(
        'async def f(client):',
        '    response = await client.send(request, stream=True)',
        '    if (line := next(lines)):',
        '        pass',
        '    async with client.stream("GET", url) as events:',
        '        with open(path) as out:',
        '            pass',
        '    def inner():',
        '        hidden = 1',
      ),
    );
    expect(collectBindings(body).map(({ target, value, asyncWith }) => `${target.text} = ${value.text}${asyncWith ? ' (async with)' : ''}`)).toEqual([
      'response = await client.send(request, stream=True)',
      'line = next(lines)',
      'events = client.stream("GET", url) (async with)',
      'out = open(path)',
    ]);
  });
});

describe('collectBindings, asked again', () => {
  it('gives the bindings it found the first time', async () => {
    const body = await firstFunctionBody(lines('def f(client):', '    response = client.send(request, stream=True)'));
    expect(collectBindings(body)).toBe(collectBindings(body));
  });
});

describe('definitionsOf', () => {
  it('lists every function and class of the file, nested and decorated ones included, in source order', async () => {
    const tree = await parsePython(
      lines('class A:', '    @property', '    def p(self):', '        def inner():', '            pass', 'async def g():', '    class B:', '        pass', 'h = lambda: 0'),
    );
    expect(definitionsOf(tree.rootNode).map((node) => `${node.type} ${node.childForFieldName('name')?.text}`)).toEqual([
      'class_definition A',
      'function_definition p',
      'function_definition inner',
      'function_definition g',
      'class_definition B',
    ]);
  });
});

describe('ownDescendants', () => {
  const code = lines(
    'x = 0',
    '@decorate(y := 1)',
    'def f(a=(b := 2), c=lambda: (d := 3)):',
    '    e = 4',
    '    yield e',
    '    for g in (h := range(5)):',
    '        yield from g',
    '        k = lambda: (m := 6)',
    '    def inner():',
    '        n = 7',
    '        yield n',
    '    class C:',
    '        p = 8',
    '    with open(q) as r:',
    '        return call(s := 9)',
  );
  const show = (nodes: readonly { type: string; text: string }[]): string[] => nodes.map((node) => `${node.type}: ${node.text}`);

  it('gives the nodes of a function body (from the file index), not those of its parameters, decorators or nested scopes', async () => {
    const body = await firstFunctionBody(code);
    expect(show(ownDescendants(body, ['assignment', 'named_expression', 'yield']))).toEqual([
      'assignment: e = 4',
      'yield: yield e',
      'named_expression: h := range(5)',
      'yield: yield from g',
      'assignment: k = lambda: (m := 6)',
      'named_expression: s := 9',
    ]);
    expect(show(ownDescendants(body, ['return_statement', 'with_statement']))).toEqual(['with_statement: with open(q) as r:\n        return call(s := 9)', 'return_statement: return call(s := 9)']);
  });

  it('searches any other node (a block, a type the index does not hold) itself, skipping nested scopes by their extent', async () => {
    const body = await firstFunctionBody(code);
    expect(show(ownDescendants(body, ['call']))).toEqual(['call: range(5)', 'call: open(q)', 'call: call(s := 9)']);
    const [loop] = ownDescendants(body, ['for_statement']);
    const loopBody = loop.childForFieldName('body');
    if (!loopBody) throw new Error('no loop body');
    expect(show(ownDescendants(loopBody, ['assignment', 'named_expression', 'yield']))).toEqual(['yield: yield from g', 'assignment: k = lambda: (m := 6)']);
  });

  it('gives the module its own nodes, not those of a definition (its decorators and defaults go with it)', async () => {
    const tree = await parsePython(code);
    expect(show(ownDescendants(tree.rootNode, ['assignment', 'named_expression']))).toEqual(['assignment: x = 0']);
  });
});

describe('statementOf', () => {
  it('climbs to the statement that holds a node, up to its block or the module', async () => {
    const code = lines('def f(response):', '    if check(response.aclose()):', '        x = g(y)');
    const calls = await nodesOf(code, 'call');
    expect(calls.map((call) => `${call.text} -> ${statementOf(call).type}`)).toEqual([
      'check(response.aclose()) -> if_statement',
      'response.aclose() -> if_statement',
      'g(y) -> expression_statement',
    ]);
  });
});

describe('isStopIteration', () => {
  it('is true of raising StopIteration or StopAsyncIteration, called or not, and false of other raises', async () => {
    const raises = await nodesOf(lines('raise StopIteration', 'raise StopAsyncIteration()', 'raise ValueError("no")', 'raise'), 'raise_statement');
    expect(raises.map(isStopIteration)).toEqual([true, true, false, false]);
  });
});
