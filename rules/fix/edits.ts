import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { walk, type Node } from '../javascript/ast.js';
import { variablesInScope } from '../javascript/scope.js';
import { arrowText, type GiveUp } from './give-up.js';
import type { HelperBinding } from './helper-binding.js';
import { HAND_OFF_METHOD } from './helpers.js';
import type { Edit } from '../contract/apply-edits.js';
import type { DataHandlerPlan } from './plan-data-handler.js';
import { enclosingFunction, isStatementListItem, previousStatement } from './plan-scope.js';
import type { IteratorTapPlan, LoopPlan, ReaderPlan } from './plan.js';
import type { Style } from './style.js';
import { AST_NODE_TYPES } from '@typescript-eslint/types';

/** Statements, one a line; a nested array is a block's body, one level deeper. */
type Lines = ReadonlyArray<string | Lines>;

function range(node: Node): [number, number] {
  return node.range;
}

/** Collects the edits of every plan of a file, laid out in its style; the helpers come from `helpers`. */
export class EditBuilder {
  private readonly changes: Edit[] = [];
  private readonly namesByFunction = new Map<Node | null, Set<string>>();

  constructor(
    private readonly text: string,
    private readonly sourceCode: SourceCode,
    private readonly style: Style,
    private readonly helpers: HelperBinding,
  ) {}

  /** `await reader.cancel();` -> `void drainReader(reader, () => reader.cancel());` (awaited where the reader is read again). */
  reader(plan: ReaderPlan): void {
    const { statement } = plan;
    const helper = this.helpers.use(plan.method === 'next' ? 'drainIterator' : plan.bytes ? 'drainReader' : 'drainMessages');
    const call = this.call(`${plan.detached ? 'void' : 'await'} ${helper}`, [plan.drained, this.arrow(plan.giveUp, statement)], statement);
    const drained = plan.drained.replace(/[!?]+$/, '');
    const drain: Lines = plan.optional ? [`if (${drained}) {`, [call], '}'] : [call];
    let replacement: Lines = drain;
    // The close stays for errors and early stops (the flag not set). Written without a negated test before a plain
    // `else` (ESLint's and unicorn's no-negated-condition); `if (!flag) … else if (…)` is no such test.
    if (plan.flag !== null) {
      replacement = plan.optional
        ? [`if (!${plan.flag}) {`, [plan.closeText], `} else if (${drained}) {`, [call], '}']
        : [`if (${plan.flag}) {`, [call], '} else {', [plan.closeText], '}'];
    }
    this.replaceStatement(statement, replacement);
    if (plan.finallyOf) {
      // Only the success path drains: a failure closes at once, as before, and is rethrown.
      const block = plan.finallyOf.block;
      const errorName = this.freshLocal(plan.finallyOf, 'error');
      const at = range(block)[1];
      const catchText = this.block(plan.finallyOf, [` catch (${errorName}) {`, [plan.closeText, `throw ${errorName}`], '}']);
      this.changes.push({ start: at, end: at, text: catchText });
    }
  }

  /** `const messages = parse(res.body)` -> `const tapped = tapBody(res.body); const messages = parse(tapped.body)`, and the close -> `void tapped.drain();`. */
  iteratorTap(plan: IteratorTapPlan): void {
    const { declaration, argument, what } = plan;
    const tapped = this.freshLocal(declaration, 'tapped');
    const tap = this.call(`const ${tapped} = ${this.helpers.use(what === 'response' ? 'tapResponse' : 'tapBody')}`, [this.sourceCode.getText(argument)], declaration);
    const [start] = range(declaration);
    const separator = this.oneLine(declaration) ? ' ' : `${this.style.eol}${indentAt(this.text, start)}`;
    this.changes.push({ start, end: start, text: `${tap}${this.terminator(declaration, true)}${separator}` });
    const [argumentStart, argumentEnd] = range(argument);
    this.changes.push({ start: argumentStart, end: argumentEnd, text: `${tapped}.${what}` });
    this.replaceStatement(plan.statement, [`void ${tapped}.drain()`]);
  }

  /** `res.destroy();` in a 'data' handler -> `drainNodeStream(res, () => res.destroy());` (the statements after it stay). */
  dataHandler(plan: DataHandlerPlan): void {
    const call = this.call(this.helpers.use('drainNodeStream'), [plan.stream, this.arrow(plan.giveUp, plan.statement)], plan.statement);
    this.replaceStatement(plan.statement, [call]);
  }

