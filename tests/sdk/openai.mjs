// The OpenAI Node SDK against the model-compatible endpoints (spec 4.8, 7, 8).
//   node openai.mjs openai     the latest SDK (package "openai")
//   node openai.mjs openai4    the latest 4.x (package alias "openai4")
import { assert, base, key, env, check, done, spent, api, expectError, version } from './lib.mjs';
import { z } from 'zod';

const pkg = process.argv[2] || 'openai';
const { default: OpenAI } = await import(pkg);
const { zodResponseFormat, zodTextFormat } = await import(`${pkg}/helpers/zod`);
console.log(`  ${pkg} ${version(pkg)}`);

const PLAIN = 'Hello from the fake upstream: the bakery opens at seven every morning.';
const TOOL_ARGS = { city: 'Lisbon', unit: 'celsius' };
const TOOL_ANSWER = 'It is 21 °C and sunny in Lisbon.';

// attempts counts the HTTP requests the SDK makes (its retries included).
let attempts = 0;
const countingFetch = (url, init) => {
  attempts++;
  return fetch(url, init);
};
const client = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, fetch: countingFetch, maxRetries: 2 });
// The helpers moved from client.beta.chat.completions (4.x) to client.chat.completions (5.x on).
const helpers = client.chat.completions.parse ? client.chat.completions : client.beta.chat.completions;
const weatherTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'The weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city', 'unit'],
      additionalProperties: false,
    },
  },
};
const requestID = (err) => err.requestID ?? err.request_id;

await check('chat.completions.create', async () => {
  const before = await spent();
  const c = await client.chat.completions.create({
    model: 'svc',
    messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'When do you open?' }],
  });
  assert.equal(c.object, 'chat.completion');
  assert.match(c.id, /./);
  assert.equal(typeof c.created, 'number');
  assert.equal(c.choices.length, 1);
  assert.equal(c.choices[0].index, 0);
  assert.equal(c.choices[0].message.role, 'assistant');
  assert.equal(c.choices[0].message.content, PLAIN);
  assert.equal(c.choices[0].finish_reason, 'stop');
  assert.ok(c.usage.prompt_tokens > 0 && c.usage.completion_tokens > 0);
  assert.equal(c.usage.total_tokens, c.usage.prompt_tokens + c.usage.completion_tokens);
  assert.equal(typeof c.svc.interactions_spent, 'number');
  assert.match(c._request_id ?? '', /./, 'the SDK reads x-request-id into _request_id');
  assert.equal(await spent(), before + 1);
});

await check('chat.completions.create withResponse (headers)', async () => {
  const { data, response } = await client.chat.completions
    .create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] })
    .withResponse();
  assert.equal(data.choices[0].message.content, PLAIN);
  assert.match(response.headers.get('x-request-id') ?? '', /./);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
});

await check('chat.completions.create stream with include_usage', async () => {
  const stream = await client.chat.completions.create({
    model: 'svc',
    messages: [{ role: 'user', content: 'When do you open?' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks = [];
  for await (const ch of stream) chunks.push(ch);
  assert.ok(chunks.length >= 3, `${chunks.length} chunks`);
  for (const ch of chunks) {
    assert.equal(ch.object, 'chat.completion.chunk');
    assert.equal(ch.id, chunks[0].id, 'every chunk has the same id');
    assert.equal(typeof ch.created, 'number');
  }
  const last = chunks.at(-1);
  assert.deepEqual(last.choices, [], 'the usage chunk has no choices');
  assert.ok(last.usage && last.usage.total_tokens > 0, 'the usage chunk comes last');
  for (const ch of chunks.slice(0, -1)) assert.ok(ch.usage == null, 'only the last chunk has usage');
  const text = chunks.flatMap((ch) => ch.choices.map((c) => c.delta.content ?? '')).join('');
  assert.equal(text, PLAIN);
  const finishes = chunks.flatMap((ch) => ch.choices.map((c) => c.finish_reason)).filter(Boolean);
  assert.deepEqual(finishes, ['stop']);
  assert.equal(chunks[0].choices[0].delta.role, 'assistant');
});

await check('chat.completions.create stream without usage', async () => {
  const stream = await client.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }], stream: true });
  let text = '';
  let n = 0;
  for await (const ch of stream) {
    n++;
    assert.ok(ch.usage == null, 'no usage without include_usage');
    assert.equal(ch.choices.length, 1);
    text += ch.choices[0].delta.content ?? '';
  }
  assert.ok(n > 1);
  assert.equal(text, PLAIN);
});

