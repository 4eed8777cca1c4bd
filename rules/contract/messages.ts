/** The rule's name in the plugin, and its id in a config (both front ends report under it). */
export const RULE_NAME = 'no-early-stream-close';
export const RULE_ID = `drainguard/${RULE_NAME}`;

/** The rule's docs page: `docs/rules/no-early-stream-close.md` of the repository. */
export const DOCS_URL = 'https://github.com/drainguard/drainguard/blob/main/docs/rules/no-early-stream-close.md';

/**
 * A close at a call (`reader.cancel()`), one made by leaving a `for await` (`break`, `return`, `continue`), or one a
 * called function of the module makes (`closeStream(status, controller)`, whose body aborts the controller).
 */
export type CloseKind = 'explicitClose' | 'implicitClose' | 'helperClose';
export type MessageIds = CloseKind | 'drainInBackground';

/** The report and suggestion texts, with ESLint's `{{placeholders}}`. */
export const MESSAGES: Record<MessageIds, string> = {
  explicitClose:
    '`{{stream}}` is closed with `{{method}}()` after the terminal event `{{event}}` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
  drainInBackground:
    'Hand the result over and drain the rest of the body to EOF in the background, bounded by {{budget}} ms (the rewrite of `drainguard fix`).',
  helperClose:
    '`{{call}}` closes `{{stream}}` with `{{method}}()` in `{{helper}}` after the terminal event `{{event}}` before EOF: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
  implicitClose:
    '`{{statement}}` leaves `for await` over `{{stream}}` after the terminal event `{{event}}` before EOF: leaving the loop cancels the body and destroys the keep-alive connection. Keep reading to EOF with a time budget instead (`drainguard fix`).',
};

/**
 * The Python front end's texts: an explicit close reads as the JavaScript one; a loop left towards the `with` or
 * `finally` that closes the response, and an iteration ended by hand (`raise StopIteration`), are its own shapes.
 */
export const PYTHON_MESSAGES = {
  explicitClose: MESSAGES.explicitClose,
  closingJump:
    '`{{statement}}` leaves the loop after the terminal event `{{event}}` before EOF, and {{closer}} closes `{{stream}}`: the body is not drained and the keep-alive connection is destroyed. Keep reading to EOF with a time budget instead (`drainguard fix`).',
  abandonedIteration:
    '`{{statement}}` ends the iteration after the terminal event `{{event}}` before EOF and leaves `{{stream}}` neither drained nor closed: its connection stays checked out until the client closes. Keep reading to EOF with a time budget instead (`drainguard fix`).',
} as const;

/** ESLint's `{{ name }}` interpolation (eslint/lib/linter/interpolate.js), for texts a front end formats itself. */
export function interpolate(template: string, data: Readonly<Record<string, string>> | undefined): string {
  if (!data || !template.includes('{{')) return template;
  return template.replace(/\{\{([^{}]+)\}\}/gu, (whole, name: string) => (name.trim() in data ? data[name.trim()] : whole));
}

/** Source text quoted in a message: on one line, at most `limit` characters (the last one an ellipsis when cut). */
export function brief(text: string, limit = 48): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}
