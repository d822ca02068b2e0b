import { describe, expect, it } from 'vitest';
import { readMailSheet } from '../../src/orders/mail-sheet.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';

/** The ways people lay out orders in a mail body, all read the same. */
const summary = (body: string) => {
  const sheet = readTextSheet(body);
  return { format: sheet.format, nation: sheet.nation, turn: sheet.turn, entries: sheet.entries.map((e) => [e.line, e.fields]), problems: sheet.problems };
};

const MOVE = { move: 'Iron Guard', to: '6,5' };
const REST = { rest: 'argenta-2' };

describe('mail layouts', () => {
  it('a heading and a bulleted list of one-line orders is text', () => {
    expect(summary('Orders:\n- move Iron Guard to 6,5\n- rest argenta-2\n')).toEqual({ format: 'text', nation: undefined, turn: undefined, entries: [[2, MOVE], [3, REST]], problems: [] });
  });

  it('a titled, numbered list', () => {
    expect(summary('Orders for turn 4:\n1. move Iron Guard to 6,5\n2) rest argenta-2\n').entries).toEqual([
      [2, MOVE],
      [3, REST],
    ]);
  });

  it('a YAML sheet with capitalised keys, pasted after some prose', () => {
    const s = summary('Dear GM, my orders follow.\n\nNation: argenta\nTurn: 4\nOrders:\n  - move: Iron Guard\n    to: 6,5\n  - rest argenta-2\n');
    expect(s).toEqual({ format: 'yaml', nation: 'argenta', turn: 4, entries: [[6, MOVE], [8, REST]], problems: [] });
  });

  it('a YAML sheet inside a code fence', () => {
    const s = summary('Here:\n```yaml\nnation: argenta\nturn: 4\norders:\n  - rest: argenta-2\n```\nThanks\n');
    expect(s).toMatchObject({ format: 'yaml', nation: 'argenta', entries: [[6, REST]], problems: [] });
  });

  it('a top-posted reply above the quoted turn report', () => {
    const s = summary('rest argenta-2\n\nOn Fri, 6 Mar 2026, GM <gm@example.org> wrote:\n> Your units:\n> argenta-2 (bloodied)\n');
    expect(s.entries).toEqual([[1, REST]]);
    expect(s.problems).toEqual([]);
  });

  it('an Outlook reply cuts at the original message', () => {
    const s = summary('rest argenta-2\n\n-----Original Message-----\nFrom: GM\nmove everything\n');
    expect(s.entries).toEqual([[1, REST]]);
    expect(s.problems).toEqual([]);
  });

  it('a phone signature', () => {
    expect(summary('rest argenta-2\nSent from my iPhone\n').problems).toEqual([]);
  });
});

describe('orders from a parsed mail', () => {
  const attachment = (filename: string, content: string) => ({ filename, contentType: 'application/octet-stream', content: Buffer.from(content) });

  it('reads the body when nothing is attached', () => {
    const { sheet, source } = readMailSheet({ text: 'Token: t0k\nrest argenta-2\n', attachments: [] });
    expect(source).toBe('mail body');
    expect(sheet.token).toBe('t0k');
    expect(sheet.entries).toHaveLength(1);
  });

  it('prefers a .yaml attachment, lending it the body\'s headers', () => {
    const { sheet, source } = readMailSheet({ text: 'See attached.\nToken: t0k\nTurn: 4\n', attachments: [attachment('turn4.yml', 'nation: argenta\norders:\n  - rest: argenta-2\n')] });
    expect(source).toBe('attachment turn4.yml');
    expect(sheet).toMatchObject({ nation: 'argenta', turn: 4, token: 't0k', problems: [] });
    expect(sheet.entries.map((e) => e.fields)).toEqual([REST]);
  });

  it('reads one attachment of several and says so', () => {
    const { sheet } = readMailSheet({ text: '', attachments: [attachment('a.yaml', 'orders: []\n'), attachment('b.yaml', 'orders: []\n')] });
    expect(sheet.problems.map((p) => p.reason)).toEqual(['2 order files are attached; only a.yaml was read']);
  });

  it('ignores attachments that are not order files', () => {
    const { source } = readMailSheet({ text: 'rest argenta-2', attachments: [attachment('map.png', '\x89PNG')] });
    expect(source).toBe('mail body');
  });
});

describe('closings', () => {
  it('"Thanks" above the orders does not end them', () => {
    expect(summary('Thanks!\n\nrest argenta-2\n').entries).toEqual([[3, REST]]);
  });

  it('"Cheers," after the orders ends them', () => {
    const s = summary('rest argenta-2\nCheers,\nmove everything anywhere\n');
    expect(s.entries).toEqual([[1, REST]]);
    expect(s.problems).toEqual([]);
  });
});
