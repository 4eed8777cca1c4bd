import type { SharedRuleOptions } from '../contract/rule-options.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from '../contract/vocabulary.js';
import { DEFAULT_PYTHON_CLOSE_METHODS } from './streams.js';
import { terminalTextFor } from './test-headers.js';

/** The Python analysis's view of the rule options: compiled patterns and the close methods as a set. */
export interface PythonAnalysisOptions {
  patterns: readonly RegExp[];
  closeMethods: ReadonlySet<string>;
  /** Matches the text of an explicit close call (the pre-filter's first test). */
  explicitClose: RegExp;
  /** What a test must name to recognise a terminal event, where the patterns tell (the pre-filter's second test; test-headers.ts). */
  terminalText: RegExp | null;
}

const cache = new Map<string, PythonAnalysisOptions>();

/** The rule options as the Python analysis uses them (each list given replaces its defaults), compiled once per distinct value. */
export function pythonAnalysisOptions(options: SharedRuleOptions = {}): PythonAnalysisOptions {
  const key = JSON.stringify([options.terminalPatterns ?? null, options.closeMethods ?? null]);
  let compiled = cache.get(key);
  if (!compiled) {
    const methods = options.closeMethods ?? DEFAULT_PYTHON_CLOSE_METHODS;
    const names = methods.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    compiled = {
      patterns: compilePatterns(options.terminalPatterns ?? DEFAULT_TERMINAL_PATTERNS),
      closeMethods: new Set(methods),
      // `[\\s\\\\]*`: spaces or a line continuation may stand around the name.
      explicitClose: names ? new RegExp(`\\.[\\s\\\\]*(?:${names})[\\s\\\\]*\\(`) : /(?!)/,
      terminalText: terminalTextFor(options.terminalPatterns),
    };
    cache.set(key, compiled);
  }
  return compiled;
}
