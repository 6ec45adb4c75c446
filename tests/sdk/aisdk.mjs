// The Vercel AI SDK (ai + @ai-sdk/openai-compatible) against POST /v1/chat/completions:
// generateText, streamText (it checks every stream chunk against its schema), tools, and
// embeddings.
import { generateText, streamText, generateObject, streamObject, embedMany, tool, jsonSchema, stepCountIs } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createOpenAI } from '@ai-sdk/openai';
import { assert, base, key, check, done, version } from './lib.mjs';

console.log(`  ai ${version('ai')} @ai-sdk/openai-compatible ${version('@ai-sdk/openai-compatible')} @ai-sdk/openai ${version('@ai-sdk/openai')}`);
const PLAIN = 'Hello from the fake upstream: the bakery opens at seven every morning.';
const TOOL_ANSWER = 'It is 21 °C and sunny in Lisbon.';

const provider = createOpenAICompatible({ name: 'svc', baseURL: `${base}/v1`, apiKey: key, includeUsage: true });
const weatherSchema = jsonSchema({ type: 'object', properties: { city: { type: 'string' }, temp_c: { type: 'integer' } }, required: ['city', 'temp_c'], additionalProperties: false });
const weather = tool({
  description: 'The weather of a city',
  inputSchema: jsonSchema({ type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } }, required: ['city'] }),
  execute: async ({ city }) => ({ city, temp_c: 21 }),
});

// @ai-sdk/openai: openai(model) speaks the Responses API, openai.chat(model) chat completions.
// Every provider checks each chunk and event against its schemas.
const oa = createOpenAI({ baseURL: `${base}/v1`, apiKey: key });
const models = [
  ['openai-compatible', () => provider('svc')],
  ['openai responses', () => oa('svc')],
  ['openai chat', () => oa.chat('svc')],
];

for (const [label, m] of models) {
  await check(`${label}: generateText`, async () => {
    const r = await generateText({ model: m(), prompt: 'When do you open?', maxRetries: 0 });
    assert.equal(r.text, PLAIN);
    assert.equal(r.finishReason, 'stop');
    assert.ok(r.usage.inputTokens > 0 && r.usage.outputTokens > 0, JSON.stringify(r.usage));
  });

  await check(`${label}: streamText (text, finish reason, usage; no error parts)`, async () => {
    const r = streamText({ model: m(), prompt: 'When do you open?', maxRetries: 0 });
    const errors = [];
    let text = '';
    for await (const part of r.fullStream) {
      if (part.type === 'error') errors.push(part.error);
      if (part.type === 'text-delta') text += part.text ?? part.delta;
    }
    assert.deepEqual(errors, []);
    assert.equal(text, PLAIN);
    assert.equal(await r.finishReason, 'stop');
    const u = await r.usage;
    assert.ok(u.inputTokens > 0 && u.outputTokens > 0, JSON.stringify(u));
  });

  await check(`${label}: generateText with a tool, two steps`, async () => {
    const r = await generateText({ model: m(), prompt: 'Weather in Lisbon? #tool', tools: { get_weather: weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    assert.equal(r.steps.length, 2);
    assert.equal(r.steps[0].toolCalls[0].toolName, 'get_weather');
    assert.deepEqual(r.steps[0].toolCalls[0].input, { city: 'Lisbon', unit: 'celsius' });
    assert.equal(r.text, TOOL_ANSWER);
  });

  await check(`${label}: streamText with a tool, two steps`, async () => {
    const r = streamText({ model: m(), prompt: 'Weather in Lisbon? #tool', tools: { get_weather: weather }, stopWhen: stepCountIs(3), maxRetries: 0 });
    const errors = [];
    for await (const part of r.fullStream) if (part.type === 'error') errors.push(part.error);
    assert.deepEqual(errors, []);
    assert.equal(await r.text, TOOL_ANSWER);
    const steps = await r.steps;
    assert.equal(steps[0].toolCalls[0].toolName, 'get_weather');
    assert.deepEqual(steps[0].toolCalls[0].input, { city: 'Lisbon', unit: 'celsius' });
  });
}

const structured = createOpenAICompatible({ name: 'svc', baseURL: `${base}/v1`, apiKey: key, supportsStructuredOutputs: true });
for (const [label, m] of [['openai-compatible', () => structured('svc')], ...models.slice(1)]) {
  await check(`${label}: generateObject (json_schema)`, async () => {
    const r = await generateObject({ model: m(), schema: weatherSchema, schemaName: 'weather', prompt: 'Weather as JSON #json-ok', maxRetries: 0 });
    assert.deepEqual(r.object, { city: 'Lisbon', temp_c: 21 });
  });
  await check(`${label}: streamObject (json_schema)`, async () => {
    const r = streamObject({ model: m(), schema: weatherSchema, schemaName: 'weather', prompt: 'Weather as JSON #json-ok', maxRetries: 0 });
    const errors = [];
    for await (const part of r.fullStream) if (part.type === 'error') errors.push(part.error);
    assert.deepEqual(errors, []);
    assert.deepEqual(await r.object, { city: 'Lisbon', temp_c: 21 });
  });
}

await check('openai-compatible embedMany', async () => {
  const r = await embedMany({ model: provider.textEmbeddingModel ? provider.textEmbeddingModel('svc-embeddings') : provider.embeddingModel('svc-embeddings'), values: ['bread', 'cake'], maxRetries: 0 });
  assert.equal(r.embeddings.length, 2);
  assert.ok(r.embeddings[0].length > 0);
});

await check('@ai-sdk/openai embedMany', async () => {
  const r = await embedMany({ model: oa.embedding ? oa.embedding('svc-embeddings') : oa.textEmbeddingModel('svc-embeddings'), values: ['bread', 'cake'], maxRetries: 0 });
  assert.equal(r.embeddings.length, 2);
});

done();
