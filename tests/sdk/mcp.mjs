// The MCP endpoint (/mcp, Streamable HTTP) with the official TypeScript SDK: initialize, the
// tools' schemas, read-only calls (the SDK validates structuredContent against outputSchema),
// errors as isError results or JSON-RPC errors, the session id, GET and DELETE.
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { assert, base, key, check, done, api, expectError, version } from './lib.mjs';

console.log(`  @modelcontextprotocol/sdk ${version('@modelcontextprotocol/sdk')}`);

// seen records every HTTP exchange of the transport: method, status, session header.
const seen = [];
const recordingFetch = async (url, init = {}) => {
  const r = await fetch(url, init);
  const h = new Headers(init.headers);
  seen.push({ method: init.method ?? 'GET', status: r.status, sent: h.get('mcp-session-id'), got: r.headers.get('mcp-session-id'), version: h.get('mcp-protocol-version') });
  return r;
};

function connect(k = key, fetchFn = recordingFetch) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${k}` } },
    fetch: fetchFn,
  });
  const client = new Client({ name: 'sdk-check', version: '1.0.0' });
  return { client, transport };
}

const { client, transport } = connect();
let tools = [];

await check('initialize: server info, capabilities, session id', async () => {
  await client.connect(transport);
  const info = client.getServerVersion();
  assert.equal(typeof info.name, 'string');
  assert.equal(typeof info.version, 'string');
  const caps = client.getServerCapabilities();
  assert.ok(caps.tools, 'tools capability');
  assert.ok(caps.resources, 'resources capability');
  assert.match(transport.sessionId ?? '', /^[\x21-\x7e]+$/, 'a visible-ASCII session id');
  const init = seen.find((s) => s.method === 'POST');
  assert.equal(init.status, 200);
  assert.equal(init.got, transport.sessionId);
  const later = seen.filter((s) => s.method === 'POST').slice(1);
  assert.ok(later.length >= 1, 'initialized notification sent');
  for (const s of later) {
    assert.equal(s.sent, transport.sessionId, 'the session id on every later request');
    assert.match(s.version ?? '', /^\d{4}-\d\d-\d\d$/, 'the protocol version header');
    assert.ok(s.status === 200 || s.status === 202, `status ${s.status}`);
  }
});

await check('the GET stream: 200 text/event-stream or 405', async () => {
  await new Promise((r) => setTimeout(r, 300));
  const gets = seen.filter((s) => s.method === 'GET');
  for (const g of gets) assert.ok(g.status === 200 || g.status === 405, `GET answered ${g.status}`);
});

await check('listTools: every inputSchema and outputSchema compiles (ajv, as the SDK)', async () => {
  const r = await client.listTools();
  tools = r.tools;
  assert.ok(tools.length >= 18, `${tools.length} tools`);
  const ajv = new AjvJsonSchemaValidator();
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', `${t.name} inputSchema type`);
    assert.doesNotThrow(() => ajv.getValidator(t.inputSchema), `${t.name} inputSchema`);
    if (t.outputSchema) {
      assert.equal(t.outputSchema.type, 'object', `${t.name} outputSchema type`);
      assert.doesNotThrow(() => ajv.getValidator(t.outputSchema), `${t.name} outputSchema`);
    }
    assert.equal(typeof t.description, 'string', `${t.name} description`);
  }
  const names = tools.map((t) => t.name);
  for (const n of ['get_account', 'get_agent', 'get_knowledge', 'search_knowledge', 'list_conversations', 'list_webhooks', 'get_usage', 'assistant']) {
    assert.ok(names.includes(n), `${n} listed`);
  }
});

// call calls a tool through the SDK (which checks structuredContent against the outputSchema)
// and checks that the text content is the structuredContent's JSON.
async function call(name, args = {}) {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(Array.isArray(r.content) && r.content.length >= 1, `${name} content`);
  assert.equal(r.content[0].type, 'text');
  if (!r.isError) {
    assert.ok(r.structuredContent, `${name} structuredContent`);
    assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent, `${name}: text is the structured content`);
  }
  return r;
}

await check('read-only tools: results valid against their outputSchema', async () => {
  const r = await api('POST', '/v1/knowledge/faq', { items: [{ question: 'Do you deliver?', answer: 'Yes, within 5 km.' }] });
  assert.equal(r.status, 200, r.text);
  const acct = await call('get_account');
  assert.equal(acct.isError ?? false, false);
  assert.equal(acct.structuredContent.object, 'account');
  await call('get_agent');
  const kn = await call('get_knowledge');
  assert.equal(kn.isError ?? false, false);
  const s = await call('search_knowledge', { query: 'deliver' });
  assert.equal(s.isError ?? false, false, s.content[0].text);
  for (const n of ['list_conversations', 'list_conversions', 'list_webhooks', 'get_usage']) {
    const x = await call(n);
    assert.equal(x.isError ?? false, false, `${n}: ${x.content[0].text}`);
  }
  const lc = await call('list_conversations', { limit: 5 });
  assert.equal(lc.isError ?? false, false, lc.content[0].text);
});

await check('a refusal is an isError result with the REST error', async () => {
  const r = await call('get_conversation', { conversation_id: 'no-such-conversation' });
  assert.equal(r.isError, true);
  const e = JSON.parse(r.content[0].text);
  assert.equal(e.error.code, 'not_found');
  const bad = await call('add_faq', { items: [{ question: 'q' }] });
  assert.equal(bad.isError, true);
  assert.equal(JSON.parse(bad.content[0].text).error.code, 'invalid_request');
  const unknown = await call('get_usage', { nope: 1 });
  assert.equal(unknown.isError, true, 'an unknown argument is refused as the route does');
});

await check('an unknown tool is a JSON-RPC error or an isError result', async () => {
  let r;
  try {
    r = await client.callTool({ name: 'no_such_tool', arguments: {} });
  } catch (err) {
    assert.equal(typeof err.code, 'number', `${err}`);
    return;
  }
  assert.equal(r.isError, true);
});

await check('resources: list, templates, read', async () => {
  const list = await client.listResources();
  assert.ok(list.resources.some((x) => x.uri === 'svc://knowledge/faq'), JSON.stringify(list.resources));
  const tpl = await client.listResourceTemplates();
  assert.ok(tpl.resourceTemplates.length >= 1);
  const faq = await client.readResource({ uri: 'svc://knowledge/faq' });
  assert.equal(faq.contents[0].uri, 'svc://knowledge/faq');
  const text = faq.contents[0].text;
  assert.ok(text.includes('Do you deliver?'), text);
  const err = await expectError(client.readResource({ uri: 'svc://nothing/here' }));
  assert.equal(typeof err.code, 'number');
});

await check('assistant with elicitation: the approval asked in the client, accepted and declined', async () => {
  const r = await api('PATCH', '/v1/agent', { business_name: 'SDK Bakery' });
  assert.equal(r.status, 200, r.text);
  for (const action of ['accept', 'decline']) {
    const transport2 = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } });
    const c = new Client({ name: 'sdk-check-elicit', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked = [];
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return action === 'accept' ? { action, content: {} } : { action };
    });
    await c.connect(transport2);
    const res = await c.callTool({ name: 'assistant', arguments: { mode: 'do', message: 'email ana@example.com subject Hello text See you at 5 #email' } });
    assert.equal(res.isError ?? false, false, res.content[0].text);
    assert.equal(asked.length, 1, 'one elicitation');
    assert.match(asked[0].message, /ana@example\.com/);
    const reply = res.structuredContent;
    assert.equal(reply.object, 'assistant_reply');
    if (action === 'accept') {
      assert.ok(['completed', 'failed'].includes(reply.status), `status ${reply.status}`);
      assert.equal(reply.actions[0].type, 'email');
    } else {
      assert.equal(reply.status, 'needs_approval');
      assert.match(reply.approval.id, /^apr_/);
    }
    await transport2.terminateSession();
    await c.close();
  }
});

await check('crawl_site with progress notifications', async () => {
  // A small site on loopback (svc-api runs with SVC_ALLOW_PRIVATE_TARGETS=true).
  const para = (t) => `<p>${t} `.repeat(8) + '</p>';
  const pages = {
    '/': `<html><head><title>Home</title></head><body><main><h1>SDK Bakery</h1>${para('Fresh sourdough, rye and wholemeal bread baked every morning from seven in our own oven.')}<a href="/hours">Hours</a></main></body></html>`,
    '/hours': `<html><head><title>Hours</title></head><body><main><h1>Opening hours</h1>${para('We open Monday to Saturday from 7am to 6pm and on Sundays from 8am to 1pm.')}</main></body></html>`,
  };
  const site = http.createServer((req, res) => {
    const page = pages[req.url];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise((r) => site.listen(0, '127.0.0.1', r));
  try {
    const progress = [];
    const r = await client.callTool({ name: 'crawl_site', arguments: { url: `http://127.0.0.1:${site.address().port}/`, max_pages: 5 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    assert.equal(r.isError ?? false, false, r.content[0].text);
    assert.ok(progress.length >= 1, 'progress notifications');
    for (const p of progress) assert.equal(typeof p.progress, 'number');
    for (let i = 1; i < progress.length; i++) assert.ok(progress[i].progress > progress[i - 1].progress, 'progress increases');
  } finally {
    site.close();
  }
});

await check('ping', async () => {
  await client.ping();
});

await check('wrong key: connect fails with 401', async () => {
  const local = [];
  const { client: c2, transport: t2 } = connect('svc_live_wrong', async (url, init) => {
    const r = await fetch(url, init);
    local.push(r.status);
    return r;
  });
  await expectError(c2.connect(t2));
  assert.deepEqual(local, [401]);
});

await check('DELETE ends the session; its id is then refused with 404', async () => {
  const sid = transport.sessionId;
  await transport.terminateSession();
  const del = seen.filter((s) => s.method === 'DELETE');
  assert.equal(del.length, 1);
  assert.ok(del[0].status === 200 || del[0].status === 204 || del[0].status === 405, `DELETE ${del[0].status}`);
  if (del[0].status === 405) return;
  const r = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });
  assert.equal(r.status, 404, 'a terminated session is 404 (the client then starts a new one)');
  await client.close();
});

await check('a new client after close works (reconnect)', async () => {
  const { client: c3, transport: t3 } = connect();
  await c3.connect(t3);
  const r = await c3.callTool({ name: 'get_account', arguments: {} });
  assert.equal(r.isError ?? false, false);
  await t3.terminateSession();
  await c3.close();
});

done();
