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
}

/** The site at a node the rule reports (or a jump rewritten with such a close). */
export function siteAt(node: Node, kind: CloseKind, extra: Pick<StreamSite, 'streams' | 'partOf'> = {}): StreamSite {
  return { node, kind, line: node.loc.start.line, column: node.loc.start.column + 1, ...extra };
}
