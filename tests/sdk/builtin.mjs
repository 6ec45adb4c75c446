// The OpenAI SDK against a svc-api without an upstream (no SVC_MODEL_BASE_URL, as `make run`):
// model svc refused once, svc-assistant answered by the built-in engine from the Brain, whole and
// streamed, and the built-in embedder.
import OpenAI from 'openai';
import { assert, base, key, check, done, spent, api, expectError, version } from './lib.mjs';

console.log(`  openai ${version('openai')} (no upstream)`);
const ANSWER = 'We open at 7am every day, Sundays included.';

let attempts = 0;
const client = new OpenAI({
  apiKey: key,
  baseURL: `${base}/v1`,
  fetch: (url, init) => {
    attempts++;
    return fetch(url, init);
  },
});
const helpers = client.chat.completions.parse ? client.chat.completions : client.beta.chat.completions;
const ask = [{ role: 'user', content: 'When do you open?' }];

await check('model svc without an upstream: 503 model_unavailable, asked once, not charged', async () => {
  const before = await spent();
  attempts = 0;
  const err = await expectError(client.chat.completions.create({ model: 'svc', messages: ask }));
  assert.ok(err instanceof OpenAI.InternalServerError, `${err.constructor.name}: ${err.message}`);
  assert.equal(err.status, 503);
  assert.equal(err.code, 'model_unavailable');
  assert.match(err.message, /SVC_MODEL_BASE_URL/);
  assert.equal(attempts, 1, 'X-Should-Retry: false: the SDK does not ask again');
  assert.equal(await spent(), before);
});

await check('svc-assistant before the agent is set up: 409, asked once', async () => {
  attempts = 0;
  const err = await expectError(client.chat.completions.create({ model: 'svc-assistant', messages: ask }));
  assert.ok(err instanceof OpenAI.ConflictError, `${err.constructor.name}: ${err.message}`);
  assert.equal(attempts, 1);
});

await check('svc-assistant answers from the Brain, whole and streamed', async () => {
  let r = await api('PATCH', '/v1/agent', { business_name: 'SDK Bakery' });
  assert.equal(r.status, 200, r.text);
  r = await api('POST', '/v1/knowledge/faq', { items: [{ question: 'When do you open?', answer: ANSWER }] });
  assert.equal(r.status, 200, r.text);
  const before = await spent();
  const c = await client.chat.completions.create({ model: 'svc-assistant', messages: ask });
  assert.equal(c.model, 'svc-assistant');
  assert.equal(c.choices[0].message.content, ANSWER);
  assert.ok(c.usage.total_tokens > 0);
  const stream = await client.chat.completions.create({ model: 'svc-assistant', messages: ask, stream: true, stream_options: { include_usage: true } });
  const chunks = [];
  for await (const ch of stream) chunks.push(ch);
  assert.equal(chunks.flatMap((ch) => ch.choices.map((x) => x.delta.content ?? '')).join(''), ANSWER);
  assert.ok(chunks.at(-1).usage.total_tokens > 0);
  const final = await helpers.stream({ model: 'svc-assistant', messages: ask }).finalChatCompletion();
  assert.equal(final.choices[0].message.content, ANSWER);
  const resp = await client.responses.create({ model: 'svc-assistant', input: 'When do you open?' });
  assert.equal(resp.output_text, ANSWER);
  const rs = await client.responses.stream({ model: 'svc-assistant', input: 'When do you open?' }).finalResponse();
  assert.equal(rs.output_text, ANSWER);
  assert.equal(await spent(), before + 5);
});

await check('the built-in embedder: base64 (the SDK default) equal to float, dimensions', async () => {
  const input = ['fresh bread', 'gluten-free on Fridays'];
  const b = await client.embeddings.create({ model: 'text-embedding-3-small', input });
  const f = await client.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'float' });
  assert.equal(b.model, 'svc-embeddings');
  for (let i = 0; i < 2; i++) assert.deepEqual(b.data[i].embedding, f.data[i].embedding.map(Math.fround));
  assert.equal(b.data[0].embedding.length, 256);
  const d = await client.embeddings.create({ model: 'x', input: 'bread', dimensions: 64 });
  assert.equal(d.data[0].embedding.length, 64);
});

done();
