// Starts what the checks need and runs them: the fake upstream (fake-upstream.mjs) and svc-api
// embedded (SQLite in a temporary folder, in-process queue, loopback targets allowed), accounts
// and keys made with svcctl, then each check script as a child process with the addresses and
// keys in its environment. Exits non-zero when a check fails.
//
//   node run.mjs [check …]      checks: openai openai4 webhooks mcp mcpremote aisdk langchain (default: all)
//   node run.mjs serve          start everything, print the environment a check gets, and wait
//
// SVC_BIN names the folder of the built programs (default ../../bin; `make sdk-check` builds
// them there).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startUpstream } from './fake-upstream.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.resolve(process.env.SVC_BIN || path.join(here, '..', '..', 'bin'));
const all = ['openai', 'openai4', 'webhooks', 'mcp', 'mcpremote', 'aisdk', 'langchain'];
const scripts = {
  openai: ['openai.mjs', 'openai'],
  openai4: ['openai.mjs', 'openai4'],
  webhooks: ['webhooks.mjs'],
  mcp: ['mcp.mjs'],
  mcpremote: ['mcpremote.mjs'],
  aisdk: ['aisdk.mjs'],
  langchain: ['langchain.mjs'],
};
const serve = process.argv[2] === 'serve';
const wanted = serve ? [] : process.argv.slice(2).length ? process.argv.slice(2) : all;
for (const w of wanted) if (!scripts[w]) throw new Error(`unknown check ${w}; known: ${all.join(' ')}`);

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-sdk-'));
const up = await startUpstream();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME || dir,
  SVC_HTTP_ADDR: `127.0.0.1:${port}`,
  SVC_METRICS_ADDR: '',
  SVC_PUBLIC_URL: base,
  SVC_DATABASE_URL: `sqlite://${path.join(dir, 'svc.db')}`,
  SVC_DEMO: 'false',
  SVC_ALLOW_PRIVATE_TARGETS: 'true',
  SVC_MODEL_BASE_URL: `http://127.0.0.1:${up.port}/v1`,
  SVC_MODEL_API_KEY: 'sk-fake-upstream',
  SVC_MODEL_NAME: 'fake-upstream-model',
  SVC_MODEL_EMBEDDING_NAME: 'fake-embeddings',
  // The starter plan's model endpoints allow 3 requests a minute: the 429 checks use a starter key.
  SVC_PLAN_STARTER_RATE_LIMITS: 'model=3',
  SVC_LOG_LEVEL: 'warn',
};
const log = fs.openSync(path.join(dir, 'svc-api.log'), 'a');
const api = spawn(path.join(bin, 'svc-api'), [], { env, stdio: ['ignore', log, log] });
let apiExited = false;
api.on('exit', () => {
  apiExited = true;
});

function stop(code) {
  if (!apiExited) api.kill('SIGTERM');
  up.srv.close();
  if (code !== 0) {
    console.error(`svc-api's log: ${path.join(dir, 'svc-api.log')}`);
  } else {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(code);
}

async function healthy() {
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (apiExited) throw new Error('svc-api exited at start');
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('svc-api did not become healthy in 90 s');
}

function svcctl(...args) {
  const out = execFileSync(path.join(bin, 'svcctl'), args, { env, encoding: 'utf8' });
  return JSON.parse(out);
}

function account(name, ...flags) {
  const a = svcctl('account', 'create', '--name', name, '--owner-email', 'owner@example.com', ...flags);
  const k = svcctl('key', 'create', '--account', a.account_id, '--name', 'sdk');
  return { id: a.account_id, key: k.key };
}

let failed = 0;
try {
  await healthy();
  const accounts = {
    SVC_KEY: account('SDK check', '--plan', 'pro').key,
    SVC_KEY_FREE: account('SDK free', '--plan', 'free').key,
    SVC_KEY_STARTER: account('SDK starter', '--plan', 'starter').key,
    SVC_KEY_TINY: account('SDK tiny', '--plan', 'pro', '--interaction-limit', '2').key,
  };
  if (serve) {
    for (const [k, v] of Object.entries({ ...accounts, SVC_BASE_URL: base, SVC_UPSTREAM_PORT: String(up.port) })) console.log(`export ${k}=${v}`);
    console.log(`# svc-api's log: ${path.join(dir, 'svc-api.log')}; Ctrl-C stops`);
    await new Promise((resolve) => process.on('SIGINT', resolve).on('SIGTERM', resolve));
  }
  for (const w of wanted) {
    // Each check gets accounts of its own, so that limits spent by one do not touch the next.
    const own = w === wanted[0] ? accounts : {
      SVC_KEY: account(`SDK ${w}`, '--plan', 'pro').key,
      SVC_KEY_FREE: accounts.SVC_KEY_FREE,
      SVC_KEY_STARTER: account(`SDK ${w} starter`, '--plan', 'starter').key,
      SVC_KEY_TINY: account(`SDK ${w} tiny`, '--plan', 'pro', '--interaction-limit', '2').key,
    };
    const [file, ...args] = scripts[w];
    console.log(`--- ${w}`);
    const code = await new Promise((resolve) => {
      const p = spawn(process.execPath, [path.join(here, file), ...args], {
        env: { ...process.env, ...own, SVC_BASE_URL: base, SVC_UPSTREAM_PORT: String(up.port) },
        stdio: 'inherit',
      });
      p.on('exit', (c, sig) => resolve(sig ? 1 : c));
    });
    console.log(`--- ${w}: ${code === 0 ? 'ok' : 'FAILED'}`);
    if (code !== 0) failed++;
  }
} catch (err) {
  console.error(err);
  failed++;
}
console.log(`${wanted.length - failed} passed, ${failed} failed`);
stop(failed ? 1 : 0);
