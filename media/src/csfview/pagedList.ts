/** Pages of a remote list: loads on demand, keeps at most `maxPages`, calls `changed` when a page arrives. */
export class PagedList<T> {
  private readonly pages = new Map<number, T[]>();
  private readonly loading = new Set<number>();
  private failed = new Set<number>();

  constructor(
    readonly pageSize: number,
    private readonly maxPages: number,
    private readonly load: (page: number) => Promise<T[]>,
    private readonly changed: () => void,
  ) {}

  get pending(): number {
    return this.loading.size;
  }

  /** Item i, or undefined while its page loads (the load is started). */
  get(i: number): T | undefined {
    const p = Math.floor(i / this.pageSize);
    const page = this.pages.get(p);
    if (page) {
      // most recently used last
      this.pages.delete(p);
      this.pages.set(p, page);
      return page[i - p * this.pageSize];
    }
    if (!this.loading.has(p) && !this.failed.has(p)) {
      this.loading.add(p);
      this.load(p).then(
        (items) => {
          this.loading.delete(p);
          this.pages.set(p, items);
          while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value as number);
          this.changed();
        },
        () => {
          this.loading.delete(p);
          this.failed.add(p);
          this.changed();
        },
      );
    }
    return undefined;
  }

  /** Pages held (tests check the view never holds the whole file). */
  get held(): number {
    return this.pages.size;
  }

  clear(): void {
    this.pages.clear();
    this.failed.clear();
  }
}
