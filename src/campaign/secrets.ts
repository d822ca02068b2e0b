import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { isMap, parseDocument, type Document } from 'yaml';
import { sortedKeys } from '../core/ids.js';
import { CampaignError } from './problems.js';
import type { OpenCampaign } from './store.js';
import { PLAYER_LIMITS, readYaml } from './yaml-io.js';

/**
 * Order tokens, for the GM commands that issue and retire them. They live in
 * the secrets file the mailroom reads (src/mailroom/secrets.ts), in the same
 * format, outside the campaign folder (which is meant to be kept in git):
 *
 *   $FATECRAFT_SECRETS, else ~/.config/fatecraft/<campaign>.secrets.yaml
 *
 *   argenta: k3x9-tr7q            # nation id → order token (or under a `tokens:` map)
 *   FATECRAFT_IMAP_PASSWORD: ...  # upper-case keys: passwords, left untouched here
 *
 * The file is edited in place (comments and other keys kept), atomically,
 * mode 0600; one others may read is refused (assertPrivate), with the chmod
 * that fixes it. A replaced token is not kept in it: its SHA-256 goes to
 * runtime.yaml (`retiredTokens`), so the mail loop can tell an old player
 * "this token was replaced" rather than merely "wrong", and nothing usable
 * is written into the campaign folder.
 */

const NATION_KEY = /^[a-z0-9][a-z0-9_-]*$/;

export type TokenVerdict = 'ok' | 'retired' | 'wrong' | 'missing' | 'unset';

export function secretsPath(campaignName: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.FATECRAFT_SECRETS;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(env.HOME ?? homedir(), '.config', 'fatecraft', `${campaignName}.secrets.yaml`);
}

/** The variable that overrides a nation's token from the file (the mailroom's rule). */
export const tokenVariable = (nation: string) => `FATECRAFT_TOKEN_${nation.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * Refuses a secrets file that others than its owner may read or write (as ssh refuses such a key), with the
 * command that makes it private. On systems without POSIX modes (Windows) there is nothing to check.
 */
export function assertPrivate(path: string): void {
  if (process.platform === 'win32') return;
  const mode = statSync(path).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  const who = [mode & 0o070 ? 'its group' : '', mode & 0o007 ? 'every user of this machine' : ''].filter(Boolean).join(' and ');
  throw new CampaignError([{ file: path, message: `the secrets file can be read or changed by ${who} (mode ${mode.toString(8).padStart(4, '0')}); it holds the order tokens and mail passwords. Make it private, then run the command again:\n  chmod 600 ${shellQuoted(path)}` }]);
}

const shellQuoted = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Every nation's token in the file (nation id → token). A missing file has none. */
export async function readTokens(campaignName: string, env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const path = secretsPath(campaignName, env);
  if (!existsSync(path)) return {};
  assertPrivate(path);
  const read = readYaml(await readFile(path), PLAYER_LIMITS);
  if (!read.ok) throw new CampaignError(read.problems.map((p) => ({ file: path, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message })));
  const tokens: Record<string, string> = {};
  const value = (read.value ?? {}) as Record<string, unknown>;
  for (const [key, v] of Object.entries(value)) {
    if (key === 'tokens' && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const [nation, t] of Object.entries(v as Record<string, unknown>)) if (typeof t === 'string' || typeof t === 'number') tokens[nation] = String(t).trim();
    } else if (NATION_KEY.test(key) && (typeof v === 'string' || typeof v === 'number')) tokens[key] = String(v).trim();
  }
  return tokens;
}

/** A fresh token: 15 letters and digits in three groups, easy to copy from a report into mail. */
export function newToken(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const chars = [...randomBytes(15)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10)}`;
}

/** The SHA-256 kept for a retired token. */
export const tokenDigest = (token: string) => createHash('sha256').update(token.trim(), 'utf8').digest('hex');

/**
 * How a token given in orders compares. `retired` holds the digests of the
 * nation's replaced tokens (runtime.yaml `retiredTokens[nation]`).
 */
export function tokenStatus(expected: string | undefined, retired: readonly string[], given: string | undefined): TokenVerdict {
  if (!expected) return 'unset';
  if (given === undefined || given.trim() === '') return 'missing';
  const digest = (s: string) => createHash('sha256').update(s.trim(), 'utf8').digest();
  if (timingSafeEqual(digest(given), digest(expected))) return 'ok';
  return retired.includes(tokenDigest(given)) ? 'retired' : 'wrong';
}

