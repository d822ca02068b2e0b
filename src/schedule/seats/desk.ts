import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../host/atomic-file.js';
import { KEPT_ORDERS } from '../../campaign/kept-orders.js';
import { ordersDir } from '../../orders/pending.js';
import { seatFileName } from '../../campaign/order-folder.js';
import { latestTurn, openCampaign, readState, turnDirName } from '../../campaign/store.js';
import { asNationId } from '../../core/ids.js';
import { orderNames, orderText } from '../../core/order-text.js';
import type { SeatPolicy } from '../../core/orders.js';
import { editCampaignFile } from '../../campaign/campaign-file.js';
import { storyWrite } from '../../campaign/gm-story.js';
import { readTokens } from '../../campaign/secrets.js';
import { interpretSheet } from '../../orders/sheet.js';
import { readYamlSheet } from '../../orders/yaml-sheet.js';
import { logOp, type Offer, type Runtime } from '../runtime.js';
import { openOffers } from './offers.js';
import { recoverOperation, runWhole, SEAT_ACCEPT } from '../whole-operation.js';

/**
 * What a player's mail can do to a seat (docs/mail.md, "Seats"), carried out
 * on runtime.yaml and the campaign's files by whoever holds the campaign's
 * lock (a tick, or `fatecraft mail fetch`): join the standby list, confirm a
 * seat before turn 1, take one's nation back from its policy, take a seat one
 * was invited to. The mailroom decides (decide.ts) and answers; this does.
 */
export interface SeatDesk {
  volunteer(address: string, name: string): Promise<'added' | 'already'>;
  ready(nation: string): Promise<void>;
  back(nation: string, from: string): Promise<BackResult>;
  accept(offer: number, key: string): Promise<AcceptResult>;
  /** The invitations an `accept` may answer. */
  openOffers(): readonly Offer[];
}

export interface BackResult {
  /** An empty order sheet was filed for the pending turn (false: the player's own orders were on file already). */
  filed: boolean;
  turn: number;
  /** What the seat's policy did in the nation's name, turn by turn, since it took the seat. */
  given: { turn: number; policy: SeatPolicy; orders: string[] }[];
}

export type AcceptResult =
  | { ok: true; nation: string; token: string; turn: number; offer: Offer }
  | { ok: false; why: string };

/**
 * How the desk reaches runtime.yaml: `load` gives the runtime to change (a tick's own copy, or the file read
 * afresh), `save` writes it; `current` is what the mailroom matches invitations against.
 */
export interface RuntimeAccess {
  load(): Promise<Runtime>;
  save(runtime: Runtime): Promise<void>;
  current(): Runtime;
  now(): Date;
  env?: NodeJS.ProcessEnv;
}

/** The title of the story a taken seat adds to the pending turn (its nation's report tells it; the others hear a rumour). */
const NEW_HAND = 'A new hand at the helm';

