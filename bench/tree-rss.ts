// Samples the resident memory of a process and all its descendants together (Linux /proc), every
// few milliseconds: the most memory the build held at any one moment, all processes summed, which
// each process's own peak (report-peak-rss.mjs) cannot tell when steps overlap. A sample can miss
// a peak shorter than the interval; the per-process peaks are exact.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface TreeRssSampler {
  /** Stops sampling; the highest sum seen, in bytes (0 where /proc is not available). */
  stop(): number;
}

export function sampleTreeRss(rootPid: number, intervalMs = 10): TreeRssSampler {
  if (!existsSync(`/proc/${rootPid}`)) return { stop: () => 0 };
  let peak = 0;
  const sample = () => {
    const total = descendantsAndSelf(rootPid).reduce((sum, pid) => sum + residentBytes(pid), 0);
    if (total > peak) peak = total;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

function descendantsAndSelf(pid: number): number[] {
  const found = [pid];
  for (let index = 0; index < found.length; index += 1) {
    const parent = found[index]!;
    try {
      for (const thread of readdirSync(`/proc/${parent}/task`)) {
        const children = readFileSync(`/proc/${parent}/task/${thread}/children`, 'utf8').trim();
        if (children) found.push(...children.split(' ').map(Number));
      }
    } catch {
      // The process ended between two reads.
    }
  }
  return found;
}

/** A process's resident memory now (VmRSS) or at its peak (VmHWM), 0 when it cannot be read. */
export function residentBytes(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    );
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
