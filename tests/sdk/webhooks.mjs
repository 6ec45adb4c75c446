// Webhook deliveries (spec 2.10, 2.11, 4.6, 6) received on loopback and verified with the
// stripe package's verifier: SVC-Signature is Stripe's t=<unix>,v1=<hex> scheme.
import http from 'node:http';
import Stripe from 'stripe';
import { assert, base, check, done, api, env, version } from './lib.mjs';

const stripe = new Stripe('sk_test_unused');
console.log(`  stripe ${version('stripe')}`);

// The receiver keeps every delivery's raw body and headers; failNext answers the next n with 500.
const got = [];
let failNext = 0;
const waiters = [];
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const d = { path: req.url, headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
    got.push(d);
    if (failNext > 0) {
      failNext--;
      res.writeHead(500).end('not now');
    } else {
      res.writeHead(204).end();
    }
    for (const w of waiters.splice(0)) w();
  });
});
await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
const hookURL = `http://127.0.0.1:${receiver.address().port}/hooks`;

// deliveries waits until n deliveries matching pred have arrived (at most ms) and returns them.
async function deliveries(pred, n = 1, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const m = got.filter(pred);
    if (m.length >= n) return m;
    if (Date.now() > until) throw new assert.AssertionError({ message: `${m.length} of ${n} deliveries within ${ms} ms (got ${got.map((d) => d.headers['svc-event'])})` });
    await new Promise((r) => {
      waiters.push(r);
      setTimeout(r, 250);
    });
  }
}

const ofType = (type) => (d) => d.headers['svc-event'] === type;
let hook = null;

// verified checks one delivery with stripe.webhooks.constructEvent and the spec's headers and
// envelope, and returns the event.
function verified(d, type) {
  const header = d.headers['svc-signature'];
  assert.match(header ?? '', /^t=\d+,v1=[0-9a-f]{64}$/, `SVC-Signature ${header}`);
  const event = stripe.webhooks.constructEvent(d.raw, header, hook.secret);
  const t = Number(/t=(\d+)/.exec(header)[1]);
  assert.ok(Math.abs(t - d.at / 1000) < 30, 't is the time of sending');
  assert.equal(header, stripe.webhooks.generateTestHeaderString({ payload: d.raw.toString('utf8'), secret: hook.secret, timestamp: t }),
    'our header is what stripe generates for the same body, secret and time');
  assert.equal(d.headers['svc-event'], type);
  assert.equal(event.type, type);
  assert.match(event.id, /^evt_/);
  assert.equal(d.headers['svc-delivery'], event.id, 'SVC-Delivery is the event id');
  assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/, `created_at ${event.created_at}`);
  assert.equal(typeof event.data, 'object');
  assert.ok(event.data !== null && !Array.isArray(event.data));
  assert.deepEqual(Object.keys(event).sort(), ['created_at', 'data', 'id', 'type'], `envelope keys ${Object.keys(event)}`);
  assert.match(d.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(d.path, '/hooks');
  return event;
}

await check('create a webhook: the secret once', async () => {
  const r = await api('POST', '/v1/webhooks', { url: hookURL, events: ['*'] });
  assert.equal(r.status, 201, r.text);
  hook = r.body;
  assert.equal(hook.object, 'webhook');
  assert.match(hook.id, /^wh_/);
  assert.match(hook.secret, /^whsec_/);
  assert.deepEqual(hook.events, ['*']);
  assert.equal(hook.active, true);
  assert.equal(hook.failures, 0);
  const list = await api('GET', '/v1/webhooks');
  assert.equal(list.status, 200);
  const listed = list.body.data.find((w) => w.id === hook.id);
  assert.ok(listed);
  assert.equal(listed.secret, undefined, 'the secret is never listed');
});

await check('POST /v1/webhooks/{id}/test: webhook.test verified by stripe', async () => {
  const r = await api('POST', `/v1/webhooks/${hook.id}/test`);
  assert.equal(r.status, 200, r.text);
  assert.equal(r.body.delivered, true);
  assert.equal(r.body.status_code, 204);
  const [d] = await deliveries((x) => x.headers['svc-delivery'] === r.body.event_id);
  const ev = verified(d, 'webhook.test');
  assert.equal(ev.data.webhook_id, hook.id);
});

await check('knowledge.updated verified by stripe', async () => {
  const r = await api('POST', '/v1/knowledge/faq', { items: [{ question: 'Do you deliver?', answer: 'Yes, within 5 km.' }] });
  assert.equal(r.status, 200, r.text);
  const [d] = await deliveries(ofType('knowledge.updated'));
  const ev = verified(d, 'knowledge.updated');
  assert.equal(ev.data.source, 'faq');
  assert.equal(typeof ev.data.pages, 'number');
  assert.equal(typeof ev.data.chars, 'number');
});

await check('message.replied verified by stripe', async () => {
  let r = await api('PATCH', '/v1/agent', { business_name: 'SDK Bakery' });
  assert.equal(r.status, 200, r.text);
  r = await api('POST', '/v1/chat', { message: 'When do you open?', conversation_id: 'sdk-1' });
  assert.equal(r.status, 200, r.text);
  const [d] = await deliveries(ofType('message.replied'));
  const ev = verified(d, 'message.replied');
  assert.equal(ev.data.channel, 'api');
  assert.equal(ev.data.customer_message, 'When do you open?');
  assert.equal(ev.data.reply, r.body.reply);
  assert.equal(typeof ev.data.contact_id, 'string');
});

