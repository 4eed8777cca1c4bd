// The manual reasons the planner names: the text a user reads for a site left to them (tests compare it literally).

export const COMPILED_OUTPUT_REASON = 'compiled output (`__asyncValues`): fix the source it was compiled from';
export const NOTHING_ENDS_DRAIN_REASON =
  'nothing in scope can end a drain of this iterator early (its return() waits for a pending read): pass the signal of an AbortController to the request, or iterate the body itself';

export const DATA_HANDLER_REASON =
  "the close is in a Node 'data' handler: resolve on the terminal event, let the handler read on until 'end', and destroy the stream only from a timer if 'end' does not come";

export const READS_ON_REASON =
  'the loop reads this reader again after the close (it relies on the next read() seeing the end): a read error during a drain would reach that read; leave the loop after the close (break) to make it rewritable';

export const FINALLY_AFTER_CATCH_REASON =
  'the close is in a `finally` after a `catch`, and no flag set at the terminal event is in scope there to tell a finished stream from a failed one';

export const PENDING_READ_REASON =
  "the close's target may be replaced before the drain's time limit, and this iterator's own return() waits for a pending read: keep the request's AbortController in a const";
