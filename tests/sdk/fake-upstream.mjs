// A small OpenAI-compatible upstream on loopback for svc-api's SVC_MODEL_BASE_URL (with /v1),
// as tests/models_test.go's fake: the last user text picks the answer. "#tool" asks for
// get_weather (and a tool result after it gets the tool answer), "#email" the owner's assistant's
// email action, "#json-ok" answers JSON of the
// weather schema, "#fail" answers 500 (a failed upstream: nothing must be charged), "#midfail" drops a stream
// after its second piece, "#slow" answers after 1.5 s,
// "#slowstream" streams a piece every 300 ms, anything else
// gets PLAIN. It prints "listening <port>" once ready. Usage: node fake-upstream.mjs [port]
import http from 'node:http';

export const PLAIN = 'Hello from the fake upstream: the bakery opens at seven every morning.';
export const TOOL_ARGS = '{"city":"Lisbon","unit":"celsius"}';
export const TOOL_ANSWER = 'It is 21 °C and sunny in Lisbon.';
export const EMAIL_ARGS = '{"to":"ana@example.com","cc":"","subject":"Hello","text":"See you at 5"}';
export const JSON_OK = '{"city":"Lisbon","temp_c":21}';
const PROMPT_TOKENS = 37;
const OUTPUT_TOKENS = 11;

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

function answer(last, toolAfter) {
  if (toolAfter) return { text: TOOL_ANSWER, tool: false };
  if (last.includes('#tool') || last.includes('#email')) return { text: '', tool: true };
  if (last.includes('#json-ok')) return { text: JSON_OK, tool: false };
  return { text: PLAIN, tool: false };
}

function pieces(text) {
  const out = [];
  let rest = text;
  while (rest !== '') {
    const i = rest.indexOf(' ');
    if (i < 0) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, i + 1));
    rest = rest.slice(i + 1);
  }
  return out;
}

function vector(text, dims) {
  const v = [];
  let sum = 0;
  for (let i = 0; i < dims; i++) {
    let h = 2166136261;
    for (const ch of `${text}#${i}`) h = Math.imul(h ^ ch.codePointAt(0), 16777619) >>> 0;
    const x = ((h % 2001) - 1000) / 1000;
    v.push(x);
    sum += x * x;
  }
  const n = Math.sqrt(sum) || 1;
  return v.map((x) => Math.fround(x / n));
}

function json(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function usage() {
  return { prompt_tokens: PROMPT_TOKENS, completion_tokens: OUTPUT_TOKENS, total_tokens: PROMPT_TOKENS + OUTPUT_TOKENS };
}

function chat(req, res, body) {
  let last = '';
  let toolAfter = false;
  for (const m of body.messages || []) {
    if (m.role === 'user') {
      last = textOf(m.content);
      toolAfter = false;
    } else if (m.role === 'tool') toolAfter = true;
  }
  if (last.includes('#fail')) return json(res, 500, { error: { message: 'the fake upstream fails on purpose', type: 'server_error' } });
  if (last.includes('#slow') && !req.slowed) {
    req.slowed = true; // "#slow" answers after 1.5 s
    return setTimeout(() => chat(req, res, body), 1500);
  }
  const { text, tool } = answer(last, toolAfter);
  const model = body.model;
  const created = Math.floor(Date.now() / 1000);
  let call = { id: 'call_weather_1', type: 'function', function: { name: 'get_weather', arguments: TOOL_ARGS } };
  if (tool && last.includes('#email')) {
    // The owner's assistant: its catalogue's email action.
    call = { id: 'call_email_1', type: 'function', function: { name: 'email', arguments: EMAIL_ARGS } };
  }
  if (!body.stream) {
    const message = { role: 'assistant', content: tool ? null : text };
    if (tool) message.tool_calls = [call];
    return json(res, 200, {
      id: 'chatcmpl-fake-1', object: 'chat.completion', created, model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: tool ? 'tool_calls' : 'stop' }],
      usage: usage(), system_fingerprint: 'fp_fake',
    });
  }
  const includeUsage = Boolean(body.stream_options && body.stream_options.include_usage);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (choices, u) => {
    const ch = { id: 'chatcmpl-fake-stream', object: 'chat.completion.chunk', created, model, choices };
    if (includeUsage) ch.usage = u ?? null;
    res.write(`data: ${JSON.stringify(ch)}\n\n`);
  };
  const delta = (d, finish) => [{ index: 0, delta: d, logprobs: null, finish_reason: finish }];
  send(delta({ role: 'assistant', content: '' }, null));
  if (tool) {
    send(delta({ tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, null));
    const args = call.function.arguments;
    const third = Math.floor(args.length / 3);
    for (const p of [args.slice(0, third), args.slice(third, 2 * third), args.slice(2 * third)]) {
      send(delta({ tool_calls: [{ index: 0, function: { arguments: p } }] }, null));
    }
  } else {
    const ps = pieces(text);
    if (last.includes('#slowstream')) {
      // One piece every 300 ms.
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        if (i < ps.length) {
          send(delta({ content: ps[i++] }, null));
          setTimeout(next, 300);
          return;
        }
        send(delta({}, 'stop'));
        if (includeUsage) send([], usage());
        res.end('data: [DONE]\n\n');
      };
      return next();
    }
    for (const [i, p] of ps.entries()) {
      send(delta({ content: p }, null));
      if (i === 1 && last.includes('#midfail')) {
        // The upstream goes away in the middle of its answer, once what it wrote has left.
        res.write('', () => setTimeout(() => res.destroy(), 100));
        return;
      }
    }
  }
  send(delta({}, tool ? 'tool_calls' : 'stop'));
  if (includeUsage) send([], usage());
  res.end('data: [DONE]\n\n');
}

function embeddings(res, body) {
  const texts = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) return json(res, 400, { error: { message: 'text only', type: 'invalid_request_error' } });
  const dims = body.dimensions > 0 ? body.dimensions : 8;
  const data = texts.map((t, index) => {
    const v = vector(t, dims);
    let embedding = v;
    if (body.encoding_format === 'base64') embedding = Buffer.from(new Float32Array(v).buffer).toString('base64');
    return { object: 'embedding', index, embedding };
  });
  const tokens = texts.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0);
  json(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

export function startUpstream(port = 0) {
  const calls = [];
  const srv = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let body = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = null;
      }
      calls.push({ path: req.url, body });
      if (req.method !== 'POST' || !body) return json(res, 400, { error: { message: 'want a POST with a JSON object', type: 'invalid_request_error' } });
      if (req.url === '/v1/chat/completions') return chat(req, res, body);
      if (req.url === '/v1/embeddings') return embeddings(res, body);
      return json(res, 404, { error: { message: `no such route: ${req.url}`, type: 'invalid_request_error' } });
    });
  });
  return new Promise((resolve) => srv.listen(port, '127.0.0.1', () => resolve({ srv, calls, port: srv.address().port })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port } = await startUpstream(Number(process.argv[2] || 0));
  console.log(`listening ${port}`);
}
