/**
 * What a long-lived process (the daemon, the web desk, a worker thread) keeps
 * of its past work: a map holding at most `entries` entries and at most
 * `weight` in all (bytes, lines: whatever the caller weighs an entry by),
 * forgetting the oldest first; with `keepNewest`, the newest entry stays
 * however heavy it is alone (else it goes too). With `refresh`, reading an entry makes it the newest, so what is still asked
 * for stays (least recently used goes first); without, entries go in the order
 * they were set.
 */
export interface KeptLimits {
  entries?: number;
  weight?: number;
  refresh?: boolean;
  keepNewest?: boolean;
}

export class KeptMap<K, V> {
  private readonly kept = new Map<K, { value: V; weight: number }>();
  private total = 0;

  constructor(private readonly limits: KeptLimits) {}

  get size(): number {
    return this.kept.size;
  }

  /** The sum of the kept entries' weights. */
  get weight(): number {
    return this.total;
  }

  get(key: K): V | undefined {
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    if (this.limits.refresh) {
      this.kept.delete(key);
      this.kept.set(key, entry);
    }
    return entry.value;
  }

  /** The entry as it is, without making it the newest. */
  peek(key: K): V | undefined {
    return this.kept.get(key)?.value;
  }

  /** Keeps the value as the newest entry (replacing any under the key), then forgets the oldest while over a limit. */
  set(key: K, value: V, weight = 1): void {
    this.delete(key);
    this.kept.set(key, { value, weight });
    this.total += weight;
    const entries = this.limits.entries ?? Infinity;
    const most = this.limits.weight ?? Infinity;
    const least = this.limits.keepNewest ? 1 : 0;
    while (this.kept.size > least && (this.kept.size > entries || this.total > most)) this.delete(this.kept.keys().next().value!);
  }

  delete(key: K): boolean {
    const entry = this.kept.get(key);
    if (entry === undefined) return false;
    this.kept.delete(key);
    this.total -= entry.weight;
    return true;
  }

  /** The keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.kept.keys();
  }
}