/**
 * Sets (or with undefined, removes) a nation's token in the secrets file,
 * keeping everything else in it. Returns the token it replaced.
 */
export async function setToken(campaignName: string, campaignDir: string, nation: string, token: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const previous = (await readTokens(campaignName, env))[nation];
  await setSecretKey(campaignName, campaignDir, nation, token, env);
  return previous;
}

/** The key that signs the codes of invitations to take a seat (src/seats/offers.ts), in the secrets file. */
export const SEATS_KEY = 'FATECRAFT_SEATS_KEY';

/** The secrets file's seats key, made and written there on first use. */
export async function seatsKey(campaignName: string, campaignDir: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const fromEnv = env[SEATS_KEY];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv.trim();
  const path = secretsPath(campaignName, env);
  if (existsSync(path)) {
    const read = readYaml(await readFile(path), PLAYER_LIMITS);
    const value = read.ok ? ((read.value ?? {}) as Record<string, unknown>)[SEATS_KEY] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  const key = randomBytes(32).toString('hex');
  await setSecretKey(campaignName, campaignDir, SEATS_KEY, key, env);
  return key;
}

/** Sets (or with undefined, removes) one key of the secrets file, keeping everything else in it. */
async function setSecretKey(campaignName: string, campaignDir: string, key: string, value: string | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  const path = secretsPath(campaignName, env);
  if (isInside(path, campaignDir)) {
    throw new CampaignError([{ file: path, message: `the secrets file is inside the campaign folder ${campaignDir}, which is meant to be kept in git; move it out (e.g. to ~/.config/fatecraft/) and point FATECRAFT_SECRETS at it` }]);
  }
  const doc: Document = existsSync(path) ? parseDocument(await readFile(path, 'utf8')) : parseDocument('# Order tokens and mail passwords — keep this file private.\n{}\n');
  if (!isMap(doc.contents)) doc.contents = doc.createNode({});
  // One "key: value" a line, as the GM would write it (a new file starts as an empty flow map).
  if (isMap(doc.contents) && doc.contents.items.length === 0) doc.contents.flow = false;
  const inTokens = doc.hasIn(['tokens', key]);
  const at = inTokens ? ['tokens', key] : [key];
  if (value === undefined) doc.deleteIn(at);
  else doc.setIn(at, value);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFileAtomic(path, doc.toString({ lineWidth: 0 }), { mode: 0o600, fsync: true });
  await chmod(path, 0o600);
}

/** True when the file lies inside the folder (links resolved): secrets must not sit in a campaign folder. */
export function isInside(file: string, dir: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const rel = relative(real(dir), join(real(dirname(file)), file.slice(dirname(file).length + 1)));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export interface IssuedTokens {
  /** Nations given a token now (they had none). */
  issued: string[];
  /** Nations whose token was replaced (--new-tokens). */
  renewed: string[];
  /** Nations whose token was kept. */
  kept: string[];
  /** Nations whose token comes from a FATECRAFT_TOKEN_<NATION> variable, which this command cannot change. */
  fromEnv: string[];
  file: string;
}

/**
 * Gives every nation that has none (the rebels apart) an order token in the secrets file (all of them, with `renew`),
 * recording each replaced token's digest in `retired` so the mail loop can say "replaced".
 */
export async function issueTokens(open: OpenCampaign, opts: { renew?: boolean; env?: NodeJS.ProcessEnv; skip?: readonly string[]; retired?: Record<string, string[]> } = {}): Promise<IssuedTokens> {
  const env = opts.env ?? process.env;
  const name = open.campaign.name;
  const have = await readTokens(name, env);
  const out: IssuedTokens = { issued: [], renewed: [], kept: [], fromEnv: [], file: secretsPath(name, env) };
  for (const nation of sortedKeys(open.file.nations)) {
    // The rebels are the GM's to play and send no orders: a token of theirs would be a secret with no use.
    if (opts.skip?.includes(nation) || open.file.nations[nation]?.rebels) continue;
    if ((env[tokenVariable(nation)] ?? '').trim() !== '') {
      out.fromEnv.push(nation);
      continue;
    }
    if (have[nation] && !opts.renew) {
      out.kept.push(nation);
      continue;
    }
    const previous = await setToken(name, open.dir, nation, newToken(), env);
    if (previous && opts.retired) opts.retired[nation] = [...new Set([...(opts.retired[nation] ?? []), tokenDigest(previous)])];
    (previous ? out.renewed : out.issued).push(nation);
  }
  return out;
}
