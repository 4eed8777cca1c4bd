import type { Node } from '../rules/analysis/ast.js';
import { findSites, type FoundSite } from './find-sites.js';
import { isTypeScriptPath } from './language.js';
import { applyEdits, detectLayout, freshName, indentAt, indentBlock, lines, type Edit, type Layout } from './layout.js';
import { planSites, type FlagPlan, type LocalDrainPlan, type Plan } from './plan.js';

export const DEFAULT_DRAIN_TIMEOUT_MS = 1000;

export interface RewriteOptions {
  /** Budget for the drain: after this many ms the original close runs. 0 = drain without a budget. */
  drainTimeoutMs?: number;
}

export interface SiteResult {
  line: number;
  column: number;
  status: 'fixed' | 'manual';
  reason?: string;
}

export interface RewriteResult {
  /** The new text, or null when nothing changed. */
  output: string | null;
  sites: SiteResult[];
  parseError?: string;
}

const BOM = '\uFEFF';

/** Rewrites every site the rule reports in `source` (SPEC §2). Never a half rewrite: a site is fixed whole or left as it was. */
export function rewrite(source: string, filePath: string, options: RewriteOptions = {}): RewriteResult {
  const budget = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  if (!Number.isInteger(budget) || budget < 0) throw new RangeError(`drainTimeoutMs must be a whole number >= 0, got ${budget}`);
  const hasBom = source.startsWith(BOM);
  const text = hasBom ? source.slice(1) : source;
  const { sites, sourceCode, parseError } = findSites(text, filePath);
  if (parseError) return { output: null, sites: [], parseError };
  if (sites.length === 0) return { output: null, sites: [] };

  const plans = planSites(sites, sourceCode);
  const results: SiteResult[] = [];
  const edits: Edit[] = [];
  const taken = new Set<string>();
  const usesSemicolons = /;\s*$/.test(sourceCode.getText(sites[0]!.node as never).trim()) || /;\s*(\r?\n|$)/.test(text);
  const layout = detectLayout(text, isTypeScriptPath(filePath), usesSemicolons);

  for (const plan of plans) {
    if (plan.kind === 'manual') {
      results.push({ ...reportedAt(plan.site), status: 'manual', reason: plan.reason });
    } else if (plan.kind === 'local-drain') {
      edits.push(localDrainEdit(plan, text, layout, budget, taken));
      results.push({ ...reportedAt(plan.site), status: 'fixed', ...unbounded(budget, plan.budget) });
    } else {
      edits.push(flagEdit(plan, text, layout, budget, taken));
      for (const change of plan.changes) {
        results.push({ ...reportedAt(change.site), status: 'fixed', ...unbounded(budget, plan.budget) });
      }
    }
  }
  const siteResults = oneResultPerSite(results);
  if (edits.length === 0) return { output: null, sites: siteResults };
  const output = applyEdits(text, edits);
  return { output: (hasBom ? BOM : '') + output, sites: siteResults };
}

/** A jump rewritten with the close before it (`body.destroy(); return;`) is part of the close's site. */
function reportedAt(site: FoundSite): { line: number; column: number } {
  const reported = site.partOf ?? site;
  return { line: reported.line, column: reported.column };
}

