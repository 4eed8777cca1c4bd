// The body `drainguard prove` serves to the SDKs' streaming calls: chat-completion chunks (the shape
// OpenAI's API and Speakeasy's Mistral SDK parse), then `data: [DONE]`, the kit's default terminal event.

/** What each call must deliver, in order. */
export const PROVE_EVENT_TEXTS = ['event 0', 'event 1', 'event 2'];

/** The server script, as `drainguard prove --script` reads it. */
export const PROVE_SCRIPT = {
  format: 'sse',
  events: PROVE_EVENT_TEXTS.map((content, i) => ({
    id: 'chatcmpl-prove',
    object: 'chat.completion.chunk',
    created: 1700000000,
    model: 'probe-model',
    choices: [{ index: 0, delta: { role: 'assistant', content }, finish_reason: i === PROVE_EVENT_TEXTS.length - 1 ? 'stop' : null }],
  })),
};
