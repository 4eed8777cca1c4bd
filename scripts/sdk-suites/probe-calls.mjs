// One streaming chat call per SDK, made through the SDK's own client (bundled from its rewritten
// source) against the probe server: returns the texts of the events it delivered.

/** @type {Record<string, (sdk: any, baseUrl: string) => Promise<string[]>>} */
export const STREAMING_CALLS = {
  async 'openai-node'(sdk, baseUrl) {
    const client = new sdk.OpenAI({ apiKey: 'probe-key', baseURL: `${baseUrl}/v1`, maxRetries: 0, timeout: 60_000 });
    const stream = await client.chat.completions.create({
      model: 'probe-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const texts = [];
    for await (const chunk of stream) texts.push(chunk.choices[0]?.delta?.content ?? '');
    return texts;
  },
  async 'client-ts'(sdk, baseUrl) {
    const client = new sdk.Mistral({ apiKey: 'probe-key', serverURL: baseUrl, retryConfig: { strategy: 'none' }, timeoutMs: 60_000 });
    const stream = await client.chat.stream({ model: 'probe-model', messages: [{ role: 'user', content: 'hi' }] });
    const texts = [];
    for await (const event of stream) {
      const content = event.data.choices[0]?.delta.content;
      texts.push(typeof content === 'string' ? content : JSON.stringify(content ?? ''));
    }
    return texts;
  },
};
