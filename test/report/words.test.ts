import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readYaml, GM_LIMITS } from '../../src/campaign/yaml-io.js';
import { openCampaign } from '../../src/campaign/store.js';
import { asNationId } from '../../src/core/ids.js';
import { plural } from '../../src/core/prose.js';
import { issueTokens } from '../../src/campaign/secrets.js';
import { buildReceipt, renderReceipt } from '../../src/orders/receipt.js';
import { closest } from '../../src/text/suggest.js';
import { readTextSheet } from '../../src/orders/text-sheet.js';
import { FakeClock } from '../../src/schedule/clock.js';
import { campaignStatus, formatStatus } from '../../src/schedule/status.js';
import { Command } from 'commander';
import { registerCommands } from '../../src/cli/commands/index.js';
import { runCommandLine } from '../support/command-line.js';
import { cleanupScratch, demoCopy, ROOT, scratchDir } from '../schedule/support.js';
import { playScenario, WORLD } from './scenario.js';
import { loadWorld } from '../support/case-world.js';

/**
 * Issue 34, "Words": what players read every week, and a GM's commands —
 * names, not ids; plurals; things in the order they happened, where they
 * happened; a roll as it was rolled; a late sheet told what becomes of it;
 * a chatty first line taken as a note; and the small things a GM meets.
 */
afterAll(cleanupScratch);

const argenta = asNationId('argenta');

describe('units raised without a name', () => {
  it("take the first of their nation's names no unit bears, then ordinals of their type, never their id", () => {
    const campaign = loadWorld(WORLD);
    campaign.nations[argenta]!.unitNames = ['Sea Wolves', 'Salt Guard'];
    const played = playScenario(
      {
        state: {
          units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '3,3', name: 'Sea Wolves' } },
          settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } },
          nations: { argenta: { renown: 100 } },
        },
        orders: { argenta: [{ build: 'Argentum', unit: 'marines' }] },
      },
      campaign,
    );
    const raised = Object.values(played.state.units).filter((u) => u.id !== 'a-1');
    expect(raised.map((u) => u.name)).toEqual(['Salt Guard']);
    expect(played.text('argenta')).toContain("Marines 'Salt Guard' (argenta-1) was raised in Argentum.");
    // Without a list, or past its end: "1st Marines", "2nd Marines"…
    const plain = playScenario({
      state: { settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } }, nations: { argenta: { renown: 100 } } },
      orders: { argenta: [{ build: 'Argentum', unit: 'marines' }] },
    });
    expect(Object.values(plain.state.units).map((u) => u.name)).toEqual(['1st Marines']);
    // A name that says its type stands as written, unquoted (issue 34: it read `'1st Slave Levy'`).
    expect(plain.text('argenta')).toContain("- 1st Marines (argenta-1) was raised in Argentum.");
  });

  it('a name that says its type is not prefixed with the type again', () => {
    const played = playScenario({ state: { units: { 'a-1': { nation: 'argenta', type: 'worker', hex: '3,3', name: 'Construction worker Durga' } } }, orders: { argenta: [{ rest: 'a-1' }] } });
    expect(played.text('argenta')).toContain("- Construction worker Durga (a-1) at 3,3");
  });
});

describe('names, not ids', () => {
  const world = loadWorld(WORLD);
  it('a build lost with its builder names the builder', () => {
    const played = playScenario({
      state: {
        units: { 'a-7': { nation: 'argenta', type: 'worker', hex: '9,4', name: 'Guild Surveyors' }, 'd-1': { nation: 'gondarahl', type: 'elite', hex: '9,5' } },
        builds: [{ id: 'b1', nation: argenta, project: { kind: 'external', externalId: 'x9' as never, structure: 'mine' }, turnsLeft: 2, startedTurn: 0, hex: '9,4' as never, builder: 'a-7' as never }],
      },
      orders: { gondarahl: [{ attack: 'd-1', target: 'a-7' }] },
      dice: { 'battle:attack:d-1': [6, 1] },
    });
    expect(played.text('argenta')).toMatch(/Work on Silver mine was lost: Construction worker 'Guild Surveyors' was lost\./);
  });

  it('the receipt names supporters, a loss order and the work an order gives up by their names', () => {
    const played = playScenario({
      state: {
        units: {
          'a-1': { nation: 'argenta', type: 'marines', hex: '6,2', name: 'Iron Guard' },
          'a-2': { nation: 'argenta', type: 'marines', hex: '6,3', name: 'Salt and Iron' },
          'a-8': { nation: 'argenta', type: 'worker', hex: '9,4', name: 'Guild Surveyors' },
          'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' },
        },
        builds: [{ id: 'b1', nation: argenta, project: { kind: 'external', externalId: 'x9' as never, structure: 'mine' }, turnsLeft: 2, startedTurn: 0, hex: '9,4' as never, builder: 'a-8' as never }],
      },
      orders: {},
    });
    const sheet = readTextSheet('attack d-1 with a-1 supported by "Salt and Iron" losses "Salt and Iron"\nmove Guild Surveyors to 8,4 abandoning\n');
    const text = renderReceipt(buildReceipt({ campaign: world, state: played.before, sheet, nation: argenta }).receipt);
    expect(text).toContain("with Marines 'Salt and Iron' (a-2)");
    expect(text).toContain("losses first: Marines 'Salt and Iron'");
    expect(text).toContain("! WARNING: this gives up work in progress, Construction worker 'Guild Surveyors': Silver mine at 9,4");
    expect(text).not.toMatch(/with a-2|: a-8|losses first: a-2/);
  });
});

