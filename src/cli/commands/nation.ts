import { readFile } from 'node:fs/promises';
import { handRun } from '../command-lock.js';
import type { Command } from 'commander';
import { CampaignError } from '../../campaign/problems.js';
import { GM_LIMITS, readYaml } from '../../campaign/yaml-io.js';
import { addNation, dropNation, reassignNation } from '../../gm/nations.js';
import { splitNation } from '../../gm/civil-war.js';
import { offerSeat } from '../../gm/seats.js';
import { secretsPath } from '../../campaign/secrets.js';
import { openCampaign } from '../../campaign/store.js';

export function registerNation(program: Command): void {
  const nation = program.command('nation').description('add, drop, reassign, split or offer a nation mid-campaign');

  nation
    .command('add')
    .description('add a nation: its block (as under nations: in campaign.yaml) goes into campaign.yaml and its start sheet into the current state')
    .argument('<campaign>', 'campaign folder')
    .argument('<id>', 'the new nation\'s id, e.g. "skarn"')
    .requiredOption('--sheet <file>', 'YAML file with the nation: name, leader, caps, start, units, settlements...')
    .option('--email <address>', 'the player\'s address (repeatable)', collect)
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, id: string, opts: { sheet: string; email?: string[]; reason?: string }) => {
      const read = readYaml(await readFile(opts.sheet), GM_LIMITS);
      if (!read.ok) throw new CampaignError(read.problems.map((p) => ({ file: opts.sheet, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message })));
      if (typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) throw new CampaignError([{ file: opts.sheet, message: 'a nation sheet is a map: name, leader, caps, start, units, settlements...' }]);
      const r = await addNation(dir, id, { ...handRun(), sheet: read.value as Record<string, unknown>, ...(opts.email ? { email: opts.email } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
      const name = (await openCampaign(dir)).campaign.name;
      console.log(`Added ${r.nation}; it is in the state of turn ${r.turn} and sends orders from the next turn on.`);
      console.log(`Its order token is in ${secretsPath(name)}; the player gets it with the next tick's notice.`);
      for (const w of r.warnings) console.error(`warning: ${w}`);
    });

  nation
    .command('drop')
    .description('a nation loses its player: its units hold for ever, or (--neutral) pass to a neutral nation; its token is retired')
    .argument('<campaign>', 'campaign folder')
    .argument('<id>', 'the nation')
    .option('--neutral', 'hand its units, settlements and works to a neutral nation')
    .option('--neutral-as <id>', 'id of the neutral nation (created if missing)', 'neutral')
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, id: string, opts: { neutral?: boolean; neutralAs: string; reason?: string }) => {
      const r = await dropNation(dir, id, { ...handRun(), mode: opts.neutral ? 'neutral' : 'hold', neutralId: opts.neutralAs, ...(opts.reason ? { reason: opts.reason } : {}) });
      if (r.mode === 'hold') console.log(`Dropped ${r.nation}: its units hold from now on; it gets no reminders and does not count for the NMR guard.`);
      else console.log(`Dropped ${r.nation}: ${r.moved ? `${r.moved.units} units, ${r.moved.settlements} settlements, ${r.moved.externals} works and ${r.moved.builds} builds` : 'its start sheets'} passed to "${opts.neutralAs}".`);
      for (const w of r.warnings) console.error(`warning: ${w}`);
    });

  registerSplit(nation);
  registerOffer(nation);

  nation
    .command('reassign')
    .description('a new player takes a nation over: new address and token; the old token is refused')
    .argument('<campaign>', 'campaign folder')
    .argument('<id>', 'the nation')
    .requiredOption('--email <address>', 'the new player\'s address (repeatable)', collect)
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, id: string, opts: { email: string[]; reason?: string }) => {
      const r = await reassignNation(dir, id, { ...handRun(), email: opts.email, ...(opts.reason ? { reason: opts.reason } : {}) });
      const name = (await openCampaign(dir)).campaign.name;
      console.log(`${r.nation} now belongs to ${opts.email.join(', ')} (was ${r.previous.join(', ') || 'nobody'}).`);
      console.log(`It has a new order token, in ${secretsPath(name)}; the old one is refused from now on, and the player gets the new one with the next tick's notice.`);
      for (const w of r.warnings) console.error(`warning: ${w}`);
    });
}