await check('tolerance: stripe refuses an old signature and a wrong secret', async () => {
  const d = got.find(ofType('webhook.test'));
  const header = d.headers['svc-signature'];
  await new Promise((r) => setTimeout(r, 2100));
  assert.throws(() => stripe.webhooks.constructEvent(d.raw, header, hook.secret, 1), (e) => e.type === 'StripeSignatureVerificationError' && /tolerance/i.test(e.message));
  assert.throws(() => stripe.webhooks.constructEvent(d.raw, header, 'whsec_wrong'), (e) => e.type === 'StripeSignatureVerificationError');
  const tampered = Buffer.from(d.raw.toString('utf8').replace('webhook.test', 'webhook.tesu'));
  assert.throws(() => stripe.webhooks.constructEvent(tampered, header, hook.secret), (e) => e.type === 'StripeSignatureVerificationError');
});

await check('a failed attempt is retried with a fresh signature and the same SVC-Delivery', async () => {
  failNext = 1;
  const before = got.length;
  const r = await api('POST', '/v1/knowledge/faq', { items: [{ question: 'Do you bake on Sundays?', answer: 'Yes.' }] });
  assert.equal(r.status, 200, r.text);
  const ds = await deliveries((x) => got.indexOf(x) >= before && x.headers['svc-event'] === 'knowledge.updated', 2, 30_000);
  const [a, b] = ds;
  assert.equal(a.headers['svc-delivery'], b.headers['svc-delivery']);
  assert.equal(a.raw.toString(), b.raw.toString(), 'the same body on every attempt');
  verified(a, 'knowledge.updated');
  verified(b, 'knowledge.updated');
  const gap = (b.at - a.at) / 1000;
  assert.ok(gap >= 1.5 && gap < 10, `retried after ${gap} s (spec: 2 s)`);
  // The receiver sees the retry before the service has recorded its answer: poll a little.
  let w = null;
  for (const until = Date.now() + 10_000; Date.now() < until;) {
    const list = await api('GET', '/v1/webhooks');
    w = list.body.data.find((x) => x.id === hook.id);
    if (w.last_status === 204) break;
    await new Promise((res) => setTimeout(res, 200));
  }
  assert.equal(w.last_status, 204);
  assert.equal(w.failures, 0, 'a delivered event resets failures');
});

await check('events filter: a webhook for knowledge.updated only', async () => {
  const r = await api('POST', '/v1/webhooks', { url: `${hookURL}?only=knowledge`, events: ['knowledge.updated'] });
  assert.equal(r.status, 201, r.text);
  const before = got.length;
  await api('POST', '/v1/chat', { message: 'Hi again', conversation_id: 'sdk-2' });
  await api('POST', '/v1/knowledge/faq', { items: [{ question: 'Parking?', answer: 'Yes.' }] });
  await deliveries((x) => got.indexOf(x) >= before && x.path === '/hooks?only=knowledge', 1);
  await deliveries((x) => got.indexOf(x) >= before && x.path === '/hooks' && x.headers['svc-event'] === 'message.replied', 1);
  await new Promise((res) => setTimeout(res, 1000));
  const filtered = got.slice(before).filter((x) => x.path === '/hooks?only=knowledge');
  assert.deepEqual(filtered.map((x) => x.headers['svc-event']), ['knowledge.updated']);
  const del = await api('DELETE', `/v1/webhooks/${r.body.id}`);
  assert.equal(del.status, 200, del.text);
  assert.equal(del.body.deleted, true);
});

await check('redeliver: the same event and SVC-Delivery, a fresh signature', async () => {
  const first = got.find(ofType('knowledge.updated'));
  const id = first.headers['svc-delivery'];
  const before = got.length;
  const r = await api('POST', `/v1/webhooks/${hook.id}/deliveries/${id}/redeliver`);
  assert.ok(r.status === 200 || r.status === 202, `${r.status} ${r.text}`);
  const [d] = await deliveries((x) => got.indexOf(x) >= before && x.headers['svc-delivery'] === id && x.path === '/hooks');
  const ev = verified(d, 'knowledge.updated');
  assert.equal(ev.id, id);
  assert.equal(d.raw.toString(), first.raw.toString(), 'the same body');
});

await check('limit.reached verified by stripe', async () => {
  const tiny = env('SVC_KEY_TINY'); // 2 interactions a month
  const w = await api('POST', '/v1/webhooks', { url: `${hookURL}?tiny=1`, events: ['limit.reached'] }, tiny);
  assert.equal(w.status, 201, w.text);
  for (let i = 0; i < 2; i++) {
    const r = await api('POST', '/v1/embeddings', { input: 'bread' }, tiny);
    assert.equal(r.status, 200, r.text);
  }
  const r = await api('POST', '/v1/embeddings', { input: 'bread' }, tiny);
  assert.equal(r.status, 402, r.text);
  const [d] = await deliveries((x) => x.path === '/hooks?tiny=1');
  const header = d.headers['svc-signature'];
  const ev = stripe.webhooks.constructEvent(d.raw, header, w.body.secret);
  assert.equal(ev.type, 'limit.reached');
  assert.equal(d.headers['svc-event'], 'limit.reached');
  assert.equal(ev.data.plan, 'pro');
  assert.match(ev.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

receiver.close();
done();