describe('plurals and order', () => {
  it('counts in English', () => {
    expect([plural(1, 'battle'), plural(2, 'hex'), plural(3, 'success'), plural(1, 'nation'), plural(2, 'city')]).toEqual(['1 battle', '2 hexes', '3 successes', '1 nation', '2 cities']);
  });

  it('tells work begun before work finished, in the settlement by its name, and no empty Building heading', () => {
    const played = playScenario({
      state: { settlements: { argentum: { nation: 'argenta', level: 'capital', hex: '3,3', name: 'Argentum' } }, nations: { argenta: { renown: 100 } } },
      orders: { argenta: [{ build: 'Argentum', structure: 'foundry' }] },
    });
    const text = played.text('argenta');
    const began = text.indexOf('Work began on Foundry in Argentum (1 turn).');
    expect(began).toBeGreaterThan(0);
    expect(text.indexOf('Work finished on Foundry in Argentum.')).toBeGreaterThan(began);
    expect(playScenario({ state: {}, orders: {} }).text('argenta')).not.toContain('-- Building --');
  });

  it('offers a settlement once in "did you mean", not as its name and its id', () => {
    expect(closest('Fenbi', ['Fenby', 'fenby', 'Ashby'])).toEqual(['Fenby']);
  });

  it('reads the ledger of an indicator without parentheses inside parentheses', () => {
    const played = playScenario({ state: { nations: { argenta: { prosperity: 3 } }, units: { 'a-1': { nation: 'argenta', type: 'worker', hex: '9,4' } } }, orders: { argenta: [{ construct: 'a-1', structure: 'mine' }] } });
    expect(played.text('argenta')).not.toMatch(/\([^()\n]*\([^()\n]*\)\)/);
  });
});

describe('rolls as players read them', () => {
  it("shows a die the GM set as it was rolled, and marks it forced on the GM's page only", () => {
    const played = playScenario({
      state: { units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '6,2' }, 'd-1': { nation: 'gondarahl', type: 'dwarves', hex: '7,2' } } },
      orders: { argenta: [{ attack: 'a-1', target: 'd-1' }] },
      dice: { 'battle:attack:a-1': [4, 3] },
    });
    expect(played.text('argenta')).toContain('d6 rolled 4');
    expect(played.text('argenta')).not.toContain('(forced)');
    expect(played.gm()).toContain('(forced)');
  });
});

describe('what a sheet is told', () => {
  const campaign = loadWorld(WORLD);
  const state = playScenario({ state: { units: { 'a-1': { nation: 'argenta', type: 'marines', hex: '6,2', name: 'Iron Guard' } } }, orders: {} }).before;

  it('a late sheet with no problems is told what becomes of it, not to send it again corrected', () => {
    const text = renderReceipt(buildReceipt({ campaign, state, sheet: readTextSheet('hold Iron Guard\n'), nation: argenta, late: true }).receipt);
    expect(text).not.toContain('Send the whole sheet again, corrected');
    expect(text).toContain('it came after the deadline, and turn 1 is resolved with the orders on file before it, if any. These are not kept for a later turn');
  });

  it('a chatty first line is a note to the GM, not a problem; a slipped order there stays a problem', () => {
    const chatty = buildReceipt({ campaign, state, sheet: readTextSheet('sorry, token typo. again:\nhold Iron Guard\n'), nation: argenta }).receipt;
    expect(chatty.problems).toEqual([]);
    expect(chatty.accepted.map((o) => o.kind)).toEqual(['note', 'hold']);
    const slipped = buildReceipt({ campaign, state, sheet: readTextSheet('mvoe Iron Guard to 6,3\n'), nation: argenta }).receipt;
    expect(slipped.problems.map((p) => p.line)).toEqual([1]);
  });
});

describe("a GM's commands and files", () => {
  it('names a key given twice, and the line it was first given on', () => {
    const read = readYaml('name: a\ntitle: b\nname: c\n', GM_LIMITS);
    expect(read.ok ? [] : read.problems).toEqual([{ line: 3, message: 'the key "name" is given twice in one map (first on line 1); keys must be unique: keep one' }]);
  });

  it('status before start names start', async () => {
    const dir = demoCopy('words-status');
    const status = formatStatus(await campaignStatus(dir, { clock: new FakeClock('2025-03-20T10:00:00Z') }));
    expect(status).toContain(`not started: fatecraft start ${dir} starts the campaign`);
  });

  it('issues no token to the rebels, who send no orders (the demo printed "issued for free")', async () => {
    const open = await openCampaign(demoCopy('words-tokens'));
    const env = { ...process.env, FATECRAFT_SECRETS: join(scratchDir('secrets'), 'words.yaml') };
    const tokens = await issueTokens(open, { env });
    expect(tokens.issued).toEqual(['argenta', 'gondarahl', 'grarkul', 'vulcanstille', 'westvalia']);
  });

  it('repair with nothing to repair says so and fails; token takes --reason, as its siblings do', async () => {
    const dir = demoCopy('words-repair');
    await expect(runCommandLine('repair', dir)).rejects.toThrow(/nothing to repair/);
    const program = new Command();
    await registerCommands(program);
    expect(program.commands.find((c) => c.name() === 'token')!.options.map((o) => o.long)).toContain('--reason');
  });

  it("the new campaign's template has one reports: block", () => {
    const template = readFileSync(join(ROOT, 'templates', 'new-campaign', 'campaign.yaml'), 'utf8');
    expect(template.match(/^#?\s*reports:/gm)).toHaveLength(1);
  });
});