export function seatDesk(dir: string, access: RuntimeAccess): SeatDesk {
  return {
    openOffers: () => openOffers(access.current()),

    async volunteer(address, name) {
      const runtime = await access.load();
      const list = (runtime.standby ??= []);
      const known = list.find((v) => v.address === address.toLowerCase());
      if (known) {
        known.name = name || known.name;
        await access.save(runtime);
        return 'already';
      }
      list.push({ address: address.toLowerCase(), name, at: access.now().toISOString() });
      logOp(runtime, access.now(), 'volunteer', `${address} (${name}) joined the standby list`);
      await access.save(runtime);
      return 'added';
    },

    async ready(nation) {
      const runtime = await access.load();
      const call = (runtime.rollCall ??= { ready: [] });
      if (!call.ready.includes(nation)) call.ready = [...call.ready, nation].sort();
      await access.save(runtime);
    },

    async back(nation, from) {
      const open = await openCampaign(dir);
      const runtime = await access.load();
      const turn = runtime.turn;
      const folder = ordersDir(dir, turn);
      const own = join(folder, `${nation}.yaml`);
      let filed = false;
      if (!existsSync(own)) {
        await mkdir(folder, { recursive: true });
        const header = [`# ${nation} is back (mail from ${from}, ${access.now().toISOString()}): its forces hold this turn,`, '# and the nation is its player\'s again. Orders sent later replace these.'];
        await writeFileAtomic(own, `${header.join('\n')}\nnation: ${nation}\nturn: ${turn}\norders: []\n`, { fsync: true });
        filed = true;
      }
      logOp(runtime, access.now(), 'back', `${nation}'s player is back (mail from ${from})${filed ? `; its forces hold in turn ${turn}` : ''}`, turn);
      await access.save(runtime);
      const latest = (await latestTurn(dir)) ?? 0;
      const state = await readState(dir, latest, open.campaign);
      const since = state.nations[asNationId(nation)]?.seat?.since ?? latest + 1;
      const given: BackResult['given'] = [];
      for (let t = since; t <= latest; t++) {
        for (const policy of ['caretaker', 'disorder'] as const) {
          const file = join(dir, 'turns', turnDirName(t), KEPT_ORDERS, seatFileName(nation, policy));
          if (!existsSync(file)) continue;
          const sheet = readYamlSheet(await readFile(file));
          const before = await readState(dir, t - 1, open.campaign);
          const orders = interpretSheet(sheet, asNationId(nation), open.campaign, before).orders.orders;
          const names = orderNames(open.campaign, before, asNationId(nation));
          given.push({ turn: t, policy, orders: orders.map((o) => orderText(o, names)) });
        }
      }
      return { filed, turn, given };
    },

    async accept(id, key) {
      const runtime = await access.load();
      const env = access.env ?? process.env;
      const now = access.now();
      let open = await openCampaign(dir);
      if (runtime.operation?.whole) {
        // Left by a crash, and no tick since to complete or undo it (a `mail fetch` on its own): done here first.
        await recoverOperation({ dir, runtime, now, campaignName: open.campaign.name, env });
        await access.save(runtime);
        open = await openCampaign(dir);
      }
      const campaignName = open.campaign.name;
      const offer = (runtime.offers ?? []).find((o) => o.id === id);
      if (!offer) return { ok: false, why: 'there is no such invitation' };
      if (offer.status === 'withdrawn') return { ok: false, why: 'the GM withdrew this invitation' };
      if (offer.status === 'accepted') {
        if (offer.acceptedBy !== key) return { ok: false, why: 'this invitation was accepted already' };
        // Taken by this very message, by a run stopped before it had answered: the same token and turn, so
        // the same welcome (its Message-ID comes from them), queued once.
        const token = (await readTokens(campaignName, env))[offer.nation];
        const tenure = [...(runtime.seats?.[offer.nation] ?? [])].reverse().find((t) => t.player.includes(offer.address));
        if (token === undefined) return { ok: false, why: `the seat of ${offer.nation} was taken, but its token is missing from the secrets file: ask the GM` };
        return { ok: true, nation: offer.nation, token, turn: tenure?.fromTurn ?? runtime.turn, offer };
      }
      const def = open.file.nations[offer.nation];
      if (!def) return { ok: false, why: `there is no nation "${offer.nation}" any more` };
      if (runtime.operation) return { ok: false, why: 'the GM is in the middle of an operation on the campaign; send "accept" again a little later' };
      const turn = runtime.turn;
      const edited = await editCampaignFile(dir, (doc) => doc.setIn(['nations', offer.nation, 'email'], doc.createNode([offer.address])));
      const story = await storyWrite(dir, turn, [
        { kind: 'event', nation: offer.nation, title: NEW_HAND, text: `${def.leader}'s council has a new voice: from now on you give the orders of ${def.name}.`, tone: 'neutral', effects: [], public: `${def.name} has a new ruler's hand at the helm.` },
      ]);
      // The pending turn's orders folder may not exist yet (no orders sent so far).
      await mkdir(ordersDir(dir, turn), { recursive: true });
      // One whole operation (src/schedule/whole-operation.ts), as the GM's are: killed anywhere, the next
      // command completes it or undoes it, and the mail that brought the "accept" is handled again.
      await runWhole({ dir, runtime, now, campaignName, env, save: () => access.save(runtime) }, {
        kind: SEAT_ACCEPT,
        command: `accept of invitation ${offer.id} (the seat of ${offer.nation}) by ${offer.address}`,
        files: [{ path: 'campaign.yaml', content: edited.text }, story],
        token: { nation: offer.nation, action: 'issue' },
        log: [{ op: 'seat-taken', detail: `${offer.address}${offer.name ? ` (${offer.name})` : ''} took the seat of ${offer.nation} (invitation ${offer.id}), from turn ${turn}; the old token is refused from now on`, turn, players: { turn, text: `${def.name} has a new player.` } }],
        undropped: [offer.nation],
        seat: { nation: offer.nation, player: [offer.address], fromTurn: turn, ...(offer.name ? { name: offer.name } : {}), offer: { id: offer.id, key } },
      });
      const token = (await readTokens(campaignName, env))[offer.nation]!;
      return { ok: true, nation: offer.nation, token, turn, offer };
    },
  };
}
