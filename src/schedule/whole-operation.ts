import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { failpoint } from '../host/failpoints.js';
import { commitFiles, type FileWrite } from '../campaign/journal.js';
import { newToken, readTokens, setToken, tokenDigest } from '../campaign/secrets.js';
import { addNotice, raiseAlert, type NoticeKind, type Runtime } from './runtime.js';
import { settleSeat, type SeatChange } from './seats/take.js';

/**
 * A GM operation that is whole or absent after a crash (issue 33): `nation split`, `nation add|drop|reassign`
 * and `token --new`; and a seat taken by mail (`accept`, src/schedule/seats/desk.ts, issue 35). Each changes several things that must go together — campaign.yaml and the latest
 * state, a token in the secrets file, the log, the notices that mail the players — and a kill between two of
 * them once left, say, a new nation with no token and nothing to tell the GM. So the operation is first
 * written into runtime.yaml whole (`operation.whole`: the files by digest, the token to issue or remove, the
 * log lines and notices it ends with), then carried out:
 *
 *   gm-op-recorded       runtime.yaml says what the operation is; nothing else changed
 *   gm-files-staged      the new files are written beside their targets (journal.ts)
 *   gm-journal-written   the journal of renames is written: from here the files will change
 *   gm-files-committed   the files are in place
 *   gm-token-set         the secrets file has the new token (or has lost the old one)
 *   gm-op-finished       the log, notices, seat record and retired token are in runtime.yaml, the operation cleared
 *
 * (each a failpoint of src/host/failpoints.ts: a test kills the process there). The next fatecraft
 * command that finds an operation left (recoverOperation: every GM command, and tick) decides by what is on
 * disk: once the files are in place (or, with no files, once the token changed) it completes the rest;
 * before that it undoes it, removing the staged files. Either way the GM is told which, by an alert (mailed
 * with the next tick) and on the console. The notices go to the players by mail once, keyed by their id.
 * An `accept` undone is not lost: the mail that brought it is handled again by the next mail fetch (its
 * ledger entry says it was decided, not done), and takes the seat then.
 */
export const SEAT_ACCEPT = 'seat-accept';

export interface WholeOperation {
  kind: string;
  /** The command as the GM typed it, for messages. */
  command: string;
  files?: FileWrite[];
  token?: { nation: string; action: 'issue' | 'remove' };
  log?: { op: string; detail: string; turn?: number; players?: { turn: number; text: string } }[];
  notices?: { kind: NoticeKind; turn: number; nations?: string[]; text: string }[];
  /** Nations the operation marks dropped (runtime.yaml `dropped`), and those it takes off that list. */
  dropped?: Runtime['dropped'];
  undropped?: string[];
  /** The seat's new holder (a tenure in runtime.yaml `seats`), and the invitation an `accept` took it with. */
  seat?: SeatChange;
}

export interface OperationContext {
  dir: string;
  runtime: Runtime;
  now: Date;
  campaignName: string;
  env: NodeJS.ProcessEnv;
  reason?: string;
  save(): Promise<void>;
}

type Recorded = NonNullable<NonNullable<Runtime['operation']>['whole']>;

const sha256 = (content: string | Buffer) => createHash('sha256').update(content).digest('hex');

/** Carries the operation out, step by step as above. Returns the ids of the notices it added. */
export async function runWhole(ctx: OperationContext, op: WholeOperation): Promise<number[]> {
  const files = op.files ?? [];
  const previous = op.token ? (await readTokens(ctx.campaignName, ctx.env))[op.token.nation] : undefined;
  const whole: Recorded = {
    files: files.map((f) => ({ path: f.path, sha256: sha256(f.content) })),
    ...(op.token ? { token: { ...op.token, ...(previous !== undefined ? { previous: tokenDigest(previous) } : {}) } } : {}),
    log: (op.log ?? []).map((l) => ({ at: ctx.now.toISOString(), op: l.op, detail: l.detail, ...(l.turn !== undefined ? { turn: l.turn } : {}), ...(ctx.reason ? { reason: ctx.reason } : {}), ...(l.players ? { players: l.players } : {}) })),
    notices: (op.notices ?? []).map((n) => ({ kind: n.kind, turn: n.turn, nations: n.nations ?? [], text: n.text })),
    dropped: op.dropped ?? {},
    undropped: op.undropped ?? [],
    ...(op.seat ? { seat: op.seat } : {}),
  };
  ctx.runtime.operation = { kind: op.kind, startedAt: ctx.now.toISOString(), command: op.command, whole };
  await ctx.save();
  await failpoint('gm-op-recorded');
  if (files.length) await commitFiles(ctx.dir, files);
  await failpoint('gm-files-committed');
  await settleToken(ctx, whole);
  await failpoint('gm-token-set');
  const ids = finish(ctx.runtime, ctx.now, whole);
  delete ctx.runtime.operation;
  await ctx.save();
  await failpoint('gm-op-finished');
  return ids;
}

