/** Identity of one response: the request call, or the variable/field that holds it when its origin is unknown. */
export type Family = object | string;

/** What entering a branch does to the "terminal event seen, EOF not yet" fact. */
export type Effect =
  | { kind: 'none' }
  /** `guard`: the test only checks that a completion name is set (`terminator && …`), it does not recognise the event. */
  | { kind: 'gen'; label: string; guard?: boolean }
  | { kind: 'kill'; family: Family }
  | { kind: 'killAll' }
  /** Classified only when its code path is solved, so files and functions without a close never classify a test. */
  | { kind: 'deferred'; resolve: () => Effect };
