// One streaming chat call per SDK, made through the SDK's own client (bundled from its rewritten
// source) against the probe server: calls onEvent with each event's text as it is delivered.

/** @type {Record<string, (sdk: any, baseUrl: string, onEvent: (text: string) => void) => Promise<void>>} */
export const STREAMING_CALLS = {
  async 'openai-node'(sdk, baseUrl, onEvent) {
    const client = new sdk.OpenAI({ apiKey: 'probe-key', baseURL: `${baseUrl}/v1`, maxRetries: 0, timeout: 60_000 });
    const stream = await client.chat.completions.create({
      model: 'probe-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const chunk of stream) onEvent(chunk.choices[0]?.delta?.content ?? '');
  },
  async 'client-ts'(sdk, baseUrl, onEvent) {
    const client = new sdk.Mistral({ apiKey: 'probe-key', serverURL: baseUrl, retryConfig: { strategy: 'none' }, timeoutMs: 60_000 });
    const stream = await client.chat.stream({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }] });
    for await (const event of stream) {
      const content = event.data.choices[0]?.delta.content;
      onEvent(typeof content === 'string' ? content : JSON.stringify(content ?? ''));
    }
  },
};
