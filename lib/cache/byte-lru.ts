/**
 * A map bounded by the estimated bytes of what it keeps, least recently used first out. A value
 * larger than the whole bound is not kept at all: one huge organisation evicts, it never grows
 * the map past its bound. `dropped` hears of every value that leaves it (evicted, replaced,
 * deleted or cleared), with its bytes: the process's caches (`Caches`) count each cache's share by it.
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;

  constructor(
    readonly maxBytes: number,
    private readonly dropped?: (key: string, value: V, bytes: number) => void,
  ) {}

  get(key: string): V | undefined {
    const found = this.entries.get(key);
    if (found === undefined) return undefined;
    // Map keeps insertion order: moving the key to the end makes it the most recently used.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found.value;
  }

  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes) return;
    while (this.used + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.delete(oldest.value);
    }
    this.entries.set(key, { value, bytes });
    this.used += bytes;
  }

  delete(key: string): void {
    const found = this.entries.get(key);
    if (found === undefined) return;
    this.entries.delete(key);
    this.used -= found.bytes;
    this.dropped?.(key, found.value, found.bytes);
  }

  /** Deletes every key `which` picks (all of them without it). */
  clear(which?: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (which === undefined || which(key)) this.delete(key);
  }

  /** Estimated bytes kept now (never more than `maxBytes`). */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.entries.size;
  }
}
