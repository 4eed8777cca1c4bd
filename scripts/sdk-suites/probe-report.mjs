// The probe's results (probe.mjs), original against rewrite: one row per caller and body after the
// terminal event, and whether the rewrite is worse than the original beyond the issue's bounds:
//   - bytes read after the terminal event: more than the original's + the drain's byte limit + 64 KiB
//     (one chunk past the limit), at the median or the maximum;
//   - connections: more than the original's + 1, back to back or paced;
//   - the caller's wait after the terminal event: more than 100 ms over the original's, at the
//     median or the maximum;
//   - more calls with an error, an error the original did not have, or anything unhandled;
//   - other messages than the original delivered, call by call;
//   - bodies still open once every drain should have ended (the budget, plus a margin).
import { BODY_MODES, PACED_PAUSE_MS } from './probe-calls.mjs';

/** The drain's byte limit when `drainguard fix` is not told another (`--drain-max-bytes`). */
export const DEFAULT_DRAIN_MAX_BYTES = 128 * 1024;
/** What a drain may read past its limit: the rest of the chunk that crossed it (undici's are up to 64 KiB). */
export const BYTES_SLACK = 64 * 1024;
export const CONNECTIONS_SLACK = 1;
export const WAIT_SLACK_MS = 100;

/** The byte limit a fix run was given, from its arguments. @param {string[]} fixArgs */
export function drainMaxBytes(fixArgs) {
  for (const [i, arg] of fixArgs.entries()) {
    const value = arg.startsWith('--drain-max-bytes=') ? arg.slice('--drain-max-bytes='.length) : arg === '--drain-max-bytes' ? fixArgs[i + 1] : undefined;
    if (value !== undefined && /^\d+$/.test(value)) return Number(value);
  }
  return DEFAULT_DRAIN_MAX_BYTES;
}

export const CALLER_LABELS = { native: 'Node fetch', 'node-fetch': 'node-fetch 2' };
export const MODE_LABELS = {
  end: 'ends 20 ms later',
  silent: 'held open, silent',
  trickle: 'a comment every 100 ms',
  flood: 'a flood of comments',
  endless: 'one endless line',
  reset: 'reset 20 ms later',
};

/** The median (nearest rank) and the maximum; nulls when there are no values. @param {number[]} values */
export function p50max(values) {
  if (values.length === 0) return { p50: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[Math.ceil(sorted.length / 2) - 1], max: sorted[sorted.length - 1] };
}

/**
 * One caller and body of a probe: its back-to-back and paced scenarios taken together (connections apart).
 * @param {{ backToBack: any, paced: any }} scenarios @param {string[] | undefined} expected
 */
export function summarize({ backToBack, paced }, expected) {
  const scenarios = [backToBack, paced];
  const calls = scenarios.flatMap((scenario) => scenario.calls);
  const unhandled = scenarios.flatMap((scenario) => scenario.unhandled);
  const errors = calls.flatMap((call) => (call.error ? [call.error] : []));
  return {
    connectionsBackToBack: backToBack.connections,
    connectionsPaced: paced.connections,
    requests: backToBack.requests + paced.requests,
    bytes: p50max(calls.map((call) => call.bytesAfterTerminal)),
    wait: p50max(calls.flatMap((call) => (call.waitMs === null ? [] : [call.waitMs]))),
    letGo: p50max(scenarios.flatMap((scenario) => scenario.letGoMs)),
    closedEarly: backToBack.closedEarly + paced.closedEarly,
    openAtEnd: backToBack.openAtEnd + paced.openAtEnd,
    errors: errors.length + unhandled.length,
    errorTexts: [...new Set([...errors, ...unhandled])],
    messages: calls.map((call) => call.messages),
    expected: expected ? calls.every((call) => JSON.stringify(call.messages) === JSON.stringify(expected)) : null,
  };
}

/**
 * Why the rewrite's row is worse than the original's (empty: it is not): each reason with its kind
 * (bytes, connections, wait, errors, messages, open).
 * @param {ReturnType<typeof summarize>} before @param {ReturnType<typeof summarize>} after @param {{ maxBytes: number }} limits
 */
