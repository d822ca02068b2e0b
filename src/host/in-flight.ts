/**
 * `work` over every item with at most `limit` calls in flight at once (file
 * reads, fsyncs: enough to keep the thread pool and the disk busy, few enough
 * for open-file limits), the answers in the items' order. A failure rejects
 * the whole, as Promise.all does.
 */
export async function mapInFlight<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const answers = new Array<R>(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      answers[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return answers;
}