await check('chat.completions.stream helper: finalChatCompletion and events', async () => {
  const runner = helpers.stream({ model: 'svc', messages: [{ role: 'user', content: 'When do you open?' }], stream_options: { include_usage: true } });
  let deltas = '';
  runner.on('content', (d) => {
    deltas += d;
  });
  const final = await runner.finalChatCompletion();
  assert.equal(final.choices[0].message.content, PLAIN);
  assert.equal(final.choices[0].finish_reason, 'stop');
  assert.equal(deltas, PLAIN);
  assert.ok(final.usage && final.usage.total_tokens > 0);
  assert.equal(await runner.finalContent(), PLAIN);
});

await check('tools: tool_calls round trip (whole)', async () => {
  const messages = [{ role: 'user', content: 'Weather in Lisbon? #tool' }];
  const c = await client.chat.completions.create({ model: 'svc', messages, tools: [weatherTool], tool_choice: 'auto' });
  const m = c.choices[0].message;
  assert.equal(c.choices[0].finish_reason, 'tool_calls');
  assert.equal(m.tool_calls.length, 1);
  const call = m.tool_calls[0];
  assert.equal(call.type, 'function');
  assert.equal(call.function.name, 'get_weather');
  assert.deepEqual(JSON.parse(call.function.arguments), TOOL_ARGS);
  messages.push(m, { role: 'tool', tool_call_id: call.id, content: '{"temp_c":21,"sky":"sunny"}' });
  const c2 = await client.chat.completions.create({ model: 'svc', messages, tools: [weatherTool] });
  assert.equal(c2.choices[0].message.content, TOOL_ANSWER);
});

await check('tools: streamed tool_calls accumulate', async () => {
  const stream = await client.chat.completions.create({
    model: 'svc', messages: [{ role: 'user', content: 'Weather? #tool' }], tools: [weatherTool], stream: true,
  });
  const calls = [];
  let finish = null;
  for await (const ch of stream) {
    for (const c of ch.choices) {
      if (c.finish_reason) finish = c.finish_reason;
      for (const tc of c.delta.tool_calls ?? []) {
        assert.equal(typeof tc.index, 'number', 'every tool-call delta has its index');
        calls[tc.index] ??= { id: '', name: '', args: '' };
        if (tc.id) calls[tc.index].id = tc.id;
        if (tc.function?.name) calls[tc.index].name += tc.function.name;
        if (tc.function?.arguments) calls[tc.index].args += tc.function.arguments;
      }
    }
  }
  assert.equal(finish, 'tool_calls');
  assert.equal(calls.length, 1);
  assert.equal(calls[0].name, 'get_weather');
  assert.match(calls[0].id, /./);
  assert.deepEqual(JSON.parse(calls[0].args), TOOL_ARGS);
});

await check('runTools helper', async () => {
  let called = 0;
  const runner = helpers.runTools({
    model: 'svc',
    messages: [{ role: 'user', content: 'Weather in Lisbon? #tool' }],
    tools: [{
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: weatherTool.function.parameters,
        function: (args) => {
          called++;
          assert.deepEqual(args, TOOL_ARGS);
          return { temp_c: 21, sky: 'sunny' };
        },
        parse: JSON.parse,
      },
    }],
  });
  assert.equal(await runner.finalContent(), TOOL_ANSWER);
  assert.equal(called, 1);
});

await check('runTools helper, streamed', async () => {
  const runner = helpers.runTools({
    model: 'svc',
    stream: true,
    messages: [{ role: 'user', content: 'Weather in Lisbon? #tool' }],
    tools: [{ type: 'function', function: { name: 'get_weather', parameters: weatherTool.function.parameters, function: () => '{"temp_c":21}' } }],
  });
  assert.equal(await runner.finalContent(), TOOL_ANSWER);
});

const Weather = z.object({ city: z.string(), temp_c: z.number().int() });