  /** `for await (const x of source)` -> `const events = drainable(source, …); for await (const x of events)`, and `events.drainInBackground()` where the completion branch leaves or closes. */
  loop(plan: LoopPlan): void {
    const { loop, drain } = plan;
    const holder: Node = loop.parent?.type === AST_NODE_TYPES.LabeledStatement ? loop.parent : loop;
    const name = this.freshLocal(loop, 'events');
    const declarations: string[] = [];
    let source = this.sourceCode.getText(loop.right);
    let declaration: string;
    if (drain.kind === 'body') {
      declaration = this.call(`const ${name} = ${this.helpers.use('drainableBody')}`, [source], holder);
    } else {
      let drainRest: string;
      if (drain.kind === 'tap') {
        // The parser reads a stand-in; the drain reads the real body's reader as raw bytes.
        const tapped = this.freshLocal(loop, 'tapped');
        const [tapStart, tapEnd] = range(drain.argument);
        const [rightStart] = range(loop.right);
        declarations.push(this.call(`const ${tapped} = ${this.helpers.use(drain.what === 'response' ? 'tapResponse' : 'tapBody')}`, [this.sourceCode.getText(drain.argument)], holder));
        source = `${source.slice(0, tapStart - rightStart)}${tapped}.${drain.what}${source.slice(tapEnd - rightStart)}`;
        drainRest = `${tapped}.drain`;
      } else {
        const rest = this.freshLocal(loop, 'rest');
        const parameter = this.style.arrowParens ? `(${rest})` : rest;
        drainRest = `${parameter} => ${this.helpers.use(drain.bytes ? 'drainBodyChunks' : 'drainIterator')}(${rest}, ${this.arrow(drain.giveUp, loop)})`;
      }
      declaration = this.call(`const ${name} = ${this.helpers.use('drainable')}`, [source, drainRest], holder);
    }
    const holderStart = range(holder)[0];
    const separator = this.oneLine(holder) ? ' ' : `${this.style.eol}${indentAt(this.text, holderStart)}`;
    const terminated = [...declarations, declaration].map((line) => `${line}${this.terminator(holder, true)}`);
    this.changes.push({ start: holderStart, end: holderStart, text: `${terminated.join(separator)}${separator}` });
    const [rightStart, rightEnd] = range(loop.right);
    this.changes.push({ start: rightStart, end: rightEnd, text: name });

    const handOff = `${name}.${HAND_OFF_METHOD}()`;
    const replacedCloses = new Set(plan.changes.filter((change) => change.kind === 'close').map((change) => change.statement));
    for (const change of plan.changes) {
      const [start, end] = range(change.statement);
      if (change.kind === 'close') {
        this.replaceStatement(change.statement, [handOff]);
        continue;
      }
      // A jump right after a replaced close already follows the hand-off.
      const previous = previousStatement(change.statement);
      if (previous && replacedCloses.has(previous)) continue;
      if (isStatementListItem(change.statement)) {
        const separator = this.oneLine(change.statement) ? ' ' : `${this.style.eol}${indentAt(this.text, start)}`;
        this.changes.push({ start, end: start, text: `${handOff}${this.terminator(change.statement, true)}${separator}` });
      } else {
        this.braced(change.statement, [handOff, this.text.slice(start, end)]);
      }
    }
  }

  /** Every edit so far, and the helpers' (an import, or the file's own copy of the pieces it uses). */
  edits(): Edit[] {
    if (this.changes.length === 0) return [];
    return [...this.changes, ...this.helpers.edits()];
  }

  /** `statement` replaced by `lines` (nested arrays are indented one level); braced where it stood without braces under an `if`. */
  private replaceStatement(statement: Node, lines: Lines): void {
    const [start, end] = range(statement);
    if (lines.length > 1 && !isStatementListItem(statement)) {
      this.braced(statement, lines);
      return;
    }
    this.changes.push({ start, end, text: this.block(statement, lines, this.terminator(statement)) });
  }

  /** Replaces a statement in a brace-less position (`if (x) stmt;`) by a block of `lines`; a following `else` goes on the closing brace's line. */
  private braced(statement: Node, lines: Lines): void {
    const [start, end] = range(statement);
    // Laid out as the statement that holds it (`if (done) break;` on a line of its own gets a block of lines).
    const block = this.block(statement.parent ?? statement, ['{', lines, '}']);
    const parent = statement.parent;
    const elseAfter = parent?.type === AST_NODE_TYPES.IfStatement && parent.consequent === statement && parent.alternate ? /^\s*(?=else\b)/.exec(this.text.slice(end)) : null;
    if (elseAfter) this.changes.push({ start, end: end + elseAfter[0].length, text: `${block} ` });
    else this.changes.push({ start, end, text: block });
  }

