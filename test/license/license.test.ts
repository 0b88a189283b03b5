import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
// The 7.13 package's export map hides its typings from NodeNext resolution; its deep path has them.
import { Client } from '@elastic/elasticsearch/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueLicense } from '../../packages/coordinator/src/license/license-issue.ts';
import { signingKey } from '../../packages/coordinator/src/license/license-signature.ts';
import { http } from '../support/http.ts';
import { startTestNode, type TestNode } from '../support/node-process.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '../..');
const AGENT = /^299 shoal-[^ ]+-[^ ]+ "/;

let node: TestNode;
let configDir: string;

/** Issues a license with the operator's key, as `npm run license` does. */
function issue(type: string, expires: string, more: { maxResourceUnits?: number; now?: number } = {}) {
  return issueLicense({ type, expires, ...more }, signingKey(configDir).key);
}

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'shoal-config-'));
  node = await startTestNode({ env: { SHOAL_CONFIG_DIR: configDir } });
});
afterAll(async () => {
  await node?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

describe('the license APIs', () => {
  it('starts on a basic license that never expires, pretty-printed unless the request says', async () => {
    const r = await http(node.url, 'GET', '/_license');
    expect(r.status).toBe(200);
    expect(r.text.startsWith('{\n  "license" : {\n    "status" : "active",')).toBe(true);
    expect(Object.keys(r.json.license)).toEqual([
      'status',
      'uid',
      'type',
      'issue_date',
      'issue_date_in_millis',
      'max_nodes',
      'issued_to',
      'issuer',
      'start_date_in_millis',
    ]);
    expect(r.json.license).toMatchObject({ type: 'basic', max_nodes: 1000, issuer: 'elasticsearch' });
    const compact = await http(node.url, 'GET', '/_license?pretty=false');
    expect(compact.text.startsWith('{"license":{"status":"active"')).toBe(true);
    expect((await http(node.url, 'GET', '/_license/basic_status')).json).toEqual({
      eligible_to_start_basic: false,
    });
    expect((await http(node.url, 'GET', '/_license/trial_status')).json).toEqual({
      eligible_to_start_trial: true,
    });
    const again = await http(node.url, 'POST', '/_license/start_basic');
    expect(again.status).toBe(403);
    expect(again.json).toEqual({
      acknowledged: true,
      basic_was_started: false,
      error_message: 'Operation failed: Current license is basic.',
    });
  });

  it('refuses bad PUT bodies with Elasticsearch errors and reports tampered and expired licenses', async () => {
    const none = await http(node.url, 'PUT', '/_license');
    expect(none.status).toBe(400);
    expect(none.json.error.root_cause[0]).toEqual({
      type: 'illegal_argument_exception',
      reason: 'The license must be provided in the request body',
    });
    const good = issue('gold', '30d');
    const basic = await http(node.url, 'PUT', '/_license', { license: { ...good, type: 'basic' } });
    expect(basic.status).toBe(400);
    expect(basic.json.error.reason).toBe(
      'Installing basic licenses is no longer allowed. Use the POST /_license/start_basic API to install a basic license that does not expire.',
    );
    const missing = await http(node.url, 'PUT', '/_license', { license: { ...good, uid: undefined } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.reason).toBe('uid can not be null');
    const tampered = await http(node.url, 'PUT', '/_license?acknowledge=true', {
      license: { ...good, max_nodes: 5000 },
    });
    expect(tampered.json).toEqual({ acknowledged: true, license_status: 'invalid' });
    const expired = issue('gold', '2020-01-01', { now: Date.parse('2019-01-01') });
    const r = await http(node.url, 'PUT', '/_license?acknowledge=true', { license: expired });
    expect(r.json).toEqual({ acknowledged: true, license_status: 'expired' });
    expect((await http(node.url, 'GET', '/_license')).json.license.type).toBe('basic');
  });

  it('installs a signed enterprise license, shown as platinum unless accept_enterprise=true', async () => {
    // Through the CLI, as an operator would.
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        require.resolve('tsx'),
        join(root, 'scripts/license.ts'),
        '--type',
        'enterprise',
        '--expires',
        '1y',
        '--max-resource-units',
        '25',
      ],
      { cwd: root, env: { ...process.env, SHOAL_CONFIG_DIR: configDir } },
    );
    const put = await http(node.url, 'PUT', '/_license', stdout);
    expect(put.json).toEqual({ acknowledged: true, license_status: 'valid' });
    const shown = await http(node.url, 'GET', '/_license');
    expect(Object.keys(shown.json.license)).toHaveLength(11);
    expect(shown.json.license).toMatchObject({ type: 'platinum', max_nodes: 25, issuer: 'shoal' });
    const real = await http(node.url, 'GET', '/_license?accept_enterprise=true');
    expect(Object.keys(real.json.license)).toHaveLength(12);
    expect(real.json.license).toMatchObject({ type: 'enterprise', max_nodes: null, max_resource_units: 25 });
    const ext = await http(node.url, 'GET', '/_ext');
    expect(ext.json.license).toMatchObject({ type: 'enterprise', mode: 'enterprise', status: 'active' });
    expect(ext.json.features.ml).toEqual({ available: true, enabled: false });
    expect(ext.json.features.spatial).toEqual({ available: true, enabled: true });
  });

  it('asks for acknowledgement before a downgrade, and DELETE goes back to basic', async () => {
    const gold = issue('gold', '30d');
    const asked = await http(node.url, 'PUT', '/_license', { licenses: [gold] });
    expect(asked.json.acknowledged).toBe(false);
    expect(asked.json.license_status).toBe('valid');
    expect(asked.json.acknowledge.message).toBe(
      'This license update requires acknowledgement. To acknowledge the license, please read the following messages and update the license again, this time with the "acknowledge=true" parameter:',
    );
    expect(asked.json.acknowledge.ml).toEqual(['Machine learning will be disabled']);
    expect((await http(node.url, 'PUT', '/_license?acknowledge=true', { licenses: [gold] })).json).toEqual({
      acknowledged: true,
      license_status: 'valid',
    });
    expect((await http(node.url, 'GET', '/_license')).json.license).toMatchObject({
      type: 'gold',
      uid: gold.uid,
    });
    expect((await http(node.url, 'DELETE', '/_license')).json).toEqual({ acknowledged: true });
    const after = (await http(node.url, 'GET', '/_license')).json.license;
    expect(after.type).toBe('basic');
    await http(node.url, 'DELETE', '/_license');
    expect((await http(node.url, 'GET', '/_license')).json.license.uid).toBe(after.uid);
  });

  it('starts a trial once, with acknowledgement, and keeps the license over a restart', async () => {
    const ask = await http(node.url, 'POST', '/_license/start_trial');
    expect(ask.status).toBe(200);
    expect(ask.json).toEqual({
      acknowledged: false,
      trial_was_started: false,
      error_message: 'Operation failed: Needs acknowledgement.',
      acknowledge: {
        message:
          'This API initiates a free 30-day trial for all platinum features. To begin your free trial, call /start_trial again and specify the "acknowledge=true" parameter.',
        security: ['With a trial license, security features are available, but are not enabled by default.'],
      },
    });
    const bad = await http(node.url, 'POST', '/_license/start_trial?acknowledge=true&type=basic');
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'Cannot start trial of type [basic]. Valid trial types are [enterprise,gold,platinum,trial]',
    );
    const started = await http(node.url, 'POST', '/_license/start_trial?acknowledge=true');
    expect(started.json).toEqual({ acknowledged: true, trial_was_started: true, type: 'trial' });
    const trial = (await http(node.url, 'GET', '/_license')).json.license;
    expect(trial.type).toBe('trial');
    expect(trial.expiry_date_in_millis - trial.issue_date_in_millis).toBe(30 * 24 * 3600 * 1000);

    const needsAck = await http(node.url, 'POST', '/_license/start_basic');
    expect(needsAck.json).toMatchObject({
      acknowledged: false,
      basic_was_started: false,
      error_message: 'Operation failed: Needs acknowledgement.',
    });
    expect(needsAck.json.acknowledge.watcher).toEqual(['Watcher will be disabled']);

    node = await node.restart();
    expect((await http(node.url, 'GET', '/_license')).json.license.uid).toBe(trial.uid);
    expect((await http(node.url, 'POST', '/_license/start_basic?acknowledge=true')).json).toEqual({
      acknowledged: true,
      basic_was_started: true,
    });
    expect((await http(node.url, 'GET', '/_license/trial_status')).json).toEqual({
      eligible_to_start_trial: false,
    });
    const twice = await http(node.url, 'POST', '/_license/start_trial?acknowledge=true');
    expect(twice.status).toBe(403);
    expect(twice.json).toEqual({
      acknowledged: true,
      trial_was_started: false,
      error_message: 'Operation failed: Trial was already activated.',
    });
  });

  it('answers the deprecated /_ext/license paths with a Warning naming the new path', async () => {
    const r = await http(node.url, 'GET', '/_ext/license');
    expect(r.status).toBe(200);
    expect(r.json.license.type).toBe('basic');
    expect(r.headers.warning).toMatch(AGENT);
    expect(r.headers.warning).toBe(
      `${String(r.headers.warning).split('"')[0]}"[GET /_ext/license] is deprecated! Use [GET /_license] instead."`,
    );
    const status = await http(node.url, 'GET', '/_ext/license/trial_status');
    expect(status.headers.warning).toContain(
      '"[GET /_ext/license/trial_status] is deprecated! Use [GET /_license/trial_status] instead."',
    );
  });
});

