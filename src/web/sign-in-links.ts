/**
 * One-time sign-in links (the anchors' mail-scanner rule): the mailed link opens a page whose button POSTs
 * the key, so a scanner that follows links burns nothing. A key is 32 random bytes, kept only as its
 * SHA-256, good for LINK_MINUTES, used once; asking again replaces the holder's older link.
 *
 * The pending links are kept in the campaign folder (LINKS_FILE, written atomically, readable by its owner
 * only), so a link mailed before the desk restarted still works, once. A use is written before the session
 * it opens is given out: a restart never makes a used link good again. Expired links are dropped whenever
 * the file is written, and each holder has one link at most, so the file stays as small as the nations.
 * One desk serves a campaign: the desk's own requests take their turns with the file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import jsyaml from 'js-yaml';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { writeYaml } from '../campaign/yaml-io.js';
import { asNationId, type NationId } from '../core/ids.js';

export const LINK_MINUTES = 15;
/** The campaign's file of pending links (hidden; kept out of git by the campaign's .gitignore). */
export const LINKS_FILE = '.desk-sign-in-links.yaml';
/** More pending links than this and the oldest go first: the file stays bounded whatever is asked. */
const MAX_LINKS = 10_000;

/** Whom a link signs in: a nation's player, or the GM (links for the GM are made only by the desk's owner, e.g. the demo). */
export type LinkHolder = { role: 'nation'; nation: NationId } | { role: 'gm' };

const Pending = z.object({ digest: z.string(), role: z.enum(['nation', 'gm']), nation: z.string().optional(), expires: z.string() });
type Pending = z.infer<typeof Pending>;
const LinksFile = z.object({ links: z.array(Pending) });

const holderOf = (p: Pending): LinkHolder => (p.role === 'gm' ? { role: 'gm' } : { role: 'nation', nation: asNationId(p.nation ?? '') });
const sameHolder = (p: Pending, h: LinkHolder) => p.role === h.role && (h.role === 'gm' || p.nation === h.nation);
const digestOf = (key: string) => createHash('sha256').update(key).digest('base64url');
const live = (p: Pending, now: number) => Date.parse(p.expires) > now;

export class SignInLinks {
  /** Each campaign's reads and writes of its file, one after another. */
  private readonly turns = new Map<string, Promise<unknown>>();

  /** @param dirOf the folder of the campaign a slug names (undefined: none). */
  constructor(private readonly dirOf: (slug: string) => string | undefined) {}

  /** A new key for the holder (their older link stops working), and the key's digest. */
  issue(slug: string, holder: LinkHolder, now: number): Promise<{ key: string; digest: string; expires: number }> {
    return this.inTurn(slug, async (file) => {
      const kept = (await read(file)).filter((p) => live(p, now) && !sameHolder(p, holder)).slice(-(MAX_LINKS - 1));
      const key = randomBytes(32).toString('base64url');
      const expires = now + LINK_MINUTES * 60_000;
      const digest = digestOf(key);
      await write(file, [...kept, { digest, role: holder.role, ...(holder.role === 'nation' ? { nation: holder.nation } : {}), expires: new Date(expires).toISOString() }]);
      return { key, digest, expires };
    });
  }

  /** Whom a key would sign in, without using it (the landing page says whose link it is). */
  peek(slug: string, key: string, now: number): Promise<LinkHolder | undefined> {
    return this.inTurn(slug, async (file) => {
      const p = (await read(file)).find((l) => l.digest === digestOf(key));
      return p !== undefined && live(p, now) ? holderOf(p) : undefined;
    });
  }

  /** Uses the key: whom it signs in, once (the use is on disk when this returns). */
  redeem(slug: string, key: string, now: number): Promise<LinkHolder | undefined> {
    return this.inTurn(slug, async (file) => {
      const links = await read(file);
      const digest = digestOf(key);
      const p = links.find((l) => l.digest === digest);
      if (p === undefined) return undefined;
      await write(file, links.filter((l) => l !== p && live(l, now)));
      return live(p, now) ? holderOf(p) : undefined;
    });
  }

  private inTurn<T>(slug: string, work: (file: string) => Promise<T>): Promise<T> {
    const dir = this.dirOf(slug);
    if (dir === undefined) return Promise.reject(new Error(`the desk serves no campaign "${slug}"`));
    const file = join(dir, LINKS_FILE);
    const next = (this.turns.get(file) ?? Promise.resolve()).then(() => work(file));
    const settled = next.catch(() => undefined);
    this.turns.set(file, settled);
    void settled.then(() => {
      if (this.turns.get(file) === settled) this.turns.delete(file);
    });
    return next;
  }
}

/** The pending links on file; a missing or damaged file holds none (a player asks for a new link). */
async function read(file: string): Promise<Pending[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  try {
    const parsed = LinksFile.safeParse(jsyaml.load(text, { schema: jsyaml.CORE_SCHEMA }));
    return parsed.success ? parsed.data.links : [];
  } catch {
    return [];
  }
}

async function write(file: string, links: Pending[]): Promise<void> {
  await writeFileAtomic(file, `# The web desk's pending sign-in links: digests only, each good once until it expires (src/web/sign-in-links.ts).\n${writeYaml({ links })}`, { mode: 0o600, fsync: true });
}
