import { busyNote } from './limits.js';

/**
 * What a test is waiting for right now (a process of the built CLI, a server's greeting...), so that a
 * test that times out says what it was waiting for (test/support/timeouts.ts adds it to the message).
 */
const pending = new Set<string>();

export async function awaiting<T>(what: string, work: Promise<T>): Promise<T> {
  const entry = `${what} (since ${new Date().toISOString().slice(11, 19)})`;
  pending.add(entry);
  try {
    return await work;
  } finally {
    pending.delete(entry);
  }
}

export function awaitedNow(): string[] {
  return [...pending];
}

/** An error for a wait that ran out: what was awaited, how long, and why a busy machine can be the cause. */
export function hangError(what: string, ms: number, detail = ''): Error {
  return new Error(`waited ${Math.round(ms / 1000)} s for ${what} and gave up${detail ? `: ${detail}` : ''}. ${busyNote()}`);
}

/** Polls `ready` every `everyMs` until it is true; past `ms`, throws hangError (never returns quietly). */
export async function waitUntil(what: string, ready: () => boolean, ms: number, everyMs = 20): Promise<void> {
  const started = Date.now();
  await awaiting(
    what,
    (async () => {
      while (!ready()) {
        if (Date.now() - started > ms) throw hangError(what, ms);
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    })(),
  );
}
