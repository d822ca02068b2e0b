/**
 * One-time sign-in links (the anchors' mail-scanner rule): the mailed link opens a page whose button POSTs
 * the key, so a scanner that follows links burns nothing. A key is 32 random bytes, kept only as its
 * SHA-256, good for LINK_MINUTES, used once; asking again replaces the nation's older link. Kept in memory:
 * a desk restarted between the mail and the click asks the player for a new link.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { NationId } from '../core/ids.js';

export const LINK_MINUTES = 15;
/** More pending links than this and the oldest go first: memory stays bounded whatever is asked. */
const MAX_LINKS = 10_000;

/** Whom a link signs in: a nation's player, or the GM (links for the GM are made only by the desk's owner, e.g. the demo). */
export type LinkHolder = { role: 'nation'; nation: NationId } | { role: 'gm' };

interface Pending {
  slug: string;
  holder: LinkHolder;
  expires: number;
}

const sameHolder = (a: LinkHolder, b: LinkHolder) => a.role === b.role && (a.role === 'gm' || a.nation === (b as { nation: NationId }).nation);

const digestOf = (key: string) => createHash('sha256').update(key).digest('base64url');

export class SignInLinks {
  private readonly pending = new Map<string, Pending>();

  /** A new key for the holder (their older link stops working), and the key's digest. */
  issue(slug: string, holder: LinkHolder, now: number): { key: string; digest: string; expires: number } {
    for (const [digest, p] of this.pending) if ((p.slug === slug && sameHolder(p.holder, holder)) || p.expires <= now) this.pending.delete(digest);
    while (this.pending.size >= MAX_LINKS) this.pending.delete(this.pending.keys().next().value!);
    const key = randomBytes(32).toString('base64url');
    const expires = now + LINK_MINUTES * 60_000;
    const digest = digestOf(key);
    this.pending.set(digest, { slug, holder, expires });
    return { key, digest, expires };
  }

  /** Whom a key would sign in, without using it (the landing page says whose link it is). */
  peek(slug: string, key: string, now: number): LinkHolder | undefined {
    const p = this.pending.get(digestOf(key));
    return p !== undefined && p.slug === slug && p.expires > now ? p.holder : undefined;
  }

  /** Uses the key: whom it signs in, once. */
  redeem(slug: string, key: string, now: number): LinkHolder | undefined {
    const digest = digestOf(key);
    const p = this.pending.get(digest);
    if (p === undefined || p.slug !== slug) return undefined;
    this.pending.delete(digest);
    return p.expires > now ? p.holder : undefined;
  }
}
