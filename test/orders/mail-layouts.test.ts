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

describe('what the mail program or a signature adds', () => {
  const read = (text: string) => {
    const { sheet } = readMailSheet({ text, attachments: [] });
    return { entries: sheet.entries.map((e) => [e.line, e.fields]), problems: sheet.problems };
  };

  it('a name signed on its own line after the orders ends them', () => {
    expect(read('rest argenta-2\nmove Iron Guard to 6,5\n\nHilde\n')).toEqual({ entries: [[1, REST], [2, MOVE]], problems: [] });
    expect(read('rest argenta-2\nHilde.\nLady of the Marsh\n')).toEqual({ entries: [[1, REST]], problems: [] });
  });

  it('a single word with orders below it is still reported, and the orders below still count', () => {
    const r = read('rest argenta-2\nGondarahl\nmove Iron Guard to 6,5\n');
    expect(r.entries).toEqual([[1, REST], [3, MOVE]]);
    expect(r.problems.map((p) => p.line)).toEqual([2]);
  });

  it('an order word alone is no signature', () => {
    expect(read('rest argenta-2\nhold\n').problems.map((p) => p.line)).toEqual([2]);
  });

  it.each([
    'Sent from my iPhone',
    'Sent from Mail for Windows',
    'Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows',
    'Get Outlook for Android<https://aka.ms/AAb9ysg>',
    'Get Outlook for iOS',
    'Sent with Proton Mail secure email.',
    'Sent from Yahoo Mail on Android',
    'Sent from my Galaxy',
    'Von meinem iPhone gesendet',
    'Gesendet von Mail für Windows',
    'Envoyé de mon iPhone',
    'Enviado desde mi iPhone',
    'Enviado do meu iPhone',
    'Inviato da iPhone',
    'Verzonden vanaf mijn iPhone',
    'Skickat från min iPhone',
    'Sendt fra min iPhone',
  ])('"%s" ends the orders', (line) => {
    expect(read(`rest argenta-2\n\n${line}\nmove Iron Guard to 6,5\n`)).toEqual({ entries: [[1, REST]], problems: [] });
  });

  it.each(['[image: crest.png]', '[cid:image001.png@01DA6F2B.5C3A1E40]', '<image001.png>', '[image: Argenta crest] [image: map.jpg]'])('the placeholder %s is left out', (line) => {
    expect(read(`rest argenta-2\n${line}\nmove Iron Guard to 6,5\n`)).toEqual({ entries: [[1, REST], [3, MOVE]], problems: [] });
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

  it('does not take the machine-readable report the campaign mailed, sent back beside the orders, for an order file', () => {
    const report = '# Argenta: what your nation knows after turn 3 of The Silver Marches.\nformat: fatecraft-nation-report/2\nheader:\n  turn: 3\n';
    const orders = 'nation: argenta\norders:\n  - rest: argenta-2\n';
    const { sheet, source } = readMailSheet({ text: 'Token: t0k\n', attachments: [attachment('argenta-report.yaml', report), attachment('argenta-orders.yaml', orders)] });
    expect(source).toBe('attachment argenta-orders.yaml');
    expect(sheet.problems).toEqual([]);
    expect(sheet.entries.map((e) => e.fields)).toEqual([REST]);
    // Alone, it leaves the body to be read.
    expect(readMailSheet({ text: 'rest argenta-2', attachments: [attachment('argenta-report.yaml', report)] }).source).toBe('mail body');
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
