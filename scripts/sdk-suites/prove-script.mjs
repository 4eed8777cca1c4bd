// The body `drainguard prove` serves to an SDK's streaming call (scripts/sdk-suites/prove.mjs): the
// events and terminal event of the probe's one peer (probe-calls.mjs), in the script file format
// `drainguard prove --script` reads. A probe with a second peer (anthropic's fallback request) needs
// two servers, which prove does not have: it gets no script.

/**
 * @param {import('./probe-calls.mjs').Probe} probe
 * @returns {{ format: 'sse', events: unknown[], terminal?: unknown } | null}
 */
export function proveScript(probe) {
  if (probe.peers.length !== 1) return null;
  const [peer] = probe.peers;
  return { format: 'sse', events: peer.events, ...(peer.terminal === undefined ? {} : { terminal: peer.terminal }) };
}
