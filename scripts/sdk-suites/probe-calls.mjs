// One streaming call per SDK, made through the SDK's own client (bundled from its source, pristine or
// rewritten) against drainguard's stream server (dist/testing.js), and what that server sends it.
//
// Each probe names its peers: the first serves the body under test (its mode after the terminal
// event is varied: end, silent, trickle, flood, endless, reset), any other one always ends its body
// (anthropic's refusal fallback makes a second request, to the fallback model, and reads it to EOF).
// Events are the payloads of `data:` lines; an SSE event name rides after a carriage return, which
// ends an SSE line as well as a line feed does (`{…}\revent: message_start`).
// `call(sdk, { urls, fetch }, onMessage)` makes one call and reports each message it delivers as a
// string; `fetch` is the caller's fetch (Node's own, or node-fetch 2 with a keep-alive agent).
// `expected` is what one call delivers.

/** What the stream server does after the terminal event (its modes), in the order of the report. */
export const BODY_MODES = ['end', 'silent', 'trickle', 'flood', 'endless', 'reset'];
/** The pause between calls in the paced scenarios, in ms. */
export const PACED_PAUSE_MS = 50;

/** An SSE event with a name: the data line, then `event:` after a carriage return. @param {{ type: string }} payload */
const named = (payload) => `${JSON.stringify(payload)}\revent: ${payload.type}`;

/** The chat-completion chunks OpenAI's API (and Mistral's, which parses the same shape) streams. */
const chatChunks = Array.from({ length: 3 }, (_, i) => ({
  id: 'chatcmpl-probe',
  object: 'chat.completion.chunk',
  created: 1700000000,
  model: 'probe-model',
  choices: [{ index: 0, delta: { role: 'assistant', content: `event ${i}` }, finish_reason: i === 2 ? 'stop' : null }],
}));

const TEXTS = ['event 0', 'event 1', 'event 2'];

