/**
 * Runs async work one at a time per key (a game id) inside this process: each call starts after
 * the previous one for the same key has settled, whatever its outcome. It only spares needless
 * retries and keeps one process's broadcasts in version order; the guard that holds across
 * processes is the conditional update on games.version (docs/server.md
 * §5). Keys are forgotten once their queue is empty, so nothing grows.
 */
export class KeyedQueue {
  private readonly tails = new Map<number, Promise<void>>();

  /** Runs `work` after every earlier call for `key`; resolves or rejects with its result. */
  run<T>(key: number, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (for tests and diagnostics). */
  get size(): number {
    return this.tails.size;
  }
}
