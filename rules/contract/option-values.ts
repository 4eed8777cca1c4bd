// Option values as a user gives them on a command line (jscodeshift passes `--drainTimeoutMs=500` as a string) or
// from a program (any value): the transform's lists and the messages that quote a bad value read them alike.

/** A value as the user wrote it: a string or a number as is, anything else as JSON. */
export function asWritten(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
}

/** `--closeMethods=cancel,abort` (or an array from a programmatic call) as a list of its non-empty items; undefined where nothing is given. */
export function optionList(value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value.map(asWritten) : asWritten(value).split(',');
  return items.map((item) => item.trim()).filter((item) => item !== '');
}
