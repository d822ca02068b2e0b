import { describe, expect, it } from 'vitest';
import { parseImapId, uidSet } from '../../src/mail/imap-inbox.js';

describe('IMAP ids', () => {
  it('round-trips uidvalidity and uid', () => {
    expect(parseImapId('imap:1732350000:42')).toEqual({ uidValidity: '1732350000', uid: 42 });
  });

  it.each(['file:a.eml', 'imap:1:', 'imap:x:1', 'imap:1:2:3'])('rejects %s with ENOTFOUND', (id) => {
    expect(() => parseImapId(id)).toThrow(expect.objectContaining({ code: 'ENOTFOUND' }));
  });

  it('compresses ascending UIDs into ranges', () => {
    expect(uidSet([1, 2, 3, 5, 7, 8, 10])).toBe('1:3,5,7:8,10');
    expect(uidSet([4])).toBe('4');
    expect(uidSet([])).toBe('');
  });
});