/** One result per reported site, sorted; a site with a manual part is manual. */
function oneResultPerSite(results: SiteResult[]): SiteResult[] {
  const bySite = new Map<string, SiteResult>();
  for (const result of results) {
    const key = `${result.line}:${result.column}`;
    const seen = bySite.get(key);
    if (!seen || (seen.status === 'fixed' && result.status === 'manual')) bySite.set(key, result);
  }
  return [...bySite.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A statement in a block or case list, where several statements may replace it without braces. */
function isStatementListItem(statement: Node): boolean {
  const parent = statement.parent?.type;
  return parent === 'BlockStatement' || parent === 'SwitchCase' || parent === 'Program' || parent === 'StaticBlock';
}

/** Removes a statement; when it stands alone on its line(s), the whole line goes. */
function removeStatementEdit(text: string, statement: Node): Edit {
  const [start, end] = range(statement);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const eol = /^[ \t]*(\r?\n)/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && eol) return { start: lineStart, end: end + eol[0].length, text: '' };
  return { start, end, text: '' };
}

/** SPEC §2: where nothing in scope can end the drain early, the drain is unbounded and the report says so. */
function unbounded(budget: number, action: unknown): { reason?: string } {
  return budget > 0 && !action ? { reason: 'drained without a budget: no AbortController of this request is in scope to end the drain early' } : {};
}

function range(node: Node): [number, number] {
  return node.range as [number, number];
}

function timerCall(layout: Layout, closeText: string, returnsPromise: boolean, budget: number): string {
  const close = returnsPromise ? `void ${closeText}.catch(() => {})` : closeText;
  return `setTimeout(() => {${layout.eol}__INDENT__${layout.unit}${close}${layout.semi}${layout.eol}__INDENT__}, ${budget})`;
}

function withIndent(text: string, indent: string): string {
  return text.replaceAll('__INDENT__', indent);
}

function localDrainEdit(plan: LocalDrainPlan, text: string, layout: Layout, budget: number, taken: Set<string>): Edit {
  const [start, end] = range(plan.statement);
  const indent = indentAt(text, start);
  const u = layout.unit;
  const s = layout.semi;
  const drainLoop = [
    `while (!(await ${plan.reader}.${plan.readMethod}()).done) {`,
    `${u}// drainguard: read to EOF so the connection goes back to the pool`,
    `}`,
  ];
  const inBlock = isStatementListItem(plan.statement);
  const at = inBlock ? indent : indent + u;
  let body = drainLoop;
  if (budget > 0 && plan.budget) {
    const timer = freshName(text, 'drainTimer', taken);
    body = [
      `const ${timer} = ${withIndent(timerCall(layout, plan.budget.text, plan.budget.returnsPromise, budget), at)}${s}`,
      `try {`,
      ...drainLoop.map((line) => `${u}${line}`),
      `} catch {`,
      `${u}// the budget ran out and the original close ended the drain`,
      `} finally {`,
      `${u}clearTimeout(${timer})${s}`,
      `}`,
    ];
  }
  const block = inBlock || body.length === drainLoop.length ? body : ['{', ...body.map((line) => `${u}${line}`), '}'];
  return { start, end, text: lines(layout, indent, block) };
}

function flagEdit(plan: FlagPlan, text: string, layout: Layout, budget: number, taken: Set<string>): Edit {
  const u = layout.unit;
  const s = layout.semi;
  const ts = layout.typescript;
  const loop = plan.loop;
  const outer = loop.parent?.type === 'LabeledStatement' ? (loop.parent as Node) : (loop as Node);
  const [outerStart, outerEnd] = range(outer);
  const indent = indentAt(text, outerStart);
  const flag = freshName(text, 'sawTerminalEvent', taken);
  const returns = plan.changes.some((change) => change.kind === 'return');
  const result = returns ? freshName(text, 'terminalResult', taken) : null;
  const bounded = budget > 0 && plan.budget !== null;
  const timer = bounded ? freshName(text, 'drainTimer', taken) : null;

  const inner: Edit[] = [];
  const body = loop.body as Node;
  const bodyOpen = range(body)[0] + 1;
  const bodyIndent = `${indentAt(text, range(loop)[0])}${u}`;
  inner.push({ start: bodyOpen, end: bodyOpen, text: `${layout.eol}${bodyIndent}if (${flag}) continue${s}` });

  const jumpParents = new Set(plan.changes.filter((change) => change.kind !== 'close').map((change) => change.statement.parent));
  for (const change of plan.changes) {
    if (change.kind === 'close' && jumpParents.has(change.statement.parent)) {
      inner.push(removeStatementEdit(text, change.statement));
      continue;
    }
    const [start, end] = range(change.statement);
    const at = indentAt(text, start);
    const needsBlock = !isStatementListItem(change.statement);
    const statementIndent = needsBlock ? at + u : at;
    const statements = [
      change.kind === 'return' ? `${result} = { value: ${change.returned ?? 'undefined'} }${s}` : null,
      `${flag} = true${s}`,
      timer && plan.budget ? `${timer} ??= ${withIndent(timerCall(layout, plan.budget.text, plan.budget.returnsPromise, budget), statementIndent)}${s}` : null,
      change.kind === 'close' ? null : `continue${s}`,
    ].filter((line): line is string => line !== null);
    const replacement = needsBlock
      ? lines(layout, at, ['{', ...statements.map((line) => `${u}${line}`), '}'])
      : lines(layout, at, statements);
    inner.push({ start, end, text: replacement });
  }

  let loopText = applyEdits(text.slice(outerStart, outerEnd), inner, outerStart);
  const before = [
    `let ${flag} = false${s}`,
    result ? `let ${result}${ts ? ': { value: any } | undefined' : ''}${s}` : null,
    timer ? `let ${timer}${ts ? ': ReturnType<typeof setTimeout> | undefined' : ''}${s}` : null,
  ];
  if (timer) {
    loopText = [
      `try {`,
      `${u}${indentBlock(loopText, layout)}`,
      `} catch (error) {`,
      `${u}if (!${flag}) throw error${s}`,
      `} finally {`,
      `${u}clearTimeout(${timer})${s}`,
      `}`,
    ].join(`${layout.eol}${indent}`);
  }
  const after = result ? [`if (${result}) return ${result}.value${s}`] : [];
  return { start: outerStart, end: outerEnd, text: lines(layout, indent, [...before, loopText, ...after]) };
}

export type { Plan };
