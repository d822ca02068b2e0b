import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINKS_FILE } from '../../src/web/sign-in-links.js';
import { ADDRESSES, Client, deskOver, mailedLink, startedDemo, type DeskCampaignCopy } from './support.js';

/**
 * A mailed sign-in link outlives the desk that made it: the desk restarted (a new desk over the same
 * folder, with a new session key) still signs in with it, once; a link used before a restart stays used.
 */
let copy: DeskCampaignCopy;
const base = '/c/silversheen';

beforeAll(async () => {
  copy = await startedDemo('links');
});
afterAll(() => copy?.cleanup());

const keyOf = (link: string) => new URL(`http://x${link}`).searchParams.get('k')!;

describe('sign-in links across a restart', () => {
  it('a link mailed before the restart signs in after it, once; the file holds digests only, for its owner', async () => {
    const before = deskOver([copy]);
    expect((await new Client(before).post(`${base}/sign-in/link`, { address: ADDRESSES.argenta! })).status).toBe(200);
    const link = mailedLink(copy.dir, ADDRESSES.argenta!);
    const key = keyOf(link);
    const file = join(copy.dir, LINKS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(key);

    const after = deskOver([copy]);
    const client = new Client(after);
    expect((await client.get(link)).text).toContain('Sign in as Duchy of Argenta');
    const confirmed = await client.post(`${base}/sign-in/link/confirm`, { k: key });
    expect(confirmed.status).toBe(303);
    expect((await client.get(`${base}/report`)).text).toContain('Duchy of Argenta');

    // Used once: neither this desk nor the next one signs in with it again.
    expect((await new Client(after).post(`${base}/sign-in/link/confirm`, { k: key })).status).toBe(400);
    const later = deskOver([copy]);
    const again = await new Client(later).post(`${base}/sign-in/link/confirm`, { k: key });
    expect(again.status).toBe(400);
    expect(again.text).toContain('has been used or has expired');
  });

  it('a link that expired while the desk was down does not sign in; a newer link replaces an older one across a restart', async () => {
    const first = deskOver([copy]);
    await new Client(first).post(`${base}/sign-in/link`, { address: ADDRESSES.gondarahl! });
    const older = keyOf(mailedLink(copy.dir, ADDRESSES.gondarahl!));
    copy.clock.advance(1000);
    const second = deskOver([copy]);
    await new Client(second).post(`${base}/sign-in/link`, { address: ADDRESSES.gondarahl! });
    const newer = keyOf(mailedLink(copy.dir, ADDRESSES.gondarahl!));
    const third = deskOver([copy]);
    expect((await new Client(third).post(`${base}/sign-in/link/confirm`, { k: older })).status).toBe(400);
    copy.clock.advance(15 * 60_000 + 1000);
    const fourth = deskOver([copy]);
    expect((await new Client(fourth).get(`${base}/sign-in/link?k=${newer}`)).text).toContain('This link no longer works');
    expect((await new Client(fourth).post(`${base}/sign-in/link/confirm`, { k: newer })).status).toBe(400);
  });
});