await check('parse with zodResponseFormat (json_schema)', async () => {
  const c = await helpers.parse({
    model: 'svc',
    messages: [{ role: 'user', content: 'Weather as JSON #json-ok' }],
    response_format: zodResponseFormat(Weather, 'weather'),
  });
  assert.deepEqual(c.choices[0].message.parsed, { city: 'Lisbon', temp_c: 21 });
});

await check('response_format json_schema (plain create)', async () => {
  const c = await client.chat.completions.create({
    model: 'svc',
    messages: [{ role: 'user', content: 'Weather as JSON #json-ok' }],
    response_format: { type: 'json_schema', json_schema: { name: 'weather', strict: true, schema: { type: 'object', properties: { city: { type: 'string' }, temp_c: { type: 'integer' } }, required: ['city', 'temp_c'], additionalProperties: false } } },
  });
  assert.deepEqual(JSON.parse(c.choices[0].message.content), { city: 'Lisbon', temp_c: 21 });
});

await check('responses.create: output_text', async () => {
  const before = await spent();
  const r = await client.responses.create({ model: 'svc', input: 'When do you open?', instructions: 'Be brief.' });
  assert.equal(r.object, 'response');
  assert.match(r.id, /^resp_/);
  assert.equal(r.status, 'completed');
  assert.equal(r.output_text, PLAIN);
  assert.equal(r.output[0].type, 'message');
  assert.equal(r.output[0].content[0].type, 'output_text');
  assert.ok(r.usage.input_tokens > 0 && r.usage.output_tokens > 0);
  assert.equal(r.usage.total_tokens, r.usage.input_tokens + r.usage.output_tokens);
  assert.equal(await spent(), before + 1);
});

await check('responses.create: function_call round trip', async () => {
  const tools = [{ type: 'function', name: 'get_weather', description: 'weather', parameters: weatherTool.function.parameters, strict: true }];
  const input = [{ role: 'user', content: 'Weather? #tool' }];
  const r = await client.responses.create({ model: 'svc', input, tools });
  const calls = r.output.filter((o) => o.type === 'function_call');
  assert.equal(calls.length, 1);
  assert.equal(calls[0].name, 'get_weather');
  assert.match(calls[0].call_id, /./);
  assert.deepEqual(JSON.parse(calls[0].arguments), TOOL_ARGS);
  assert.equal(r.output_text, '');
  input.push(...r.output, { type: 'function_call_output', call_id: calls[0].call_id, output: '{"temp_c":21}' });
  const r2 = await client.responses.create({ model: 'svc', input, tools });
  assert.equal(r2.output_text, TOOL_ANSWER);
});

await check('responses.create: text.format json_schema (zodTextFormat)', async () => {
  if (!client.responses.parse || !zodTextFormat) return;
  const r = await client.responses.parse({ model: 'svc', input: 'Weather as JSON #json-ok', text: { format: zodTextFormat(Weather, 'weather') } });
  assert.deepEqual(r.output_parsed, { city: 'Lisbon', temp_c: 21 });
});

await check('responses.create stream: events in the order the SDK expects', async () => {
  const stream = await client.responses.create({ model: 'svc', input: 'When do you open?', stream: true });
  const types = [];
  let text = '';
  let seq = -1;
  let completed = null;
  for await (const ev of stream) {
    types.push(ev.type);
    if (typeof ev.sequence_number === 'number') {
      assert.ok(ev.sequence_number > seq, 'sequence numbers increase');
      seq = ev.sequence_number;
    }
    if (ev.type === 'response.output_text.delta') text += ev.delta;
    if (ev.type === 'response.completed') completed = ev.response;
  }
  assert.equal(types[0], 'response.created');
  assert.equal(types.at(-1), 'response.completed');
  assert.equal(text, PLAIN);
  assert.equal(completed.output_text ?? completed.output[0].content[0].text, PLAIN);
});

await check('responses.stream helper: finalResponse', async () => {
  const stream = client.responses.stream({ model: 'svc', input: 'When do you open?' });
  let deltas = '';
  stream.on('response.output_text.delta', (e) => {
    deltas += e.delta;
  });
  const final = await stream.finalResponse();
  // 4.x's stream helper sets output_text only when it parses (text.format of zod): read the items.
  const items = final.output.filter((o) => o.type === 'message').flatMap((o) => o.content).map((c) => c.text).join('');
  assert.equal(items, PLAIN);
  if (pkg === 'openai') assert.equal(final.output_text, PLAIN);
  assert.equal(deltas, PLAIN);
});

