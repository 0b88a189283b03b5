/**
 * `npm run reset-password -- --user NAME`: gives a user a new, generated password on a running
 * node, as Elasticsearch's `elasticsearch-reset-password` does: a temporary superuser is added
 * to the node's file realm (the `users` and `users_roles` files under its data path), the
 * change-password API is called as that user, and the temporary user is removed again.
 *   npm run reset-password -- --user elastic [--node node-1] [--config cluster.config.json]
 *                                            [--url http://127.0.0.1:9200] [--data-path PATH]
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, FILE_REALM_FOLDER, loadClusterConfig, nodeConfig } from '@shoal/coordinator';
import { generatePassword, passwordHasher, USERS_FILE, USERS_ROLES_FILE } from '@shoal/security';
import { basicAuthorization } from './credentials.ts';

const USAGE =
  'usage: npm run reset-password -- --user NAME [--node NODE] [--config cluster.config.json] [--url URL] [--data-path PATH]';

function options() {
  try {
    const { values } = parseArgs({
      options: {
        user: { type: 'string', short: 'u' },
        node: { type: 'string' },
        config: { type: 'string', default: 'cluster.config.json' },
        url: { type: 'string' },
        'data-path': { type: 'string' },
      },
    });
    if (!values.user) throw new Error('--user is required');
    const node = nodeConfig(loadClusterConfig(resolve(values.config!)), {
      name: values.node,
      dataPath: values['data-path'],
    });
    return {
      user: values.user,
      url: values.url ?? `http://${node.host}:${node.httpPort}`,
      dataPath: node.dataPath,
    };
  } catch (e) {
    const usage = e instanceof ConfigError ? '' : `\n${USAGE}`;
    console.error(`shoal: ${e instanceof Error ? e.message : String(e)}${usage}`);
    process.exit(2);
  }
}

function appendLine(path: string, line: string): void {
  const before = existsSync(path) ? readFileSync(path, 'utf8') : '';
  writeFileSync(path, `${before}${before === '' || before.endsWith('\n') ? '' : '\n'}${line}\n`, {
    mode: 0o600,
  });
}

function removeLine(path: string, line: string): void {
  if (!existsSync(path)) return;
  const kept = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== line);
  writeFileSync(path, kept.join('\n'));
}

async function main(): Promise<void> {
  const { user, url, dataPath } = options();
  const dir = join(dataPath, FILE_REALM_FOLDER);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tempUser = `shoal-reset-${randomBytes(6).toString('hex')}`;
  const tempPassword = generatePassword();
  const usersLine = `${tempUser}:${await passwordHasher().hash(tempPassword)}`;
  const rolesLine = `superuser:${tempUser}`;
  const usersPath = join(dir, USERS_FILE);
  const rolesPath = join(dir, USERS_ROLES_FILE);
  appendLine(usersPath, usersLine);
  appendLine(rolesPath, rolesLine);
  try {
    const password = generatePassword();
    let res: Response;
    try {
      res = await fetch(new URL(`/_security/user/${encodeURIComponent(user)}/_password`, url), {
        method: 'POST',
        headers: {
          authorization: basicAuthorization(tempUser, tempPassword),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ password }),
      });
    } catch (e) {
      throw new Error(`cannot reach the node at ${url} (is it running?): ${(e as Error).message}`);
    }
    if (res.status !== 200) {
      const body = (await res.json().catch(() => undefined)) as { error?: { reason?: string } } | undefined;
      throw new Error(
        `the node refused the new password (${res.status}): ${body?.error?.reason ?? res.statusText}`,
      );
    }
    console.log(`Password for the [${user}] user successfully reset.\nNew value: ${password}`);
  } finally {
    removeLine(usersPath, usersLine);
    removeLine(rolesPath, rolesLine);
  }
}

main().catch((e: unknown) => {
  console.error(`shoal: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
