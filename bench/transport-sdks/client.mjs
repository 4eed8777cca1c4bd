// One run of `npm run bench:transport`: N sequential streamed calls of an unmodified SDK, timed one by one, in a
// process of its own (the bench starts it with or without `--import drainguard/undici/register`). Prints
// { latenciesMs, results, hung, error } as JSON on stdout and exits, whatever connections are still open.
//
//   node client.mjs <variant> <url> <calls> <call-timeout-ms> <sdk-folder>
//
// Variants: openai (chat.completions.create with stream: true, read with for await; the SDK stops at [DONE]),
// anthropic (messages.create with stream: true, read with for await; the SDK reads to the end of the body),
// anthropic-break (the same, and the caller breaks out at message_stop), mcp (one Client, callTool N times),
// mcp-per-call (a Client per call: connect, callTool, close).
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [variant, url, callsText, timeoutText, sdkFolder] = process.argv.slice(2);
const calls = Number(callsText);
const callTimeoutMs = Number(timeoutText);
/** Longer than the bench server's tail after the terminal event, far shorter than a drain's time bound. */
const SETTLE_MS = 200;
const fromCache = createRequire(path.join(sdkFolder, 'package.json'));
const fromRepository = createRequire(import.meta.url);
const prompt = [{ role: 'user', content: 'Say hello' }];

async function mcpClient() {
  const { Client } = fromRepository('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = fromRepository('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return async () => {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };
}

const mcpText = (result) => result.content.map((part) => part.text).join('');

/** @returns {Promise<(signal: AbortSignal) => Promise<string>>} one call of the variant */
async function makeCall() {
  switch (variant) {
    case 'openai': {
      const { default: OpenAI } = fromCache('openai');
      const client = new OpenAI({ apiKey: 'bench', baseURL: url, maxRetries: 0 });
      return async (signal) => {
        const stream = await client.chat.completions.create({ model: 'bench', messages: prompt, stream: true }, { signal });
        let text = '';
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        return text;
      };
    }
    case 'anthropic':
    case 'anthropic-break': {
      const { default: Anthropic } = fromCache('@anthropic-ai/sdk');
      const client = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0 });
      return async (signal) => {
        const stream = await client.messages.create({ model: 'bench', max_tokens: 16, messages: prompt, stream: true }, { signal });
        let text = '';
        for await (const event of stream) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
          if (variant === 'anthropic-break' && event.type === 'message_stop') break;
        }
        return text;
      };
    }
    case 'mcp': {
      const client = await (await mcpClient())();
      return async (signal) => mcpText(await client.callTool({ name: 'echo', arguments: {} }, undefined, { signal, timeout: callTimeoutMs }));
    }
    case 'mcp-per-call': {
      const connect = await mcpClient();
      return async (signal) => {
        const client = await connect();
        try {
          return mcpText(await client.callTool({ name: 'echo', arguments: {} }, undefined, { signal, timeout: callTimeoutMs }));
        } finally {
          await client.close();
        }
      };
    }
    default:
      throw new Error(`unknown variant '${variant}'`);
  }
}

const out = { latenciesMs: [], results: [], hung: false, error: null };
try {
  const call = await makeCall();
  for (let i = 0; i < calls; i++) {
    const signal = AbortSignal.timeout(callTimeoutMs);
    const started = performance.now();
    let result;
    try {
      result = await call(signal);
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    // Some SDKs end a stream quietly when it is aborted (the Anthropic SDK's iterator returns): a call that ran into
    // the time limit hung, whatever it returned.
    if (signal.aborted) {
      out.hung = true;
      break;
    }
    out.results.push(result);
    out.latenciesMs.push(performance.now() - started);
  }
} catch (error) {
  out.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
// A long-running application keeps its process after a call: the bodies the last calls left to a background drain
// are given the time a server's tail takes before the exit cuts them (which would count as early closes).
await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
process.stdout.write(`${JSON.stringify(out)}\n`, () => process.exit(0));