await check('responses.stream helper: function call', async () => {
  const tools = [{ type: 'function', name: 'get_weather', parameters: weatherTool.function.parameters, strict: true }];
  const stream = client.responses.stream({ model: 'svc', input: 'Weather? #tool', tools });
  let args = '';
  stream.on('response.function_call_arguments.delta', (e) => {
    args += e.delta;
  });
  const final = await stream.finalResponse();
  const call = final.output.find((o) => o.type === 'function_call');
  assert.ok(call, 'a function_call item');
  assert.deepEqual(JSON.parse(call.arguments), TOOL_ARGS);
  assert.deepEqual(JSON.parse(args), TOOL_ARGS);
});

await check('responses.create previous_response_id → 400 BadRequestError', async () => {
  const before = await spent();
  const err = await expectError(client.responses.create({ model: 'svc', input: 'Hi', previous_response_id: 'resp_123' }));
  assert.ok(err instanceof OpenAI.BadRequestError, `${err.constructor.name}: ${err.message}`);
  assert.equal(err.status, 400);
  assert.equal(err.param, 'previous_response_id');
  assert.equal(err.code, 'invalid_request');
  assert.equal(await spent(), before);
});

await check('embeddings.create: base64 by default, equal to floats; dimensions', async () => {
  const before = await spent();
  const input = ['fresh bread every morning', 'gluten-free on Fridays'];
  const b = await client.embeddings.create({ model: 'text-embedding-3-small', input });
  const f = await client.embeddings.create({ model: 'text-embedding-3-small', input, encoding_format: 'float' });
  assert.equal(b.object, 'list');
  assert.equal(b.data.length, 2);
  assert.equal(b.model, 'svc-embeddings');
  for (let i = 0; i < 2; i++) {
    assert.equal(b.data[i].index, i);
    assert.equal(b.data[i].object, 'embedding');
    assert.ok(Array.isArray(b.data[i].embedding), 'the SDK decodes base64 into an array');
    assert.deepEqual(b.data[i].embedding, f.data[i].embedding.map(Math.fround));
  }
  const d = await client.embeddings.create({ model: 'x', input: 'one', dimensions: 4 });
  assert.equal(d.data[0].embedding.length, 4);
  assert.ok(b.usage.prompt_tokens > 0 && b.usage.total_tokens >= b.usage.prompt_tokens);
  assert.equal(await spent(), before + 3);
});

await check('models.list auto-pagination and models.retrieve', async () => {
  const ids = [];
  for await (const m of client.models.list()) {
    assert.equal(m.object, 'model');
    ids.push(m.id);
  }
  for (const id of ['svc', 'svc-assistant', 'svc-embeddings']) assert.ok(ids.includes(id), `${id} listed: ${ids}`);
  const page = await client.models.list();
  assert.equal(page.data.length, ids.length);
  assert.equal(page.hasNextPage(), false);
  const m = await client.models.retrieve('svc');
  assert.equal(m.id, 'svc');
  const err = await expectError(client.models.retrieve('no-such-model'));
  assert.ok(err instanceof OpenAI.NotFoundError, `${err.constructor.name}`);
});

await check('wrong key → AuthenticationError 401, not retried', async () => {
  const bad = new OpenAI({ apiKey: 'svc_live_wrong', baseURL: `${base}/v1`, fetch: countingFetch });
  attempts = 0;
  const err = await expectError(bad.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] }));
  assert.ok(err instanceof OpenAI.AuthenticationError, `${err.constructor.name}`);
  assert.equal(err.status, 401);
  assert.equal(err.code, 'unauthorized');
  assert.match(requestID(err) ?? '', /./, 'x-request-id on errors');
  assert.equal(attempts, 1);
});

