// The thread `drainguard fix` type-checks in (cli/fix/verify.ts, startVerifier): the main thread stays free to take
// Ctrl-C and terminates this one in the middle of a check. One request at a time, answered in order.
import { parentPort } from 'node:worker_threads';
import { RewriteVerifier, type VerifyAnswer, type VerifyRequest } from './verify.js';

const verifier = new RewriteVerifier();
const port = parentPort;
let queue = Promise.resolve();
if (port) {
  port.on('message', (request: VerifyRequest) => {
    queue = queue.then(() =>
      verifier.addedByFile(request.changes, request.near, request.options).then(
        (added) => port.postMessage({ id: request.id, added } satisfies VerifyAnswer),
        (error: unknown) => port.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies VerifyAnswer),
      ),
    );
  });
}
