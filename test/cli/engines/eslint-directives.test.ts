/**
 * Which files `drainguard lint` keeps with ESLint because of their comments (the others may go to
 * oxlint): the reports must come out as ESLint gives them, suppressions included.
 */
import { describe, expect, it } from 'vitest';
import { needsESLintDirectives } from '../../../cli/engines/eslint-directives.js';

describe('needsESLintDirectives', () => {
  it.each([
    ['// eslint-disable-next-line no-console\nconsole.log(1);\n'],
    ['x(); // eslint-disable-line no-underscore-dangle\n'],
    ['/* eslint-disable no-await-in-loop */\nfor (;;) await x();\n/* eslint-enable no-await-in-loop */\n'],
    ['// eslint-disable-next-line @typescript-eslint/no-this-alias, no-console -- drainguard is fine with this\n'],
    ['/*\n * eslint-disable is described here, not written as a directive\n */\n'],
    ['const url = "https://example.com/eslint";\n'],
    ['// oxlint-disable-next-line no-debugger\ndebugger;\n'],
  ])('lets oxlint take %j (no directive that touches drainguard)', (text) => {
    expect(needsESLintDirectives(text)).toBe(false);
  });

  it.each([
    ['/* eslint-disable */\n'],
    ['x(); // eslint-disable-line\n'],
    ['// eslint-disable-next-line -- no rule list, only a description\n'],
    ['// eslint-disable-next-line drainguard/no-early-stream-close\n'],
    ['// eslint-disable-next-line no-console, drainguard/no-early-stream-close\n'],
    ['/* eslint-disable no-console,\n   drainguard/no-early-stream-close */\n'],
    ['// oxlint-disable-next-line drainguard/no-early-stream-close\n'],
    ['// oxlint-disable\n'],
    ['/* eslint drainguard/no-early-stream-close: "off" */\n'],
    ['/* eslint some-plugin/some-rule: "error" */\n'],
    ['/* global fetch */\n'],
    ['/* globals fetch */\n'],
    ['/* exported readAll */\n'],
    ['/* eslint-env node */\n'],
    ['\uFEFFexport const a = 1;\n'],
    ['// a file that ends in an open directive /* eslint-disable'],
  ])('keeps %j with ESLint', (text) => {
    expect(needsESLintDirectives(text)).toBe(true);
  });
});