await check('body errors → BadRequestError with param and code', async () => {
  const before = await spent();
  const cases = [
    [{ model: 'svc', messages: [{ role: 'user', content: 'Hi' }], n: 2 }, 'n'],
    [{ model: 'svc', messages: [{ role: 'user', content: 'Hi' }], temperature: 5 }, 'temperature'],
    [{ model: 'svc', messages: [] }, 'messages'],
    [{ model: 'svc', messages: [{ role: 'user', content: 'x'.repeat(32_001) }] }, 'messages'],
  ];
  for (const [body, param] of cases) {
    attempts = 0;
    const err = await expectError(client.chat.completions.create(body));
    assert.ok(err instanceof OpenAI.BadRequestError, `${param}: ${err.constructor.name}`);
    assert.equal(err.status, 400);
    assert.ok(err.param === param || err.param.startsWith(`${param}[`) || err.param.startsWith(`${param}.`), `param ${err.param} for ${param}`);
    assert.match(err.code, /^(invalid_request|input_too_large)$/);
    assert.equal(typeof err.error.message, 'string');
    assert.ok(err.message.includes(err.error.message), 'the SDK error message carries ours');
    assert.equal(attempts, 1, '400 is not retried');
  }
  const err = await expectError(client.embeddings.create({ model: 'x', input: [] }));
  assert.ok(err instanceof OpenAI.BadRequestError);
  assert.equal(err.param, 'input');
  assert.equal(await spent(), before);
});

await check('402 plan_required and interaction_limit_reached → APIError 402', async () => {
  const free = new OpenAI({ apiKey: env('SVC_KEY_FREE'), baseURL: `${base}/v1`, maxRetries: 0 });
  const err = await expectError(free.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] }));
  assert.ok(err instanceof OpenAI.APIError, `${err.constructor.name}`);
  assert.equal(err.status, 402);
  assert.equal(err.code, 'plan_required');
  assert.match(err.error.upgrade_url ?? '', /^http/);
  const tinyKey = env('SVC_KEY_TINY');
  const tiny = new OpenAI({ apiKey: tinyKey, baseURL: `${base}/v1`, maxRetries: 2, fetch: countingFetch });
  const before = await spent(tinyKey);
  for (let i = before; i < 2; i++) await tiny.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] });
  attempts = 0;
  const e2 = await expectError(tiny.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] }));
  assert.equal(e2.status, 402);
  assert.equal(e2.code, 'interaction_limit_reached');
  assert.equal(e2.type, 'insufficient_quota');
  assert.equal(attempts, 1, '402 is not retried');
  assert.equal(await spent(tinyKey), 2);
});

await check('429 → RateLimitError with retry-after; maxRetries 0 makes one attempt', async () => {
  const k = env('SVC_KEY_STARTER'); // the starter plan allows 3 model requests a minute here
  const c0 = new OpenAI({ apiKey: k, baseURL: `${base}/v1`, maxRetries: 0, fetch: countingFetch });
  const before = await spent(k);
  let err = null;
  let ok = 0;
  attempts = 0;
  for (let i = 0; i < 6 && !err; i++) {
    try {
      await c0.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] });
      ok++;
    } catch (e) {
      err = e;
    }
  }
  assert.ok(err, 'a 429 within 6 requests');
  assert.ok(err instanceof OpenAI.RateLimitError, `${err.constructor.name}: ${err.message}`);
  assert.equal(err.status, 429);
  assert.equal(err.code, 'rate_limited');
  const ra = Number(err.headers.get ? err.headers.get('retry-after') : err.headers['retry-after']);
  assert.ok(ra >= 1 && ra <= 60, `retry-after ${ra}`);
  assert.equal(err.error.retry_after, ra);
  assert.match(requestID(err) ?? '', /./);
  assert.equal(attempts, ok + 1, 'maxRetries 0: no retry');
  assert.equal(await spent(k), before + ok, 'the refused request costs nothing');
});