/** Anthropic: stream A refuses with a fallback credit token (its terminal event), stream B serves. */
const anthropicStart = (id, model) => ({
  type: 'message_start',
  message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } },
});
const anthropicText = (texts) => [
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ...texts.map((text) => ({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
  { type: 'content_block_stop', index: 0 },
];
const ANTHROPIC_REFUSAL = {
  type: 'message_delta',
  delta: {
    stop_reason: 'refusal',
    stop_sequence: null,
    stop_details: { type: 'refusal', category: null, explanation: null, fallback_credit_token: 'tok_probe', fallback_has_prefill_claim: true },
  },
  usage: { output_tokens: 20 },
};

/** Google Interactions: the events of `GET /interactions/{id}?stream=true`, `interaction.completed` last. */
const googleEvents = [
  { event_type: 'interaction.created', event_id: 'e0', interaction: { id: 'probe-interaction', status: 'in_progress' } },
  { event_type: 'step.start', event_id: 'e1', index: 0, step: { type: 'model_output' } },
  ...TEXTS.map((text, i) => ({ event_type: 'step.delta', event_id: `e${i + 2}`, index: 0, delta: { type: 'text', text } })),
  { event_type: 'step.stop', event_id: 'e5', index: 0 },
];
const GOOGLE_COMPLETED = { event_type: 'interaction.completed', event_id: 'e6', interaction: { id: 'probe-interaction', status: 'completed' } };

/** A request's body as text (the SDKs send JSON strings). @param {RequestInit | undefined} init */
const bodyText = (init) => (typeof init?.body === 'string' ? init.body : '');

/**
 * @typedef {{ name: string, events: unknown[], terminal?: unknown }} Peer
 * @typedef {{ urls: Record<string, string>, fetch: typeof fetch | undefined }} CallContext
 * @typedef {object} Probe
 * @property {Peer[]} peers        the first one serves the body under test
 * @property {string[]} callers    'native' (Node's fetch) and/or 'node-fetch' (node-fetch 2, a Node stream body)
 * @property {string[]} expected   the messages one call delivers
 * @property {(sdk: any, context: CallContext, onMessage: (text: string) => void) => Promise<void>} call
 */

/** @type {Record<string, Probe>} */
export const PROBES = {
  'openai-node': {
    peers: [{ name: 'chat', events: chatChunks }],
    callers: ['native', 'node-fetch'],
    expected: TEXTS,
    async call(sdk, { urls, fetch }, onMessage) {
      const client = new sdk.OpenAI({ apiKey: 'probe-key', baseURL: `${urls.chat}/v1`, maxRetries: 0, timeout: 60_000, fetch });
      const stream = await client.chat.completions.create({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }], stream: true });
      for await (const chunk of stream) onMessage(chunk.choices[0]?.delta?.content ?? '');
    },
  },
  'anthropic-sdk-typescript': {
    peers: [
      {
        name: 'refusing',
        events: [anthropicStart('msg_a', 'probe-model'), ...anthropicText(TEXTS)].map(named),
        terminal: named(ANTHROPIC_REFUSAL),
      },
      {
        name: 'fallback',
        events: [anthropicStart('msg_b', 'probe-fallback'), ...anthropicText(['event 3']), { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }].map(named),
        terminal: named({ type: 'message_stop' }),
      },
    ],
    callers: ['native', 'node-fetch'],
    expected: [
      'message_start',
      'content_block_start text',
      'event 0',
      'event 1',
      'event 2',
      'content_block_stop',
      'content_block_start fallback',
      'content_block_stop',
      'content_block_start text',
      'event 3',
      'content_block_stop',
      'message_delta end_turn',
      'message_stop',
    ],
    async call(sdk, { urls, fetch }, onMessage) {
      // The request to the fallback model (it carries the refusal's credit token) goes to the second peer.
      const send = fetch ?? globalThis.fetch;
      const route = (url, init) =>
        send(bodyText(init).includes('fallback_credit_token') ? String(url).replace(urls.refusing, urls.fallback) : url, init);
      const client = new sdk.Anthropic({
        apiKey: 'probe-key',
        baseURL: urls.refusing,
        maxRetries: 0,
        timeout: 60_000,
        fetch: route,
        logLevel: 'off',
        middleware: [sdk.betaRefusalFallbackMiddleware([{ model: 'probe-fallback' }], { onError: () => {} })],
      });
      const stream = await client.beta.messages.create(
        { model: 'probe-model', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], stream: true },
        { fallbackState: new sdk.BetaFallbackState() },
      );
      for await (const event of stream) {
        if (event.type === 'content_block_delta') onMessage(event.delta.text ?? '');
        else if (event.type === 'content_block_start') onMessage(`content_block_start ${event.content_block.type}`);
        else if (event.type === 'message_delta') onMessage(`message_delta ${event.delta.stop_reason}`);
        else onMessage(event.type);
      }
    },
  },
  'client-ts': {
    peers: [{ name: 'chat', events: chatChunks }],
    callers: ['native'],
    expected: TEXTS,
    async call(sdk, { urls }, onMessage) {
      const client = new sdk.Mistral({ apiKey: 'probe-key', serverURL: urls.chat, retryConfig: { strategy: 'none' }, timeoutMs: 60_000 });
      const stream = await client.chat.stream({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }] });
      for await (const event of stream) {
        const content = event.data.choices[0]?.delta.content;
        onMessage(typeof content === 'string' ? content : JSON.stringify(content ?? ''));
      }
    },
  },
  'cohere-typescript': {
    peers: [{ name: 'chat', events: TEXTS.map((text) => ({ type: 'content-delta', index: 0, delta: { message: { content: { text } } } })) }],
    // Fern's `fetch` option takes a custom fetch, and its Stream reads a Node stream body too.
    callers: ['native', 'node-fetch'],
    expected: TEXTS,
    async call(sdk, { urls, fetch }, onMessage) {
      const client = new sdk.CohereClientV2({ token: 'probe-key', environment: urls.chat, maxRetries: 0, timeoutInSeconds: 60, fetch });
      const stream = await client.chatStream({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }] });
      for await (const event of stream) onMessage(event.type === 'content-delta' ? event.delta.message.content.text : event.type);
    },
  },
  'vercel-ai-google': {
    peers: [{ name: 'interactions', events: googleEvents, terminal: GOOGLE_COMPLETED }],
    callers: ['native'],
    expected: ['text-start', 'event 0', 'event 1', 'event 2', 'text-end', 'finish stop'],
    async call(sdk, { urls, fetch }, onMessage) {
      // A background interaction: `POST /interactions` answers with its id (made up here, no request:
      // it is JSON, not the stream under test), then `GET /interactions/{id}?stream=true` streams it.
      const route = (url, init) =>
        (init?.method ?? 'GET').toUpperCase() === 'POST'
          ? Promise.resolve(new Response(JSON.stringify({ id: 'probe-interaction', status: 'in_progress' }), { headers: { 'content-type': 'application/json' } }))
          : (fetch ?? globalThis.fetch)(url, init);
      const google = sdk.createGoogle({ apiKey: 'probe-key', baseURL: urls.interactions, fetch: route });
      const { stream } = await google.interactions('probe-model').doStream({
        prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
        providerOptions: { google: { background: true } },
      });
      for await (const part of stream) {
        if (part.type === 'text-delta') onMessage(part.delta);
        else if (part.type === 'finish') onMessage(`finish ${part.finishReason?.unified ?? part.finishReason}`);
        else if (part.type === 'text-start' || part.type === 'text-end') onMessage(part.type);
      }
    },
  },
};