/** Civil war: the chosen settlements and units break away as a new nation. */
function registerSplit(nation: Command): void {
  nation
    .command('split')
    .description('civil war: chosen settlements and units of a nation break away as a new nation (campaign.yaml, the latest state, and the story in the next reports)')
    .argument('<campaign>', 'campaign folder')
    .argument('<id>', 'the nation that splits')
    .argument('<new-id>', 'the new nation\'s id, e.g. "ashmarch-free"')
    .requiredOption('--name <name>', 'the new nation\'s name')
    .requiredOption('--leader <name>', 'who leads it')
    .option('--settlements <list>', 'settlements that break away, by id or name (repeatable, or a,b)', collect)
    .option('--units <list>', 'units that break away, by id or name (repeatable, or a,b)', collect)
    .option('--email <address>', "the new nation's player (repeatable); without one the GM holds it", collect)
    .option('--prosperity <n>', "the new nation's Prosperity (default: the old nation's)", Number)
    .option('--happiness <n>', "the new nation's Happiness (default: the old nation's)", Number)
    .option('--reason <text>', "why: kept in the log, and shown to the players in the GM's log when the campaign has one (reports.gmLog)")
    .action(async (dir: string, id: string, newId: string, opts: { name: string; leader: string; settlements?: string[]; units?: string[]; email?: string[]; prosperity?: number; happiness?: number; reason?: string }) => {
      const r = await splitNation(dir, id, newId, {
        ...handRun(),
        name: opts.name,
        leader: opts.leader,
        settlements: opts.settlements ?? [],
        units: opts.units ?? [],
        ...(opts.email ? { email: opts.email } : {}),
        ...(opts.prosperity !== undefined ? { prosperity: opts.prosperity } : {}),
        ...(opts.happiness !== undefined ? { happiness: opts.happiness } : {}),
        ...(opts.reason ? { reason: opts.reason } : {}),
      });
      console.log(`${r.nation} broke away from ${r.from}: ${r.moved.settlements} settlements, ${r.moved.units} units, ${r.moved.builds} works; it is in the state of turn ${r.turn}, and both nations' next reports tell it.`);
      const name = (await openCampaign(dir)).campaign.name;
      console.log(r.tokenIssued ? `Its order token is in ${secretsPath(name)}; the player gets it with the next tick's notice.` : 'It has no player yet: give it one with fatecraft nation reassign.');
      for (const w of r.warnings) console.error(`warning: ${w}`);
    });
}

/** A one-time invitation to take a seat (docs/operations.md, "Missing players"). */
function registerOffer(nation: Command): void {
  nation
    .command('offer')
    .description('mail a one-time invitation to take a nation\'s seat (a volunteer of the standby list, or anyone); the first "accept" with its code takes it')
    .argument('<campaign>', 'campaign folder')
    .argument('<id>', 'the nation')
    .argument('<address>', 'who is invited')
    .option('--name <name>', "the invited player's name (default: the one they gave when they volunteered)")
    .option('--reason <text>', 'why: kept in the log')
    .action(async (dir: string, id: string, address: string, opts: { name?: string; reason?: string }) => {
      const r = await offerSeat(dir, id, address, { ...handRun(), ...(opts.name ? { name: opts.name } : {}), ...(opts.reason ? { reason: opts.reason } : {}) });
      console.log(`Invitation ${r.offer.id}: the seat of ${r.offer.nation} is offered to ${r.offer.address}${r.offer.name ? ` (${r.offer.name})` : ''}.`);
      if (!r.sent) console.log('campaign.yaml has no mail: block, so nothing was mailed: the invitation needs mail to be accepted.');
      else if (r.sent.stopped !== undefined || r.sent.failed.length > 0 || r.sent.deferred.length > 0) {
        console.error(`warning: the invitation is queued but not sent yet (${r.sent.stopped ?? 'the next tick or fatecraft mail send retries it'})`);
        process.exitCode = 1;
      } else console.log(`Mailed it to ${r.offer.address}; the first "accept" with its code takes the seat.`);
    });
}

/** A repeatable option; "a@x,b@y" counts as two. */
function collect(v: string, previous: string[] = []): string[] {
  return [...previous, ...v.split(',').map((s) => s.trim()).filter(Boolean)];
}
