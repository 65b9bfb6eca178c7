/** Writes items, returning the indexes of those stored earlier (as AttemptRepository.recordMany does); throws unless all are stored. */
export type BatchWrite<T> = (items: T[]) => Promise<Set<number>>;

interface Waiting<T> {
  items: T[];
  resolve: (earlier: Set<number>) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit over `write`: calls made in the same turn of the event loop go together in one
 * write; while `parallel` writes are in flight, later calls wait and go together in the next one.
 * Each caller learns which of its own items were stored earlier, exactly as from a write of its
 * own. When a shared write fails, each caller's items are written again on their own, so one
 * caller's bad items fail only that caller.
 */
export function groupCommit<T>(write: BatchWrite<T>, parallel = 1): BatchWrite<T> {
  let queue: Waiting<T>[] = [];
  let writing = 0;
  let scheduled = false;

  async function writeGroup(group: Waiting<T>[]): Promise<void> {
    if (group.length === 1) {
      const only = group[0]!;
      await write(only.items).then(only.resolve, only.reject);
      return;
    }
    let earlier: Set<number>;
    try {
      earlier = await write(group.flatMap((w) => w.items));
    } catch {
      await Promise.all(group.map((w) => write(w.items).then(w.resolve, w.reject)));
      return;
    }
    let offset = 0;
    for (const w of group) {
      const own = new Set<number>();
      for (let i = 0; i < w.items.length; i++) if (earlier.has(offset + i)) own.add(i);
      offset += w.items.length;
      w.resolve(own);
    }
  }

  function flush(): void {
    scheduled = false;
    if (queue.length === 0 || writing >= parallel) return;
    const group = queue;
    queue = [];
    writing++;
    void writeGroup(group).finally(() => {
      writing--;
      // What arrived meanwhile goes in the next write, at once.
      flush();
    });
  }

  return (items) =>
    new Promise<Set<number>>((resolve, reject) => {
      queue.push({ items, resolve, reject });
      if (scheduled || writing >= parallel) return;
      scheduled = true;
      setImmediate(flush);
    });
}
