import type { TSESTree } from '@typescript-eslint/utils';
import { AST_NODE_TYPES } from '@typescript-eslint/types';
import { brief, type CloseKind } from '../contract/messages.js';
import type { Family } from '../core/effect.js';
import { asyncLoopIterable, propertyName, unwrap, type Node } from './ast.js';
import type { CodePathRecorder } from './code-paths.js';
import { isLexicallyExempt } from './exempt.js';
import { DRAIN_HAND_OFF_METHOD } from './hand-off.js';
import { calleeText } from './helper-calls.js';
import type { HelperCloses, HelperReach } from './helper-closes.js';
import { innermostLeftAsyncLoop } from './jumps.js';
import { memo } from './memo.js';
import type { StreamResolver } from './streams.js';
import type { TypeOracle } from './types.js';

/** A close recorded in a code path, to be reported if a terminal event may be pending there. */
export interface RecordedSite {
  node: Node;
  /** Which response the close belongs to; resolved after the traversal (class fields may be assigned later in the file). */
  family: () => Family | null;
  messageId: CloseKind;
  data: Record<string, string>;
  /** Data of the message known only once the family is (what a helper's call reaches). */
  describe?: () => Record<string, string>;
  receiver: Node;
  /** The close method of an explicit close. */
  method?: string;
  /** A jump that adds no close of its own: the stream it leaves was already closed just before it (reported there). */
  closedBefore?: () => boolean;
  /** A call of a helper: what it reaches (resolved with the family). */
  reach?: () => HelperReach | null;
}

/** What the sites read of the file. */
export interface SiteSource {
  text: string;
  getText(node: Node): string;
}

/**
 * The sites of a file, recorded into the code path open where they are written: explicit closes (`body.cancel()`),
 * calls of the file's helpers that close (`closeStream(controller)`), and jumps that leave a `for await` (an implicit
 * close of what it iterates). A close written in an exempt place, or on a receiver the types rule out, is no site.
 */
export class SiteRecorder {
  /** The calls of helpers recorded as sites, by call: a jump right after one adds no close of its own. */
  private readonly helperCallSites = new Map<Node, RecordedSite>();

  constructor(
    private readonly paths: Pick<CodePathRecorder<RecordedSite>, 'top'>,
    private readonly sourceCode: SiteSource,
    private readonly streams: StreamResolver,
    private readonly closeMethods: ReadonlySet<string>,
    private readonly typeOracle: TypeOracle | undefined,
    private readonly helpers: HelperCloses<RecordedSite> | null,
  ) {}

  /** The listener of close calls (the selector of closeCallSelector, recorder.ts). */
  readonly closeCall = (node: TSESTree.CallExpression): void => {
    const callee = unwrap(node.callee);
    if (callee?.type !== AST_NODE_TYPES.MemberExpression) return;
    const method = propertyName(callee);
    if (!method || !this.closeMethods.has(method)) return;
    const receiver = callee.object;
    this.record({
      node,
      family: memo(() => this.streams.closeFamilyFor(receiver, method)),
      receiver,
      method,
      messageId: 'explicitClose',
      data: { stream: brief(this.sourceCode.getText(receiver)), method },
    });
  };

  /** The listener of every call, where the file has helpers: a call of one is a site. */
  readonly helperCall = (call: TSESTree.CallExpression): void => {
    const helpers = this.helpers;
    if (!helpers || !this.paths.top() || !helpers.calls(call)) return;
    const site = helperCallSite(call, helpers, this.sourceCode);
    this.helperCallSites.set(call, site);
    this.record(site);
  };

  /** A `break`, `continue` or `return` (to `target`): a site where it leaves a `for await`, unless the loop's body hands the stream to a drain. */
  jump(node: TSESTree.BreakStatement | TSESTree.ContinueStatement | TSESTree.ReturnStatement, target: Node | null): void {
    const loop = innermostLeftAsyncLoop(node, target);
    if (!loop) return;
    const { sourceCode, streams } = this;
    const iterable = iteratedExpression(loop);
    if (handsOffToDrain(loop, iterable, sourceCode.text)) return;
    const family = memo(() => streams.asyncLoopFamily(loop));
    this.record({
      node,
      family,
      closedBefore: () => {
        const left = family();
        const call = left === null ? null : callRightBefore(node);
        if (!call) return false;
        const helperSite = this.helperCallSites.get(call);
        if (helperSite) return helperSite.family() === left;
        const receiver = closeReceiver(call, this.closeMethods);
        return receiver !== null && streams.closeFamily(receiver) === left;
      },
      receiver: iterable,
      messageId: 'implicitClose',
      data: { statement: node.type === AST_NODE_TYPES.ReturnStatement ? 'return' : node.type === AST_NODE_TYPES.BreakStatement ? 'break' : 'continue', stream: brief(sourceCode.getText(iterable)) },
    });
  }

  private record(site: RecordedSite): void {
    if (isLexicallyExempt(site.node)) return;
    if (site.messageId !== 'helperClose' && this.typeOracle?.confirmsReceiver(site.receiver) === false) return;
    this.paths.top()?.record({ kind: 'site', site });
  }
}

/** The site of a call of a helper: its family and the message's stream and method are those of the close it reaches. */
function helperCallSite(call: TSESTree.CallExpression, helpers: HelperCloses<RecordedSite>, sourceCode: SiteSource): RecordedSite {
  const reach = memo(() => helpers.reach(call));
  return {
    node: call,
    family: () => reach()?.family ?? null,
    reach,
    receiver: call,
    messageId: 'helperClose',
    data: { call: brief(sourceCode.getText(call)), helper: calleeText(call) },
    describe: () => {
      const found = reach();
      const stream = found?.helper.argument ? sourceCode.getText(found.helper.argument) : (found?.receiverText ?? '');
      return { stream: brief(stream), method: found?.method ?? '' };
    },
  };
}

/** The call written as the statement right before `node` (`body.destroy(); return;`, `stop(controller); break;`), if any. */
function callRightBefore(node: Node): Node | null {
  const parent = node.parent;
  const statements: readonly Node[] = parent?.type === AST_NODE_TYPES.BlockStatement ? parent.body : parent?.type === AST_NODE_TYPES.SwitchCase ? parent.consequent : [];
  const previous = statements[statements.indexOf(node) - 1];
  if (previous?.type !== AST_NODE_TYPES.ExpressionStatement) return null;
  const call = unwrap(previous.expression);
  return call?.type === AST_NODE_TYPES.CallExpression ? call : null;
}

/** The receiver of a close call (`body` of `body.destroy()`), if `call` is one. */
function closeReceiver(call: Node, closeMethods: ReadonlySet<string>): Node | null {
  const callee = call.type === AST_NODE_TYPES.CallExpression ? unwrap(call.callee) : null;
  return callee?.type === AST_NODE_TYPES.MemberExpression && closeMethods.has(propertyName(callee) ?? '') ? callee.object : null;
}

function handsOffToDrain(loop: Node, iterable: Node, text: string): boolean {
  if (loop.type !== AST_NODE_TYPES.ForOfStatement || iterable.type !== AST_NODE_TYPES.Identifier) return false;
  const [start, end] = loop.body.range;
  return text.slice(start, end).includes(`${iterable.name}.${DRAIN_HAND_OFF_METHOD}(`);
}

/** The stream a `for await` iterates, as written: `x` of `for await (… of x)` or the `__asyncValues(x)` argument. */
function iteratedExpression(loop: Node): Node {
  return asyncLoopIterable(loop) ?? loop;
}
