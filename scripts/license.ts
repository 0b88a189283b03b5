/**
 * Issues a signed license for `PUT /_license`:
 *
 *   npm run license -- --type enterprise --expires 2027-06-30 [--issued-to NAME] [--issuer NAME]
 *                      [--max-nodes N | --max-resource-units N] [--out license.json]
 *
 * Prints (or writes) `{"license":{…}}`. The signing key lives in Shoal's config folder
 * (`$SHOAL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/shoal`, else `~/.config/shoal`) and is created,
 * with the verification key nodes read, on first use.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { IssueError, issueLicense } from '../packages/coordinator/src/license/license-issue.ts';
import {
  configDir,
  signingKey,
  VERIFICATION_KEY_FILE,
} from '../packages/coordinator/src/license/license-signature.ts';

function whole(v: string | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}

try {
  const { values } = parseArgs({
    options: {
      type: { type: 'string' },
      expires: { type: 'string' },
      'issued-to': { type: 'string' },
      issuer: { type: 'string' },
      'max-nodes': { type: 'string' },
      'max-resource-units': { type: 'string' },
      out: { type: 'string' },
    },
  });
  if (values.type === undefined || values.expires === undefined) {
    throw new IssueError('--type and --expires are required');
  }
  const dir = configDir();
  const { key, created } = signingKey(dir);
  if (created) {
    console.error(
      `shoal: created a license key pair in ${dir} (nodes verify with ${join(dir, VERIFICATION_KEY_FILE)})`,
    );
  }
  const license = issueLicense(
    {
      type: values.type,
      expires: values.expires,
      issuedTo: values['issued-to'],
      issuer: values.issuer,
      maxNodes: whole(values['max-nodes']),
      maxResourceUnits: whole(values['max-resource-units']),
    },
    key,
  );
  const text = `${JSON.stringify({ license })}\n`;
  if (values.out) writeFileSync(values.out, text);
  else process.stdout.write(text);
} catch (e) {
  if (e instanceof IssueError || (e as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    console.error(`shoal: ${(e as Error).message}`);
    process.exit(2);
  }
  throw e;
}
