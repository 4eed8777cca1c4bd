export const CLEAR_LINE = '\r\u001b[2K';

/** The line on stderr that says what `fix` is doing, each step in place of the last: on a terminal, and not with --json. */
export class Progress {
  constructor(readonly shown: boolean) {}

  show(step: string): void {
    if (this.shown) process.stderr.write(`${CLEAR_LINE}${step}`);
  }
}
