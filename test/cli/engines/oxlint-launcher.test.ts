/**
 * The request `drainguard lint` sends the oxlint launcher (cli/engines/oxlint-process.ts) for a size of text, in process. The
 * launcher itself, run as a process with oxlint: test/integration/cli/engines/oxlint-launcher.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ONE_PARSER_THREAD_BELOW_BYTES, oxlintRequest } from '../../../cli/engines/oxlint-process.js';

describe('the oxlint launcher', () => {
  it('asks for one parser thread below 1 MB of text, and for every thread (and the optimizing compiler) from there', () => {
    expect(ONE_PARSER_THREAD_BELOW_BYTES).toBe(1024 * 1024);
    expect(oxlintRequest('rc.json', ['a.js'], 1024 * 1024 - 1)).toEqual({ args: ['-c', 'rc.json', '--format', 'json', '--no-ignore', '--disable-nested-config', '--threads=1', 'a.js'], optimize: false });
    expect(oxlintRequest('rc.json', ['a.js'], 1024 * 1024)).toEqual({ args: ['-c', 'rc.json', '--format', 'json', '--no-ignore', '--disable-nested-config', 'a.js'], optimize: true });
  });
});
