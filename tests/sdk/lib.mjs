// What the checks share: the environment run.mjs gives them, a named-check runner that counts
// failures (the process exits non-zero on any), and small HTTP helpers.
import assert from 'node:assert/strict';
import fs from 'node:fs';

export { assert };

export const base = need('SVC_BASE_URL');
export const key = need('SVC_KEY');

function need(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the checks through run.mjs`);
  return v;
}

export function env(name) {
  return need(name);
}

let failures = 0;
let passes = 0;

// check runs one named check; a thrown error (a failed assertion) is a failure, reported with
// its name, and the other checks still run.
export async function check(name, fn) {
  try {
    await fn();
    passes++;
    console.log(`  ok   ${name}`);
  } catch (err) {
    failures++;
    console.log(`  FAIL ${name}\n       ${String(err && err.stack ? err.stack : err).split('\n').slice(0, 6).join('\n       ')}`);
  }
}

// done ends the script: exit status 1 when any check failed.
export function done() {
  console.log(`  ${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

// api calls the REST API with the key (or the one given) and returns { status, headers, body }.
export async function api(method, path, body, k = key) {
  const r = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${k}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: r.status, headers: r.headers, body: json, text };
}

// spent is the interactions the key's account has spent this period (GET /v1/account).
export async function spent(k = key) {
  const r = await api('GET', '/v1/account', undefined, k);
  assert.equal(r.status, 200, r.text);
  return r.body.usage.interactions_spent;
}

// expectError awaits p and returns the error it rejects with; it fails when p resolves.
export async function expectError(p) {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new assert.AssertionError({ message: 'expected an error, the call succeeded' });
}

// version is the installed version of an npm package (read from its package.json, which some
// packages' exports do not make importable).
export function version(name) {
  const file = new URL(`./node_modules/${name}/package.json`, import.meta.url);
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}