export function rowWorse(before, after, { maxBytes }) {
  /** @type {{ kind: string, text: string }[]} */
  const reasons = [];
  const push = (kind, text) => reasons.push({ kind, text });
  const bytesBound = (original) => original + maxBytes + BYTES_SLACK;
  for (const stat of /** @type {const} */ (['p50', 'max'])) {
    const [was, is] = [before.bytes[stat] ?? 0, after.bytes[stat] ?? 0];
    if (is > bytesBound(was)) push('bytes', `read ${is} bytes after the terminal event (${stat}), over the original's ${was} + ${maxBytes} + ${BYTES_SLACK}`);
  }
  if (after.connectionsBackToBack > before.connectionsBackToBack + CONNECTIONS_SLACK) {
    push('connections', `${after.connectionsBackToBack} connections back to back, over the original's ${before.connectionsBackToBack} + ${CONNECTIONS_SLACK}`);
  }
  if (after.connectionsPaced > before.connectionsPaced + CONNECTIONS_SLACK) {
    push('connections', `${after.connectionsPaced} connections paced, over the original's ${before.connectionsPaced} + ${CONNECTIONS_SLACK}`);
  }
  for (const stat of /** @type {const} */ (['p50', 'max'])) {
    const [was, is] = [before.wait[stat] ?? 0, after.wait[stat] ?? 0];
    if (is > was + WAIT_SLACK_MS) push('wait', `the caller waited ${is} ms after the terminal event (${stat}), over the original's ${was} + ${WAIT_SLACK_MS}`);
  }
  const newErrors = after.errorTexts.filter((text) => !before.errorTexts.includes(text));
  if (after.errors > before.errors || newErrors.length > 0) {
    push('errors', `${after.errors} errors against ${before.errors}${newErrors.length ? `: ${newErrors.join(' | ')}` : ''}`);
  }
  if (JSON.stringify(after.messages) !== JSON.stringify(before.messages)) push('messages', 'other messages than the original delivered');
  if (after.openAtEnd > before.openAtEnd) push('open', `${after.openAtEnd} bodies still open when every drain should have ended, against ${before.openAtEnd}`);
  return reasons;
}

/**
 * The rows of a probe, original (before) against rewrite (after), for the callers and bodies both ran.
 * @param {any} before @param {any} after @param {{ maxBytes: number }} limits
 */
export function probeRows(before, after, limits) {
  const rows = [];
  for (const caller of Object.keys(after?.callers ?? {})) {
    for (const mode of BODY_MODES) {
      const was = before?.callers?.[caller]?.[mode];
      const is = after.callers[caller][mode];
      if (!was || !is) continue;
      const summaryBefore = summarize(was, before.expected);
      const summaryAfter = summarize(is, after.expected);
      rows.push({ caller, mode, before: summaryBefore, after: summaryAfter, worse: rowWorse(summaryBefore, summaryAfter, limits) });
    }
  }
  return rows;
}

/**
 * The rows worse only by the caller's wait or the bytes read (what a loaded machine moves in a given time: noise as
 * often as not): measured again. A row with more connections, errors, other messages or bodies left open is not.
 * @param {any} before @param {any} after @param {{ maxBytes: number }} limits
 */
export function rowsToRemeasure(before, after, limits) {
  if (!before || !after || before.error || after.error) return [];
  return probeRows(before, after, limits).filter((row) => row.worse.length > 0 && row.worse.every((reason) => reason.kind === 'wait' || reason.kind === 'bytes'));
}

/**
 * Puts the second measurement of some rows into both probes (in place), and notes on the rewrite's
 * probe which rows were measured again and why.
 * @param {any} before @param {any} after @param {any} againBefore @param {any} againAfter
 * @param {{ caller: string, mode: string, worse: { text: string }[] }[]} rows
 */
export function mergeRemeasured(before, after, againBefore, againAfter, rows) {
  after.remeasured = [];
  for (const row of rows) {
    const [was, is] = [againBefore?.callers?.[row.caller]?.[row.mode], againAfter?.callers?.[row.caller]?.[row.mode]];
    if (!was || !is) continue;
    before.callers[row.caller][row.mode] = was;
    after.callers[row.caller][row.mode] = is;
    after.remeasured.push({ caller: row.caller, mode: row.mode, reasons: row.worse.map((reason) => reason.text) });
  }
}

