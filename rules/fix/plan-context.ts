import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { Node } from '../javascript/ast.js';
import { BranchTestClassifier } from '../javascript/branch-tests.js';
import type { StreamResolver } from '../javascript/streams.js';
import { DEFAULT_TERMINAL_PATTERNS, compilePatterns } from '../javascript/words.js';

export interface PlanOptions {
  /** The rule's `terminalPatterns` (to recognise the flag a `finally` can test). */
  terminalPatterns?: readonly string[];
}

/** What every step of the planner reads: the file, its streams as the rule resolved them, and its branch tests. */
export interface PlanContext {
  sourceCode: SourceCode;
  streams: StreamResolver;
  text(node: Node): string;
  /** Made on first use: only a close in a `finally` after a `catch` needs it. */
  classifier(): BranchTestClassifier;
}

export function planContext(sourceCode: SourceCode, streams: StreamResolver, options: PlanOptions): PlanContext {
  const text = (node: Node): string => sourceCode.getText(node);
  let classifier: BranchTestClassifier | undefined;
  return {
    sourceCode,
    streams,
    text,
    classifier: () => (classifier ??= new BranchTestClassifier(streams, compilePatterns(options.terminalPatterns ?? DEFAULT_TERMINAL_PATTERNS), text)),
  };
}
