/**
 * Who a request comes from: a signed cookie, scoped to one campaign's addresses (/c/<slug>/), naming the
 * role (a nation's player or the GM) and a fingerprint of the secret it was granted against. Replacing a
 * nation's order token (`fatecraft token --new`) or the GM's desk secret ends every session made with the
 * old one. Nothing is kept on the server: a session is as durable as the desk's key (FATECRAFT_DESK_KEY).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NationId } from '../core/ids.js';

export const SESSION_COOKIE = 'fatecraft_session';

export type Session =
  | { role: 'nation'; slug: string; nation: NationId; issued: number; fingerprint: string; id: string }
  | { role: 'gm'; slug: string; issued: number; fingerprint: string; id: string };

/** How long a sign-in lasts: players play for months (a lost cookie is a new mailed link), the GM's is shorter. */
export const SESSION_DAYS = { nation: 30, gm: 1 } as const;

/** A short digest of a secret a session was granted against; undefined secret: "none". */
export function fingerprintOf(secret: string | undefined): string {
  return secret === undefined ? 'none' : createHash('sha256').update(`fatecraft-desk\u0000${secret.trim()}`).digest('base64url').slice(0, 16);
}

export class SessionKeys {
  private readonly key: Buffer;

  /** `key`: the desk's secret (at least 16 bytes of it); a random one when none is given (sessions end with the process). */
  constructor(key?: string) {
    this.key = key !== undefined && key.length >= 16 ? createHash('sha256').update(key).digest() : randomBytes(32);
  }

  private mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\u0000${value}`).digest('base64url');
  }

  seal(session: Session): string {
    const body = Buffer.from(JSON.stringify(session)).toString('base64url');
    return `${body}.${this.mac('session', body)}`;
  }

  /** The session a cookie value holds, when its signature is ours and it has not expired. */
  open(value: string | undefined, now: number): Session | undefined {
    if (value === undefined || value.length > 2048) return undefined;
    const dot = value.indexOf('.');
    if (dot <= 0) return undefined;
    const body = value.slice(0, dot);
    if (!sameText(value.slice(dot + 1), this.mac('session', body))) return undefined;
    let session: Session;
    try {
      session = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Session;
    } catch {
      return undefined;
    }
    if (typeof session !== 'object' || session === null || (session.role !== 'nation' && session.role !== 'gm') || typeof session.issued !== 'number') return undefined;
    if (now - session.issued > SESSION_DAYS[session.role] * 24 * 3600 * 1000 || session.issued > now + 60_000) return undefined;
    return session;
  }

  /** The token every form of a signed-in page carries: tied to the session, so another site cannot make one. */
  formToken(session: Session): string {
    return this.mac('form', `${session.slug}\u0000${session.id}`).slice(0, 32);
  }

  checkFormToken(session: Session, given: unknown): boolean {
    return typeof given === 'string' && sameText(given, this.formToken(session));
  }
}

export const newSessionId = () => randomBytes(12).toString('base64url');

/** Compares in constant time (both hashed first: the lengths may differ). */
export function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}