/** Issues or removes the operation's token, unless that is done already. */
async function settleToken(ctx: Pick<OperationContext, 'dir' | 'campaignName' | 'env'>, whole: Recorded): Promise<void> {
  if (!whole.token || (await tokenSettled(ctx, whole))) return;
  await setToken(ctx.campaignName, ctx.dir, whole.token.nation, whole.token.action === 'issue' ? newToken() : undefined, ctx.env);
}

async function tokenSettled(ctx: Pick<OperationContext, 'campaignName' | 'env'>, whole: Recorded): Promise<boolean> {
  const t = whole.token;
  if (!t) return true;
  const now = (await readTokens(ctx.campaignName, ctx.env))[t.nation];
  return t.action === 'issue' ? now !== undefined && tokenDigest(now) !== t.previous : now === undefined;
}

/** The operation's last step, in runtime.yaml: the replaced token retired, the log, the drops, the seat, the notices. */
function finish(rt: Runtime, now: Date, whole: Recorded): number[] {
  const t = whole.token;
  if (t?.previous) rt.retiredTokens[t.nation] = [...new Set([...(rt.retiredTokens[t.nation] ?? []), t.previous])];
  rt.log.push(...whole.log);
  for (const nation of whole.undropped) delete rt.dropped[nation];
  Object.assign(rt.dropped, whole.dropped);
  if (whole.seat) settleSeat(rt, now, whole.seat);
  return whole.notices.map((n) => addNotice(rt, now, n).id);
}

async function filesInPlace(dir: string, whole: Recorded): Promise<boolean> {
  for (const f of whole.files) {
    const path = join(dir, f.path);
    if (!existsSync(path) || sha256(await readFile(path)) !== f.sha256) return false;
  }
  return true;
}

export interface Recovery {
  outcome: 'completed' | 'undone';
  /** What the GM is told. */
  line: string;
}

/**
 * Completes or undoes an interrupted whole operation (after journal.ts has finished any renames it had
 * begun). Leaves other operations (rerun, rollback) alone. The caller saves runtime.yaml.
 */
export async function recoverOperation(ctx: Omit<OperationContext, 'save' | 'reason'>): Promise<Recovery | undefined> {
  const op = ctx.runtime.operation;
  const whole = op?.whole;
  if (!op || !whole) return undefined;
  const committed = whole.files.length > 0 ? await filesInPlace(ctx.dir, whole) : await tokenSettled(ctx, whole);
  let recovery: Recovery;
  const byMail = op.kind === SEAT_ACCEPT;
  const what = `${byMail ? 'the seat taken by mail' : 'the GM operation'} "${op.command}" (started ${op.startedAt})`;
  if (committed) {
    await settleToken(ctx, whole);
    finish(ctx.runtime, ctx.now, whole);
    recovery = { outcome: 'completed', line: `${what} was interrupted after it had changed the campaign; it has now been completed: its token, log${byMail ? ', seat record' : ''} and notices to the players are in place, and ${byMail ? 'the welcome goes out by mail once' : 'the notices go out by mail once'}.` };
  } else {
    for (const f of whole.files) await rm(join(ctx.dir, `${f.path}.gm-new`), { force: true });
    recovery = { outcome: 'undone', line: `${what} was interrupted before it changed anything; it has been undone and nothing was done. ${byMail ? 'The mail that accepted is handled again with the next mail fetch.' : 'Run it again if you still want it.'}` };
  }
  delete ctx.runtime.operation;
  raiseAlert(ctx.runtime, ctx.now, { key: `operation-${recovery.outcome}:${op.startedAt}:${op.command}`, kind: 'recovered', message: recovery.line });
  ctx.runtime.log.push({ at: ctx.now.toISOString(), op: `operation-${recovery.outcome}`, detail: `${op.command}: ${recovery.outcome === 'completed' ? 'completed after an interruption' : 'undone after an interruption (nothing was done)'}` });
  return recovery;
}

