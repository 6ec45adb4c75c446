// LangChain's ChatOpenAI and OpenAIEmbeddings against the model-compatible endpoints.
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai';
import { assert, base, key, check, done, version } from './lib.mjs';

console.log(`  @langchain/openai ${version('@langchain/openai')}`);
const PLAIN = 'Hello from the fake upstream: the bakery opens at seven every morning.';
const configuration = { baseURL: `${base}/v1` };

await check('ChatOpenAI invoke', async () => {
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0 });
  const r = await m.invoke('When do you open?');
  assert.equal(r.content, PLAIN);
  assert.ok(r.usage_metadata && r.usage_metadata.total_tokens > 0, JSON.stringify(r.usage_metadata));
});

await check('ChatOpenAI stream (usage at the end)', async () => {
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0, streamUsage: true });
  let text = '';
  let usage = null;
  for await (const ch of await m.stream('When do you open?')) {
    text += ch.content;
    if (ch.usage_metadata) usage = ch.usage_metadata;
  }
  assert.equal(text, PLAIN);
  assert.ok(usage && usage.total_tokens > 0);
});

await check('ChatOpenAI bindTools', async () => {
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0 }).bindTools([
    { type: 'function', function: { name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] } } },
  ]);
  const r = await m.invoke('Weather? #tool');
  assert.equal(r.tool_calls.length, 1);
  assert.equal(r.tool_calls[0].name, 'get_weather');
  assert.deepEqual(r.tool_calls[0].args, { city: 'Lisbon', unit: 'celsius' });
});

await check('ChatOpenAI bindTools, streamed (tool call chunks)', async () => {
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0 }).bindTools([
    { type: 'function', function: { name: 'get_weather', description: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] } } },
  ]);
  let full = null;
  for await (const ch of await m.stream('Weather? #tool')) full = full ? full.concat(ch) : ch;
  assert.equal(full.tool_calls.length, 1);
  assert.equal(full.tool_calls[0].name, 'get_weather');
  assert.deepEqual(full.tool_calls[0].args, { city: 'Lisbon', unit: 'celsius' });
});

await check('ChatOpenAI with the Responses API', async () => {
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0, useResponsesApi: true });
  const r = await m.invoke('When do you open?');
  const text = typeof r.content === 'string' ? r.content : r.content.map((p) => p.text ?? '').join('');
  assert.equal(text, PLAIN);
});

await check('ChatOpenAI withStructuredOutput (json_schema)', async () => {
  const schema = { type: 'object', title: 'weather', properties: { city: { type: 'string' }, temp_c: { type: 'integer' } }, required: ['city', 'temp_c'], additionalProperties: false };
  const m = new ChatOpenAI({ model: 'svc', apiKey: key, configuration, maxRetries: 0 }).withStructuredOutput(schema, { name: 'weather', method: 'jsonSchema', strict: true });
  assert.deepEqual(await m.invoke('Weather as JSON #json-ok'), { city: 'Lisbon', temp_c: 21 });
});

await check('OpenAIEmbeddings', async () => {
  const e = new OpenAIEmbeddings({ model: 'svc-embeddings', apiKey: key, configuration, maxRetries: 0 });
  const v = await e.embedDocuments(['bread', 'cake']);
  assert.equal(v.length, 2);
  assert.ok(v[0].length > 0);
  const q = await e.embedQuery('bread');
  assert.deepEqual(q, v[0]);
});

done();
