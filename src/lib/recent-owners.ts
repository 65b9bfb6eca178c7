/**
 * Who else is sending: the latest owner seen and the latest other than it, which is all it
 * takes to say whether an owner other than a given one was seen within a window.
 */
export class RecentOwners {
  private latest: { owner: string; at: number } | undefined;
  private latestOther: { owner: string; at: number } | undefined;

  /** Notes `owner` seen at `at` (ms). */
  note(owner: string, at: number): void {
    if (this.latest?.owner !== owner) this.latestOther = this.latest;
    this.latest = { owner, at };
  }

  /** Whether an owner other than `owner` was seen within `windowMs` before `now` (ms). */
  othersSeen(owner: string, now: number, windowMs: number): boolean {
    const other = this.latest?.owner !== owner ? this.latest : this.latestOther;
    return other !== undefined && now - other.at <= windowMs;
  }
}
