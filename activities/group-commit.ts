/** Writes items, returning the indexes of those stored earlier (as AttemptRepository.recordMany does); throws unless all are stored. */
export type BatchWrite<T> = (items: T[]) => Promise<Set<number>>;

interface Waiting<T> {
  items: T[];
  resolve: (earlier: Set<number>) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit over `write`: calls made in the same turn of the event loop, or while a write is
 * in flight, go together in the next single write. Each caller learns which of its own items were
 * stored earlier, exactly as from a write of its own. When a shared write fails, each caller's
 * items are written again on their own, so one caller's bad items fail only that caller.
 */
export function groupCommit<T>(write: BatchWrite<T>): BatchWrite<T> {
  let queue: Waiting<T>[] = [];
  let writing = false;

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
    const group = queue;
    queue = [];
    void writeGroup(group).finally(() => {
      // What arrived meanwhile goes in the next write, at once.
      if (queue.length > 0) flush();
      else writing = false;
    });
  }

  return (items) =>
    new Promise<Set<number>>((resolve, reject) => {
      queue.push({ items, resolve, reject });
      if (writing) return;
      writing = true;
      setImmediate(flush);
    });
}
