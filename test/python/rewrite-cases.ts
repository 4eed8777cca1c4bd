// Inputs of the Python rewrite's tests, shared by test/python/rewrite.test.ts (the rewrite's text and ruff, in process)
// and test/integration/python/rewrite.test.ts (CPython compiles the same rewrites).
import path from 'node:path';
import { rewritePython, type PythonRewriteOptions } from '../../codemods/python/rewrite.js';
import { tempProject } from '../cli/helpers.js';

export const lines = (...text: string[]): string => `${text.join('\n')}\n`;

/** Rewrites `text` as the file `name` of a project made of `files`. */
export async function rewriteIn(files: Record<string, string>, name: string, text: string, options: PythonRewriteOptions = {}) {
  const dir = tempProject({ ...files, [name]: text });
  return rewritePython(text, { filePath: path.join(dir, name), ...options });
}

/** Single quotes, two-space indentation and CRLF line endings, which the rewrite keeps. */
export const CRLF_INPUT = lines(
  'import httpx',
  '',
  '',
  'def first(client, url):',
  "  with client.stream('GET', url) as response:",
  '    for line in response.iter_lines():',
  "      if line == 'data: [DONE]':",
  '        return line',
).replace(/\n/g, '\r\n');

/** A file that does not parse: a colon missing at 2:21. */
export const UNPARSABLE = lines('async def f(response):', '    if response.done', '        await response.aclose()');

/**
 * The helper in each of its forms, as a rewrite writes it: sync and async; annotated (httpx imported) or not;
 * Optional[float] or float | None; each bound on or off.
 */
export async function* helperForms(): AsyncGenerator<{ pyproject: string; option: PythonRewriteOptions; output: string | null }> {
  const asyncInput = lines(
    'import httpx',
    '',
    '',
    'async def first(client: httpx.AsyncClient, url: str) -> str:',
    '    async with client.stream("GET", url) as response:',
    '        async for line in response.aiter_lines():',
    '            if line == "data: [DONE]":',
    '                return line',
    '    return ""',
  );
  const syncInput = asyncInput.replace('async def', 'def').replace('async with', 'with').replace('async for', 'for').replace('aiter_lines', 'iter_lines');
  const projects = ['[project]\ndependencies = ["httpx"]\n', '[project]\nrequires-python = ">=3.10"\ndependencies = ["httpx"]\n'];
  const options: PythonRewriteOptions[] = [{}, { drainMaxBytes: 0 }, { drainTimeoutMs: 0 }, { drainTimeoutMs: 0, drainMaxBytes: 0 }];
  for (const text of [asyncInput, syncInput, asyncInput.replace('import httpx\n\n\n', '').replace(': httpx.AsyncClient', '')]) {
    for (const pyproject of projects) {
      for (const option of options) {
        const { output } = await rewriteIn({ 'pyproject.toml': pyproject }, 'client.py', text, option);
        yield { pyproject, option, output };
      }
    }
  }
}