  /**
   * Lines at the indentation of `at`'s line, nested arrays one level deeper, each statement ended as the file ends
   * them (`last`: how a statement on the outermost level ends); all on one line where `at` shares its line with other
   * code (one-line and minified code), so the rewrite keeps the layout it found.
   */
  private block(at: Node, lines: Lines, last = this.style.semi): string {
    const oneLine = this.oneLine(at);
    const end = (line: string, depth: number): string => {
      if (line.endsWith('{') || line.startsWith('}') || line.endsWith(';')) return line;
      return `${line}${oneLine ? ';' : depth === 0 ? last : this.style.semi}`;
    };
    const indent = indentAt(this.text, range(at)[0]);
    const { eol, unit } = this.style;
    const out: string[] = [];
    const add = (items: Lines, depth: number): void => {
      for (const line of items) {
        if (typeof line !== 'string') {
          add(line, depth + 1);
          continue;
        }
        const text = end(line, depth);
        if (oneLine || out.length === 0) out.push(text);
        else out.push(`${indent}${unit.repeat(depth)}${text.replace(/\r?\n/g, `${eol}${unit.repeat(depth)}`)}`);
      }
    };
    add(lines, 0);
    return out.join(oneLine ? ' ' : eol);
  }

  /** Whether `node` shares its line with other code before or after it (the rewrite then stays on that line). */
  private oneLine(node: Node): boolean {
    const [start, end] = range(node);
    const lineStart = this.text.lastIndexOf('\n', start - 1) + 1;
    const lineEnd = this.text.indexOf('\n', end);
    const before = this.text.slice(lineStart, start);
    const after = this.text.slice(end, lineEnd < 0 ? this.text.length : lineEnd);
    return /\S/.test(before) || /[^\s;]/.test(after.replace(/^\s*\/\/.*$/, ''));
  }

  /**
   * What ends a statement put where `statement` stood: the file's semicolon, and also one where the file omits them but
   * more code follows on the same line (`{ void drainReader(reader); return }`: ASI would not split there).
   * `inserted`: the statement goes before `statement` rather than in its place.
   */
  private terminator(statement: Node, inserted = false): string {
    if (this.style.semi) return ';';
    if (inserted) return this.oneLine(statement) ? ';' : '';
    const [, end] = range(statement);
    if (this.text[end - 1] === ';') return ';';
    const lineEnd = this.text.indexOf('\n', end);
    const after = this.text.slice(end, lineEnd < 0 ? this.text.length : lineEnd).trim();
    return after === '' || after.startsWith('}') || after.startsWith('//') ? '' : ';';
  }

  /** `callee(a, b)`, or one argument a line (with the file's trailing comma) where it would run past the line width. */
  private call(callee: string, args: string[], at: Node): string {
    const flat = `${callee}(${args.join(', ')})`;
    const indent = indentAt(this.text, range(at)[0]);
    if (this.oneLine(at) || visualLength(`${indent}${flat};`, this.style.unit) <= this.style.width) return flat;
    const { eol, unit, trailingComma } = this.style;
    const lines = args.map((arg, index) => `${eol}${indent}${unit}${arg}${index < args.length - 1 || trailingComma ? ',' : ''}`);
    return `${callee}(${lines.join('')}${eol}${indent})`;
  }

  private arrow(giveUp: GiveUp, at: Node): string {
    const param = giveUp.param === null ? '' : this.freshLocal(at, giveUp.param);
    return arrowText(giveUp, param, this.style.arrowParens);
  }

  /** Names a new local of `fn` could clash with: identifiers it uses (not property names) and variables in scope there. */
  private namesUsedIn(fn: Node | null): Set<string> {
    const names = new Set<string>();
    const root = fn ?? this.sourceCode.ast;
    walk(root, this.sourceCode.visitorKeys, (node) => {
      if (node.type !== AST_NODE_TYPES.Identifier) return;
      const parent = node.parent;
      if (parent?.type === AST_NODE_TYPES.MemberExpression && parent.property === node && !parent.computed) return;
      if (parent?.type === AST_NODE_TYPES.Property && parent.key === node && !parent.computed && !parent.shorthand) return;
      names.add(node.name);
    });
    for (const variable of variablesInScope(this.sourceCode.getScope(root))) names.add(variable.name);
    return names;
  }

  /** A name not used in the function that holds `node` (nor by another rewrite there): names are chosen per function, not numbered across the file. */
  private freshLocal(node: Node, base: string): string {
    const fn = enclosingFunction(node);
    let taken = this.namesByFunction.get(fn);
    if (!taken) this.namesByFunction.set(fn, (taken = this.namesUsedIn(fn)));
    for (let suffix = 1; ; suffix++) {
      const name = suffix === 1 ? base : `${base}${suffix}`;
      if (taken.has(name)) continue;
      taken.add(name);
      return name;
    }
  }
}

/** The length of a line with tabs counted as one indentation unit's width. */
function visualLength(line: string, unit: string): number {
  return line.replace(/\t/g, unit === '\t' ? '  ' : unit).length;
}

/** Leading whitespace of the line that holds `offset`. */
export function indentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}
