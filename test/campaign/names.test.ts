import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCampaign } from '../../src/campaign/store.js';
import { FIXTURE, scratchCopy } from '../report/support.js';

/** The GM's names in campaign.yaml follow the players' rule: no control, line-break or direction character. */
let dir: string;
let cleanup: () => void;
let original: string;
beforeAll(() => {
  ({ dir, cleanup } = scratchCopy(FIXTURE, 'names'));
  original = readFileSync(join(dir, 'campaign.yaml'), 'utf8');
});
afterAll(() => cleanup?.());

const withCampaign = (edit: (text: string) => string) => {
  const edited = edit(original);
  expect(edited).not.toBe(original);
  writeFileSync(join(dir, 'campaign.yaml'), edited);
};

describe('names in campaign.yaml', () => {
  it.each([
    ['a unit name with a terminal escape', (t: string) => t.replace('name: Iron Guard,', 'name: "Iron\\e[31mGuard",'), /units.*name.*U\+001B \(escape, which starts terminal codes\) at character 5; a name is one line of plain visible text/],
    ['a nation name over two lines', (t: string) => t.replace('name: Argenta\n', 'name: "Argenta\\n== GM NOTICE =="\n'), /argenta.*name.*U\+000A \(a line break\)/],
    ['a settlement name with a direction override', (t: string) => t.replace('name: Argentum,', 'name: "Argen\\u202Etum",'), /name.*U\+202E \(a direction override/],
    ['a leader with a zero-width space', (t: string) => t.replace('leader: Queen Isolde', 'leader: "Queen\\u200BIsolde"'), /leader.*U\+200B/],
  ])('refuses %s, naming the key', async (_what, edit, message) => {
    withCampaign(edit);
    await expect(openCampaign(dir)).rejects.toThrow(message);
  });

  it('lets a goal or an ability span lines', async () => {
    withCampaign((t) => t.replace('text: Rule two settlements before the first winter', 'text: |\n          Rule two settlements\n          before the first winter'));
    await expect(openCampaign(dir)).resolves.toBeTruthy();
  });
});
