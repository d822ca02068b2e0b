import { describe, expect, it } from 'vitest';
import { checkFromFields } from '../../src/mailroom/from-header.js';

describe('the From field', () => {
  it.each([
    'duke@argenta.test',
    'Duke Cristoval <duke@argenta.test>',
    '"Cristoval, Duke [Argenta]" <duke@argenta.test>',
    'Duke (home) <duke@argenta.test>',
    'duke@argenta.test (Duke Cristoval)',
    'J. R. Cristoval <duke@argenta.test>',
    '=?utf-8?q?Duc_Crist=C3=B2val?= <duke@argenta.test>',
    'Duc Cristòval <duke@argenta.test>',
    "o'neil.duke+turns@argenta.test",
    'Duke<duke@argenta.test>',
  ])('accepts %s', (value) => {
    expect(checkFromFields([value])).toEqual({ ok: true });
  });

  it.each([
    ['Duke Cristoval [Argenta] <duke@argenta.test>', 'must be in quotes'],
    ['Duke, Cristoval <duke@argenta.test>', 'must be in quotes'],
    ['Duke Cristoval', 'no address at all'],
    ['', 'no address at all'],
    ['Duke Cristoval <>', 'hold no address'],
    ['Duke Cristoval duke@argenta.test', 'not valid'],
    ['duke@argenta.test, evil@elsewhere.test', 'more than one address'],
    ['Duke: duke@argenta.test;', 'more than one address, or a group'],
    ['Duke <duke@argenta.test> <evil@elsewhere.test>', 'not valid'],
    ['duke@argenta.test <evil@elsewhere.test>', 'must be in quotes'],
    ['Duke <duke at argenta.test>', 'not valid'],
    ['Duke <duke@argenta.test', 'text after the address'],
    ['Duke (home <duke@argenta.test>', 'not closed'],
  ])('refuses %s', (value, problem) => {
    const check = checkFromFields([value]);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problem).toContain(problem);
  });

  it('refuses two From fields, and leaves a message without one to the no-sender rule', () => {
    expect(checkFromFields(['a@argenta.test', 'b@argenta.test'])).toEqual({ ok: false, problem: 'the message has 2 From fields' });
    expect(checkFromFields(undefined)).toEqual({ ok: true });
  });
});
