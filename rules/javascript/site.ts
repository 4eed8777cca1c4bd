import type { TSESTree } from '@typescript-eslint/utils';
import type { CloseKind } from '../contract/messages.js';
import type { Node } from './ast.js';
import type { StreamResolver } from './streams.js';

/** A close the rule reports (or a jump rewritten with it), as the fix planner takes it. */
export interface StreamSite {
  node: Node;
  kind: CloseKind;
  line: number;
  /** 1-based, as ESLint reports it. */
  column: number;
  /** The rule's stream resolver of this run (what it knows of the file's streams), handed on with its report. */
  streams?: StreamResolver;
  /** The reported close this jump follows (`body.destroy(); return;`): rewritten with it, reported as its site. */
  partOf?: StreamSite;
  /** A call of a function of the module that closes the stream (`closeStream(status, controller)`): what it closes. */
  helper?: HelperCall;
}

/** What a reported call of a helper reaches: the helper, the close in it, and the call's argument it closes. */
export interface HelperCall {
  /** The called function. */
  fn: Node;
  /** The close the call reaches (in the helper, or in a helper it calls in turn). */
  close: TSESTree.CallExpression;
  /** The call's argument that is closed, or null where the helper closes a stream of its own (`this.controller`). */
  argument: Node | null;
}

/**
 * Where a text offset is (line 1-based, column 0-based), as the host's SourceCode tells (ESLint's and oxlint's both
 * do): a node's own `loc` is not read, since drainguard's native parser gives nodes a `range` only.
 */
export interface Locator {
  getLocFromIndex(index: number): { line: number; column: number };
}

/** The site at a node the rule reports (or a jump rewritten with such a close). */
export function siteAt(node: Node, kind: CloseKind, locator: Locator, extra: Pick<StreamSite, 'streams' | 'partOf' | 'helper'> = {}): StreamSite {
  const { line, column } = locator.getLocFromIndex(node.range[0]);
  return { node, kind, line, column: column + 1, ...extra };
}

/** A node's start and end as a report's `loc` (what ESLint would take from the node's own `loc`). */
export function locationOf(node: Node, locator: Locator): { start: { line: number; column: number }; end: { line: number; column: number } } {
  return { start: locator.getLocFromIndex(node.range[0]), end: locator.getLocFromIndex(node.range[1]) };
}