describe('GET /_ext', () => {
  it('filters by categories, answers HEAD, and refuses an unknown category', async () => {
    const all = await http(node.url, 'GET', '/_ext');
    expect(Object.keys(all.json)).toEqual(['build', 'license', 'features', 'tagline']);
    expect(Object.keys(all.json.license)).toEqual(['uid', 'type', 'mode', 'status']);
    expect(Object.keys(all.json.features)).toEqual([...Object.keys(all.json.features)].sort());
    expect(all.json.features.ml).toEqual({ available: false, enabled: false });
    const some = await http(node.url, 'GET', '/_ext?categories=build,license&human=false');
    expect(Object.keys(some.json)).toEqual(['build', 'license']);
    expect((await http(node.url, 'GET', '/_ext?categories=_none')).json).toEqual({
      tagline: 'You know, for X',
    });
    expect((await http(node.url, 'GET', '/_ext?accept_enterprise=true')).status).toBe(200);
    const head = await http(node.url, 'HEAD', '/_ext');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const bad = await http(node.url, 'GET', '/_ext?categories=stuff');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
    const usage = await http(node.url, 'GET', '/_ext/usage');
    expect(usage.json.spatial).toEqual({ available: true, enabled: true });
  });
});

describe('the official client (7.13)', () => {
  it('reads and changes the license', async () => {
    const client = new Client({ node: node.url, auth: node.auth });
    try {
      const got = await client.license.get();
      expect(got.body.license.type).toBe('basic');
      expect((await client.license.getTrialStatus()).body).toEqual({ eligible_to_start_trial: false });
      const platinum = issue('platinum', '90d');
      const put = await client.license.post({ acknowledge: true, body: { license: platinum } });
      expect(put.body).toEqual({ acknowledged: true, license_status: 'valid' });
      expect((await client.license.get({ accept_enterprise: true })).body.license.type).toBe('platinum');
      expect((await client.license.delete()).body).toEqual({ acknowledged: true });
      expect((await client.license.getBasicStatus()).body).toEqual({ eligible_to_start_basic: false });
    } finally {
      await client.close();
    }
  });
});