await check('a failing upstream: 503 retried by the SDK, nothing charged', async () => {
  const before = await spent();
  attempts = 0;
  const err = await expectError(client.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi #fail' }] }, { maxRetries: 1 }));
  assert.ok(err instanceof OpenAI.InternalServerError, `${err.constructor.name}: ${err.message}`);
  assert.equal(err.status, 503);
  assert.equal(err.code, 'model_unavailable');
  assert.equal(attempts, 2, 'the SDK retries a 503 once with maxRetries 1');
  assert.equal(await spent(), before, 'failed attempts are not charged');
});

await check('a stream that fails after its first pieces: the SDK throws an APIError, nothing charged', async () => {
  const before = await spent();
  const stream = await client.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi #midfail' }], stream: true });
  let text = '';
  const err = await expectError((async () => {
    for await (const ch of stream) text += ch.choices[0]?.delta?.content ?? '';
  })());
  assert.ok(err instanceof OpenAI.APIError, `${err.constructor.name}: ${err.message}`);
  assert.ok(text.length > 0, 'pieces came before the failure');
  const rs = await client.responses.create({ model: 'svc', input: 'Hi #midfail', stream: true });
  const types = [];
  const err2 = await expectError((async () => {
    for await (const ev of rs) types.push(ev.type);
  })());
  assert.ok(err2 instanceof OpenAI.APIError || err2 instanceof OpenAI.OpenAIError, `${err2.constructor.name}: ${err2.message}`);
  assert.ok(types.includes('response.output_text.delta'), types.join(' '));
  assert.equal(await spent(), before, 'a failed stream is not charged');
});

await check('SDK timeouts: every attempt given up by the client, nothing charged', async () => {
  const before = await spent();
  attempts = 0;
  const quick = new OpenAI({ apiKey: key, baseURL: `${base}/v1`, maxRetries: 1, timeout: 400, fetch: countingFetch });
  const err = await expectError(quick.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi #slow' }] }));
  assert.ok(err instanceof OpenAI.APIConnectionTimeoutError, `${err.constructor.name}: ${err.message}`);
  assert.equal(attempts, 2);
  await new Promise((r) => setTimeout(r, 2500)); // the upstream's answers arrive after the client left
  assert.equal(await spent(), before, 'a request its client gave up on is not charged');
});

await check('a stream the client leaves after its first piece is not charged', async () => {
  const before = await spent();
  const stream = await client.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi #slowstream' }], stream: true });
  for await (const ch of stream) {
    if (ch.choices[0]?.delta?.content) break; // the SDK aborts the request
  }
  await new Promise((r) => setTimeout(r, 4000)); // past the upstream's last piece
  assert.equal(await spent(), before, 'an abandoned stream is not charged');
});

await check('SDK retry after a dropped connection: charged once', async () => {
  // The first attempt's response is lost after the service answered (the fetch throws as a
  // connection error would); the SDK retries; the account pays for both replies it received
  // from the service's point of view, and the SDK returns the second.
  const before = await spent();
  let n = 0;
  const flaky = new OpenAI({
    apiKey: key, baseURL: `${base}/v1`, maxRetries: 2,
    fetch: async (url, init) => {
      n++;
      if (n === 1) throw new TypeError('fetch failed');
      return fetch(url, init);
    },
  });
  const c = await flaky.chat.completions.create({ model: 'svc', messages: [{ role: 'user', content: 'Hi' }] });
  assert.equal(c.choices[0].message.content, PLAIN);
  assert.equal(n, 2);
  assert.equal(await spent(), before + 1, 'one success, one charge');
});

await check('svc-assistant: 409 before the agent is set up, asked once (X-Should-Retry); then a reply', async () => {
  attempts = 0;
  const before = await spent();
  const err = await expectError(client.chat.completions.create({ model: 'svc-assistant', messages: [{ role: 'user', content: 'When do you open?' }] }));
  assert.ok(err instanceof OpenAI.ConflictError, `${err.constructor.name}: ${err.message}`);
  assert.equal(err.code, 'agent_not_configured');
  assert.equal(attempts, 1, 'the SDK does not retry an answer only the owner can change');
  assert.equal(await spent(), before);
  const r = await api('PATCH', '/v1/agent', { business_name: 'SDK Bakery' });
  assert.equal(r.status, 200, r.text);
  const c = await client.chat.completions.create({ model: 'svc-assistant', messages: [{ role: 'user', content: 'When do you open?' }], tools: [weatherTool] });
  assert.equal(c.model, 'svc-assistant');
  assert.ok(c.choices[0].message.content.length > 0);
  assert.equal(c.choices[0].message.tool_calls, undefined, 'tools are ignored');
});

await check('usage statement counts the replies', async () => {
  const r = await api('GET', '/v1/usage');
  assert.equal(r.status, 200, r.text);
  const s = JSON.stringify(r.body);
  assert.ok(/interactions/.test(s), s);
});

done();
