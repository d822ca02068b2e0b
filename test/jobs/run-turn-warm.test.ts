import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TurnRenderer } from '../../src/campaign/turn-renderer.js';
import { runTurn } from '../../src/jobs/run-turn.js';
import { cleanupScratch, demoCopy } from '../schedule/support.js';

/**
 * A renderer's `warm` (report workers getting ready) as runTurn drives it: called once the world before the turn
 * is read, since its size decides whether threads pay, and before the render; whatever it started is dismissed
 * once the turn is written or has failed.
 */
afterAll(cleanupScratch);

/** A renderer that records what runTurn asks of it, and fails its render when told to. */
function recordingRenderer(fail: boolean): { renderer: TurnRenderer; calls: string[] } {
  const calls: string[] = [];
  const renderer: TurnRenderer = async (input) => {
    calls.push(`render ${input.turn}`);
    if (fail) throw new Error('the renderer failed');
  };
  renderer.warm = (_open, before) => {
    calls.push(`warm ${Object.keys(before.units).length} units of turn ${before.turn}`);
    return { dismiss: () => calls.push('dismiss') };
  };
  return { renderer, calls };
}

describe('warming a renderer', () => {
  it('happens with the world before the turn in hand, before the render, and what it started is dismissed after', async () => {
    const dir = demoCopy('warm-ok');
    const { renderer, calls } = recordingRenderer(false);
    const result = await runTurn(dir, { renderers: [renderer] });
    expect(result.turn).toBe(1);
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatch(/^warm [1-9]\d* units of turn 0$/);
    expect(calls.slice(1)).toEqual(['render 1', 'dismiss']);
  });

  it('is dismissed when the turn fails after it, and the turn is not written', async () => {
    const dir = demoCopy('warm-fail');
    const { renderer, calls } = recordingRenderer(true);
    await expect(runTurn(dir, { renderers: [renderer] })).rejects.toThrow('the renderer failed');
    expect(calls.slice(1)).toEqual(['render 1', 'dismiss']);
    expect(existsSync(join(dir, 'turns', '0001'))).toBe(false);
  });
});
