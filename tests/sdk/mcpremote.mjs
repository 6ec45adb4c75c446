// mcp-remote (the stdio proxy Claude Desktop's configuration in the README uses) against /mcp,
// driven through the TypeScript SDK's stdio client: the README's arguments, the key in a header.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { assert, base, key, check, done, version } from './lib.mjs';

console.log(`  mcp-remote ${version('mcp-remote')}`);
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-mcp-remote-'));
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [new URL('./node_modules/mcp-remote/dist/proxy.js', import.meta.url).pathname, `${base}/mcp`, '--header', 'Authorization:${SVC_AUTH}'],
  env: { PATH: process.env.PATH, HOME: home, MCP_REMOTE_CONFIG_DIR: home, SVC_AUTH: `Bearer ${key}` },
  stderr: 'pipe',
});
let stderr = '';
transport.stderr?.on('data', (d) => {
  stderr += d;
});
const client = new Client({ name: 'sdk-check-mcp-remote', version: '1.0.0' });

await check('connect through mcp-remote and list the tools', async () => {
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`${err.message}\nmcp-remote's stderr:\n${stderr.slice(-2000)}`);
  }
  const { tools } = await client.listTools();
  assert.ok(tools.length >= 18, `${tools.length} tools`);
});

await check('call get_account through mcp-remote', async () => {
  const r = await client.callTool({ name: 'get_account', arguments: {} });
  assert.equal(r.isError ?? false, false, r.content[0].text);
  assert.equal(r.structuredContent.object, 'account');
  assert.equal(r.structuredContent.developer_bonus.active, true);
  // mcp-remote opens a test session of its own first, as "mcp-remote-fallback-test 0.0.0", and
  // the bonus records the client of the account's first initialize: that one (see README.md).
  assert.match(r.structuredContent.developer_bonus.client, /^(mcp-remote-fallback-test 0\.0\.0|sdk-check-mcp-remote 1\.0\.0)$/);
});

await check('a refusal through mcp-remote stays a tool result', async () => {
  const r = await client.callTool({ name: 'get_conversation', arguments: { conversation_id: 'nope' } });
  assert.equal(r.isError, true);
  assert.equal(JSON.parse(r.content[0].text).error.code, 'not_found');
});

await client.close();
fs.rmSync(home, { recursive: true, force: true });
done();
