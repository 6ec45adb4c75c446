// Starts what the checks need and runs them: the fake upstream (fake-upstream.mjs) and svc-api
// embedded (SQLite in a temporary folder, in-process queue, loopback targets allowed; for the
// "builtin" check a second one without an upstream), accounts
// and keys made with svcctl, then each check script as a child process with the addresses and
// keys in its environment. Exits non-zero when a check fails.
//
//   node run.mjs [check …]      checks: openai openai4 builtin webhooks mcp mcpremote aisdk langchain (default: all)
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
const all = ['openai', 'openai4', 'builtin', 'webhooks', 'mcp', 'mcpremote', 'aisdk', 'langchain'];
const scripts = {
  openai: ['openai.mjs', 'openai'],
  openai4: ['openai.mjs', 'openai4'],
  builtin: ['builtin.mjs'],
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
const apis = [];

// startAPI starts a svc-api on a free loopback port over its own SQLite file, with the fake
// upstream unless withUpstream is false, and returns its address, environment (for svcctl) and
// process once it is healthy.
async function startAPI(name, withUpstream) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME || dir,
    SVC_HTTP_ADDR: `127.0.0.1:${port}`,
    SVC_METRICS_ADDR: '',
    SVC_PUBLIC_URL: base,
    SVC_DATABASE_URL: `sqlite://${path.join(dir, `${name}.db`)}`,
    SVC_DEMO: 'false',
    SVC_ALLOW_PRIVATE_TARGETS: 'true',
    // The starter plan's model endpoints allow 3 requests a minute: the 429 checks use a starter key.
    SVC_PLAN_STARTER_RATE_LIMITS: 'model=3',
    SVC_LOG_LEVEL: 'warn',
    ...(withUpstream ? {
      SVC_MODEL_BASE_URL: `http://127.0.0.1:${up.port}/v1`,
      SVC_MODEL_API_KEY: 'sk-fake-upstream',
      SVC_MODEL_NAME: 'fake-upstream-model',
      SVC_MODEL_EMBEDDING_NAME: 'fake-embeddings',
    } : {}),
  };
  const logFile = path.join(dir, `${name}.log`);
  const log = fs.openSync(logFile, 'a');
  const proc = spawn(path.join(bin, 'svc-api'), [], { env, stdio: ['ignore', log, log] });
  const a = { name, base, env, proc, logFile, exited: false };
  proc.on('exit', () => {
    a.exited = true;
  });
  proc.on('error', (err) => {
    a.exited = true;
    fs.appendFileSync(logFile, `cannot start ${path.join(bin, 'svc-api')}: ${err.message}\n`);
  });
  apis.push(a);
  const until = Date.now() + 90_000;
  while (Date.now() < until) {
    if (a.exited) throw new Error(`${name} exited at start; its log: ${logFile}`);
    try {
      const r = await fetch(`${base}/healthz`);
      if (r.ok) return a;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become healthy in 90 s`);
}

function stop(code) {
  for (const a of apis) if (!a.exited) a.proc.kill('SIGTERM');
  up.srv.close();
  if (code !== 0) {
    console.error(`svc-api's logs: ${apis.map((a) => a.logFile).join(' ')}`);
  } else {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.exit(code);
}

function svcctl(api, ...args) {
  const out = execFileSync(path.join(bin, 'svcctl'), args, { env: api.env, encoding: 'utf8' });
  return JSON.parse(out);
}

function account(api, name, ...flags) {
  const a = svcctl(api, 'account', 'create', '--name', name, '--owner-email', 'owner@example.com', ...flags);
  const k = svcctl(api, 'key', 'create', '--account', a.account_id, '--name', 'sdk');
  return k.key;
}

// keys makes the accounts a check gets: pro, free, starter (3 model requests a minute) and pro
// with 2 interactions a month.
function keys(api, label) {
  return {
    SVC_KEY: account(api, `SDK ${label}`, '--plan', 'pro'),
    SVC_KEY_FREE: account(api, `SDK ${label} free`, '--plan', 'free'),
    SVC_KEY_STARTER: account(api, `SDK ${label} starter`, '--plan', 'starter'),
    SVC_KEY_TINY: account(api, `SDK ${label} tiny`, '--plan', 'pro', '--interaction-limit', '2'),
  };
}

let failed = 0;
try {
  const main = await startAPI('svc-api', true);
  if (serve) {
    for (const [k, v] of Object.entries({ ...keys(main, 'serve'), SVC_BASE_URL: main.base, SVC_UPSTREAM_PORT: String(up.port) })) console.log(`export ${k}=${v}`);
    console.log(`# svc-api's log: ${main.logFile}; Ctrl-C stops`);
    await new Promise((resolve) => process.on('SIGINT', resolve).on('SIGTERM', resolve));
  }
  let builtin = null;
  for (const w of wanted) {
    // Each check gets accounts of its own, so that limits spent by one do not touch the next;
    // "builtin" a svc-api without an upstream.
    let api = main;
    if (w === 'builtin') api = builtin ??= await startAPI('svc-api-builtin', false);
    const own = keys(api, w);
    const [file, ...args] = scripts[w];
    console.log(`--- ${w}`);
    const code = await new Promise((resolve) => {
      const p = spawn(process.execPath, [path.join(here, file), ...args], {
        env: { ...process.env, ...own, SVC_BASE_URL: api.base, SVC_UPSTREAM_PORT: String(up.port) },
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
