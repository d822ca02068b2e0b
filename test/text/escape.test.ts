import { describe, expect, it } from 'vitest';
import { escapeXml, headerText, plainLines, plainText, printable } from '../../src/text/escape.js';

/** The one place each output format is escaped (src/text/escape.ts). */
describe('escape.ts', () => {
  it('leaves ordinary text in any script as the same string', () => {
    for (const s of ['Iron Guard', 'Ørnulf’s Wölfe — 海狼', 'گرگ\u200Cها', '👩\u200D🚀', '']) {
      expect(plainText(s)).toBe(s);
      expect(headerText(s)).toBe(s);
    }
    expect(escapeXml('<i>Nova</i> & Co')).toBe('&lt;i&gt;Nova&lt;/i&gt; &amp; Co');
  });

  it('keeps a value on one line with nothing a terminal acts on', () => {
    expect(plainText('Evil\u001b[31m\n== GM NOTICE ==\r\nwins\u202E\u0085x\u2028y\tz')).toBe('Evil\ufffd[31m ↵ == GM NOTICE == ↵ wins\ufffd ↵ x ↵ y z');
    expect(plainText('lone \ud800 half, \ufffe, soft\u00adhyphen, zero\u200bwidth')).toBe('lone \ufffd half, \ufffd, soft\ufffdhyphen, zero\ufffdwidth');
  });

  it('drops a line break at either end (a YAML block ends in one)', () => {
    expect(plainText('Rule two settlements\nbefore the winter\n')).toBe('Rule two settlements ↵ before the winter');
    expect(plainText('\n  indented block  \n')).toBe('indented block');
  });

  it('writes XML that has no character XML 1.0 refuses', () => {
    expect(escapeXml('a\u001bb"\'<')).toBe('a\ufffdb&quot;&#39;&lt;');
  });

  it('keeps a subject on one line, and the lines of a body apart', () => {
    expect(headerText('Re: x\r\nBcc: y\u001b')).toBe('Re: x Bcc: y\ufffd');
    expect(plainLines('one\r\ntwo\u001b\n\tthree')).toBe('one\ntwo\ufffd\n three');
    expect(plainLines('one\n\ttwo\n')).toBe('one\n\ttwo\n');
  });

  it('makes a view printable, copying only what changes', () => {
    const clean = { nation: { name: 'Argenta' }, units: [{ id: 'a-1', name: 'Iron Guard', hp: 3 }], notes: [] as string[] };
    expect(printable(clean)).toBe(clean);
    const view = { nation: { name: 'Argenta' }, units: [{ id: 'a-1', name: 'Evil\n== GM ==' }, { id: 'a-2', name: 'Fine' }], turn: 4 };
    const safe = printable(view);
    expect(safe).toEqual({ nation: { name: 'Argenta' }, units: [{ id: 'a-1', name: 'Evil ↵ == GM ==' }, { id: 'a-2', name: 'Fine' }], turn: 4 });
    expect(safe.nation).toBe(view.nation);
    expect(safe.units[1]).toBe(view.units[1]);
    expect(view.units[0]!.name).toBe('Evil\n== GM ==');
  });
});
