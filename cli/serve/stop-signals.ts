/**
 * SIGINT and SIGTERM for `drainguard serve`, which runs until one of them and then exits 0. Caught from the first call
 * to the end of the process: cli/bin.ts calls it before the CLI's modules load, so a signal sent as soon as the server
 * printed its URL (a test fixture stopping it at once), or while it starts, is not the default action (the process
 * ended by the signal). Signals after the first are caught too, and ignored: the server is closing by then.
 */
let first: Promise<NodeJS.Signals> | undefined;

export function catchStopSignals(): Promise<NodeJS.Signals> {
  first ??= new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => resolve(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  return first;
}
