import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every reading in docs/rules.md names where it is tested: a rules case
 * (`siege/choose-battlements` for test/cases/siege/choose-battlements.yaml) or
 * a test file (`test/report/leak.test.ts`), in brackets at the end of its row.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const rows = readFileSync(join(ROOT, 'docs', 'rules.md'), 'utf8')
  .split('\n')
  .flatMap((line) => {
    const id = /^\| ([A-Z]+\d+) \|/.exec(line)?.[1];
    return id ? [{ id, line }] : [];
  });

const where = (ref: string) => (ref.startsWith('test/') ? join(ROOT, ref) : join(ROOT, 'test', 'cases', `${ref}.yaml`));

/** A reference exists; `combat/flee-*` stands for every case whose name starts so (at least one). */
function exists(ref: string): boolean {
  if (!ref.endsWith('*')) return existsSync(where(ref));
  const dir = join(ROOT, 'test', 'cases', dirname(ref));
  const prefix = basename(ref).slice(0, -1);
  return existsSync(dir) && readdirSync(dir).some((f) => f.startsWith(prefix) && f.endsWith('.yaml'));
}

describe('docs/rules.md', () => {
  it('has its table of readings', () => {
    expect(rows.length).toBeGreaterThan(50);
  });

  it.each(rows.map((r) => [r.id, r.line] as const))('%s names the cases that test it, and they exist', (_id, line) => {
    const refs = /\[([a-z0-9/._, *-]+)\]\s*\|\s*$/.exec(line)?.[1];
    expect(refs, 'the row ends with [case, ...]').toBeDefined();
    for (const ref of (refs ?? '').split(',').map((r) => r.trim())) expect(exists(ref), `${ref} (${where(ref)})`).toBe(true);
  });
});
