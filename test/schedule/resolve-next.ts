import { expect } from 'vitest';
import { turnRenderers } from '../../src/cli/renderers.js';
import type { FakeClock } from '../../src/schedule/clock.js';
import { readRuntime } from '../../src/schedule/runtime.js';
import { tick } from '../../src/schedule/tick.js';
import { recordingHooks } from './support.js';

const HOUR = 3_600_000;

/** Ticks every four hours up to the pending turn's deadline (so the long-gap guard stays quiet), then once past it: the turn resolves. */
export async function resolveNext(dir: string, clock: FakeClock, turn: number, renderers = turnRenderers()): Promise<void> {
  const { hooks } = recordingHooks();
  const due = Date.parse((await readRuntime(dir))!.deadline) + 15 * 60_000;
  while (clock.now().getTime() + 4 * HOUR < due) {
    clock.advance(4 * HOUR);
    await tick(dir, { clock, hooks, renderers });
  }
  clock.set(new Date(due));
  const o = await tick(dir, { clock, hooks, renderers });
  expect(o.resolved, o.error).toEqual([turn]);
}
