// The people of the sign-up burst (bench/signup-burst.ts), run as a process of their own:
// `signup-burst-people.ts PORT` signs up 200 people from 200 addresses on 127.0.0.1:PORT, their
// first requests sent evenly over one second, each waiting out a busy server's 503 as the browser's
// forms do (src/client/submit-json.ts), and prints what happened to each as one JSON array.
import { BUSY_PATIENCE_MS, busyRetryMs } from '../src/client/submit-json.ts';

const HOST = '127.0.0.1';
export const BURST_PEOPLE = 200;
/** The sign-ups are sent evenly over this time. */
export const BURST_SPREAD_MS = 1000;

export interface Person {
  status: number;
  busy: number;
  /** From the burst's start. */
  firstSentMs: number;
  answeredMs: number;
}

/** One person signing up as the dialog does: a 503 is waited out while patience lasts. */
async function signUp(port: number, index: number, burstStart: number): Promise<Person> {
  const firstSentMs = performance.now() - burstStart;
  const body = JSON.stringify({
    email: `burst-${process.pid}-${index}@example.com`,
    password: `burst password ${index}`,
    dateOfBirth: '1990-05-17',
  });
  let busy = 0;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(`http://${HOST}:${port}/api/signup`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          // Its own address behind the proxy (TRUST_PROXY=1): 200 people, not one client.
          'x-forwarded-for': `198.18.${index >> 8}.${index & 255}`,
        },
        body,
      });
      await response.arrayBuffer();
    } catch {
      return { status: 0, busy, firstSentMs, answeredMs: performance.now() - burstStart };
    }
    const answeredMs = performance.now() - burstStart;
    const waitMs = busyRetryMs(response);
    // The browser's rule: wait when told, while the whole stays within a minute of the first try.
    if (waitMs === undefined || answeredMs + waitMs - firstSentMs > BUSY_PATIENCE_MS)
      return {
        status: response.status,
        busy: busy + (response.status === 503 ? 1 : 0),
        firstSentMs,
        answeredMs,
      };
    busy += 1;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

async function main(port: number): Promise<void> {
  const burstStart = performance.now();
  const people = await Promise.all(
    Array.from(
      { length: BURST_PEOPLE },
      (_, index) =>
        new Promise<Person>((resolve) =>
          setTimeout(
            () => resolve(signUp(port, index, burstStart)),
            (index * BURST_SPREAD_MS) / BURST_PEOPLE,
          ),
        ),
    ),
  );
  process.stdout.write(JSON.stringify(people));
}

if (import.meta.filename === process.argv[1]) await main(Number(process.argv[2]));
