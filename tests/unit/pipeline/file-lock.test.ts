// Pins the build lock: one holder at a time, released on success and failure, a stale lock taken over.
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { withLock } from '../../../pipeline/file-lock.mjs';

let dir: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'localboard-lock-'));
  lock = join(dir, 'build.lock');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('withLock', () => {
  test('runs two tasks on the same lock one after the other, never together', async () => {
    const events: string[] = [];
    const task = (name: string) => async () => {
      events.push(`${name} enter`);
      expect(existsSync(lock)).toBe(true);
      await sleep(20); // gives the other call every chance to step in
      events.push(`${name} leave`);
      return name;
    };
    const results = await Promise.all([withLock(lock, task('a')), withLock(lock, task('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(events).toHaveLength(4);
    // Whichever went first left before the other entered.
    const first = events[0]!.split(' ')[0]!;
    const second = first === 'a' ? 'b' : 'a';
    expect(events).toEqual([
      `${first} enter`,
      `${first} leave`,
      `${second} enter`,
      `${second} leave`,
    ]);
    expect(existsSync(lock)).toBe(false);
  });

  test('returns what the task returns, for a plain function too', async () => {
    await expect(withLock(lock, () => 42)).resolves.toBe(42);
    await expect(withLock(lock, async () => ({ pages: 3 }))).resolves.toEqual({ pages: 3 });
    expect(existsSync(lock)).toBe(false);
  });

  test("passes a task's error on to the caller and releases the lock", async () => {
    await expect(
      withLock(lock, () => {
        throw new Error('render failed');
      }),
    ).rejects.toThrow('render failed');
    expect(existsSync(lock)).toBe(false);
    await expect(withLock(lock, () => 'after')).resolves.toBe('after');
  });

  test("passes a rejected task's error on to the caller and releases the lock", async () => {
    await expect(withLock(lock, () => Promise.reject(new Error('bundle failed')))).rejects.toThrow(
      'bundle failed',
    );
    expect(existsSync(lock)).toBe(false);
  });

  test('waits while another build holds the lock, and runs once it is released', async () => {
    mkdirSync(lock);
    let ran = false;
    const held = withLock(lock, () => {
      ran = true;
    });
    await sleep(150);
    expect(ran).toBe(false);
    rmSync(lock, { recursive: true });
    await held;
    expect(ran).toBe(true);
    expect(existsSync(lock)).toBe(false);
  });

  test('takes over a lock older than ten minutes instead of waiting for it', async () => {
    mkdirSync(lock);
    const elevenMinutesAgo = new Date(Date.now() - 11 * 60_000);
    utimesSync(lock, elevenMinutesAgo, elevenMinutesAgo);
    // Were it waited for, nothing would release it and the test would time out.
    await expect(withLock(lock, () => existsSync(lock))).resolves.toBe(true);
    expect(existsSync(lock)).toBe(false);
  });
});
