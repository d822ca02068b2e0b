/**
 * Order tokens and mail passwords: from environment variables or a secrets file OUTSIDE the campaign folder,
 * never from campaign.yaml (which is meant to be kept in git).
 *
 * The secrets file is YAML, a map of nation id → order token; any other key (upper case, an environment
 * variable's name) holds a password or key named by `passwordEnv` / `privateKeyEnv` in the mail settings:
 *
 *   argenta: k3x9-tr7q
 *   gondarahl: 88fd-21aa
 *   FATECRAFT_IMAP_PASSWORD: hunter2
 *
 * (A `tokens:` map of nation → token is read too.) It must be private (mode 0600: a file others may read is
 * refused, with the chmod that fixes it). Where it is: $FATECRAFT_SECRETS, else
 * ~/.config/fatecraft/<campaign>.secrets.yaml. An environment variable beats the file: FATECRAFT_TOKEN_<NATION>
 * (upper case, `-` as `_`) for a token, the variable itself for a password.
 *
 * The path and the override rule are src/campaign/secrets.ts's (the GM commands that issue and replace tokens edit
 * this same file); this module adds the passwords and the refusal of a file inside the campaign folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CampaignError } from '../campaign/problems.js';
import { PLAYER_LIMITS, readYaml } from '../campaign/yaml-io.js';
import { assertPrivate, isInside, secretsPath, tokenVariable } from '../campaign/secrets.js';

export { secretsPath, tokenVariable };

export interface SecretSource {
  /** The nation's order token; undefined when none is set. */
  token(nation: string): string | undefined;
  /** A password or key by its variable name (e.g. a `passwordEnv` value). */
  secret(name: string): string | undefined;
  /** Every nation that has a token (for matching a token sent from an unknown address). */
  nationsWithTokens(): string[];
  /** Where the secrets came from, for messages. */
  readonly where: string;
}

export interface SecretsOptions {
  /** The campaign's name (campaign.yaml `name:`), for the default path. */
  campaign: string;
  /** The campaign folder: a secrets file inside it is refused. */
  campaignDir: string;
  /** A file to read instead of $FATECRAFT_SECRETS or the default. */
  file?: string;
  env?: NodeJS.ProcessEnv;
}

/** Reads the secrets once. A missing file means "no secrets" (every submission is then refused, and the GM told). */
export function loadSecrets(opts: SecretsOptions): SecretSource {
  const env = opts.env ?? process.env;
  const file = opts.file !== undefined ? resolve(opts.file) : secretsPath(opts.campaign, env);
  const values = existsSync(file) ? readSecretsFile(file, opts.campaignDir) : { tokens: {}, secrets: {} };
  return {
    where: existsSync(file) ? file : `${file} (missing)`,
    token(nation) {
      const fromEnv = env[tokenVariable(nation)];
      if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv.trim();
      return values.tokens[nation];
    },
    secret(name) {
      const fromEnv = env[name];
      if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
      return values.secrets[name];
    },
    nationsWithTokens() {
      const fromEnv = Object.keys(env)
        .filter((k) => k.startsWith('FATECRAFT_TOKEN_'))
        .map((k) => k.slice('FATECRAFT_TOKEN_'.length).toLowerCase().replace(/_/g, '-'));
      return [...new Set([...Object.keys(values.tokens), ...fromEnv])].sort();
    },
  };
}

/** A fixed set of secrets, for tests and embedding. */
export function staticSecrets(tokens: Record<string, string>, secrets: Record<string, string> = {}): SecretSource {
  return {
    where: 'given in code',
    token: (nation) => tokens[nation],
    secret: (name) => secrets[name],
    nationsWithTokens: () => Object.keys(tokens).sort(),
  };
}

function readSecretsFile(file: string, campaignDir: string): { tokens: Record<string, string>; secrets: Record<string, string> } {
  if (isInside(file, campaignDir)) {
    throw new CampaignError([{ file, message: `the secrets file is inside the campaign folder ${campaignDir}, which is meant to be kept in git; move it out (e.g. to ~/.config/fatecraft/) and point FATECRAFT_SECRETS at it` }]);
  }
  assertPrivate(file);
  const read = readYaml(readFileSync(file), PLAYER_LIMITS);
  if (!read.ok) throw new CampaignError(read.problems.map((p) => ({ file, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message })));
  const value = read.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new CampaignError([{ file, message: 'the secrets file must be a map: nation id → order token, e.g. "argenta: k3x9-tr7q"' }]);
  const tokens: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const put = (key: string, v: unknown, line: number | undefined) => {
    if (typeof v !== 'string' && typeof v !== 'number') {
      throw new CampaignError([{ file, ...(line !== undefined ? { line } : {}), path: key, message: 'expected a text value' }]);
    }
    if (/^[a-z0-9][a-z0-9_-]*$/.test(key)) tokens[key] = String(v).trim();
    else secrets[key] = String(v);
  };
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'tokens' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [nation, token] of Object.entries(v as Record<string, unknown>)) put(nation, token, read.locate(['tokens', nation]));
    } else {
      put(key, v, read.locate([key]));
    }
  }
  return { tokens, secrets };
}
