import { describe, expect, it } from 'vitest';
import { MAX_SKIPPED_POLLS, PollBackoff } from '../../host/engine/executor/poll-backoff.js';

/** The next `n` answers of `backoff.shouldPoll()`, as a string of p (poll) and . (skip). */
function next(backoff: PollBackoff, n: number): string {
  return Array.from({ length: n }, () => (backoff.shouldPoll() ? 'p' : '.')).join('');
}

describe('the caller\'s poll backs off after polls that caught nothing', () => {
  it('polls every hop while its polls catch their replies', () => {
    const backoff = new PollBackoff();
    for (let i = 0; i < 100; i++) {
      expect(backoff.shouldPoll()).toBe(true);
      backoff.record(true);
    }
  });

  it('polls that all miss: skips 1, 2, 4 … hops between them, never more than MAX_SKIPPED_POLLS; a catch resets it', () => {
    const backoff = new PollBackoff();
    const gaps: number[] = [];
    let gap = 0;
    for (let hop = 0; hop < 1000; hop++) {
      if (backoff.shouldPoll()) {
        if (hop > 0) gaps.push(gap);
        gap = 0;
        backoff.record(false);
      } else gap++;
    }
    expect(gaps.slice(0, 8)).toEqual([1, 2, 4, 8, 16, 32, 64, 64]);
    expect(Math.max(...gaps)).toBe(MAX_SKIPPED_POLLS);
    while (!backoff.shouldPoll());
    backoff.record(true);
    expect(next(backoff, 10)).toBe('pppppppppp');
  });

  it('one miss then catches: a single skipped hop, then polls again', () => {
    const backoff = new PollBackoff();
    backoff.record(false);
    expect(next(backoff, 2)).toBe('.p');
    backoff.record(true);
    expect(next(backoff, 5)).toBe('ppppp');
    backoff.record(false);
    expect(next(backoff, 2)).toBe('.p');
    backoff.record(false);
    expect(next(backoff, 3)).toBe('..p');
  });
});