/** Whether the probe of the rewrite failed or any of its rows is worse. @param {any} before @param {any} after @param {{ maxBytes: number }} limits */
export function probeWorse(before, after, limits) {
  if (!after) return false;
  if (after.error) return true;
  if (!before || before.error) return false;
  return probeRows(before, after, limits).some((row) => row.worse.length > 0);
}

const pair = (stats) => (stats.p50 === null ? '–' : `${stats.p50} / ${stats.max}`);

/**
 * The probe's table in Markdown, original → rewrite in each cell, and the reasons of each row that is worse.
 * @param {any} before @param {any} after @param {{ maxBytes: number }} limits
 */
export function formatProbeTable(before, after, limits) {
  if (!after && !before) return ['(no probe call for this SDK)'];
  const failures = [];
  if (before?.error) failures.push(`probe of the original failed: ${before.error}`);
  if (after?.error) failures.push(`probe of the rewrite failed: ${after.error}`);
  if (failures.length) return failures;
  const calls = after.calls;
  const lines = [
    `${calls} calls back to back and ${calls} calls ${PACED_PAUSE_MS} ms apart per row, each on fresh servers; every cell original → rewrite; bytes and waits over all ${2 * calls} calls. ` +
      `Worse: bytes over the original's + ${limits.maxBytes} + ${BYTES_SLACK}, connections over the original's + ${CONNECTIONS_SLACK}, a wait over the original's + ${WAIT_SLACK_MS} ms, a new error, other messages, a body left open.`,
    '',
    `| caller | after the terminal event | connections, back to back | connections, ${PACED_PAUSE_MS} ms apart | bytes read after it, p50 / max | caller's wait after it, ms, p50 / max | body closed or ended after it, ms, p50 / max | errors | messages | worse |`,
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  const rows = probeRows(before, after, limits);
  for (const row of rows) {
    const { before: b, after: a } = row;
    const open = (s) => (s.openAtEnd ? ` (${s.openAtEnd} left open)` : '');
    const messages = JSON.stringify(a.messages) === JSON.stringify(b.messages) ? (a.expected === false ? 'same, NOT the expected' : 'same') : 'DIFFERENT';
    lines.push(
      `| ${CALLER_LABELS[row.caller] ?? row.caller} | ${MODE_LABELS[row.mode] ?? row.mode} | ${b.connectionsBackToBack} → ${a.connectionsBackToBack} | ${b.connectionsPaced} → ${a.connectionsPaced} | ` +
        `${pair(b.bytes)} → ${pair(a.bytes)} | ${pair(b.wait)} → ${pair(a.wait)} | ${pair(b.letGo)}${open(b)} → ${pair(a.letGo)}${open(a)} | ${b.errors} → ${a.errors} | ${messages} | ${row.worse.length ? '**yes**' : 'no'} |`,
    );
  }
  const worse = rows.filter((row) => row.worse.length);
  if (worse.length) {
    lines.push('', 'Where the rewrite is worse than the original:');
    for (const row of worse) lines.push(`- ${CALLER_LABELS[row.caller] ?? row.caller}, ${MODE_LABELS[row.mode] ?? row.mode}: ${row.worse.map((reason) => reason.text).join('; ')}`);
  }
  const errors = rows.flatMap((row) =>
    [['original', row.before], ['rewrite', row.after]].flatMap(([which, s]) =>
      s.errorTexts.length ? [`- ${CALLER_LABELS[row.caller] ?? row.caller}, ${MODE_LABELS[row.mode] ?? row.mode}, ${which}: ${s.errorTexts.join(' | ')}`] : [],
    ),
  );
  if (errors.length) lines.push('', 'Errors:', ...errors);
  const again = after.remeasured ?? [];
  if (again.length) {
    lines.push('', 'Worse only by the wait or the bytes at first, so measured again (original and rewrite), the table shows the second run:');
    for (const row of again) lines.push(`- ${CALLER_LABELS[row.caller] ?? row.caller}, ${MODE_LABELS[row.mode] ?? row.mode}, first run: ${row.reasons.join('; ')}`);
  }
  return lines;
}
