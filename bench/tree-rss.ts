// Samples the resident memory of a process and all its descendants together (Linux /proc), every
// few milliseconds: the most memory the build held at any one moment, all processes summed, which
// each process's own peak (report-peak-rss.mjs) cannot tell when steps overlap. A sample can miss
// a peak shorter than the interval; the per-process peaks are exact.
//
// Summed resident memory counts a file mapped by several processes once in each: every build
// process is a Node, and the pages of the Node binary itself that a process has touched (about 45
// MB on Node 24) are resident in each of them, though the machine holds them once. So a second
// figure, the memory the processes hold together: their own (anonymous) memory summed, and each
// mapped file's resident pages once (the most any one of the processes has of it), read from
// /proc/{pid}/smaps every `heldIntervalMs` while there are several processes (one process holds
// its resident memory, sampled every `intervalMs`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';

export interface TreeRssSampler {
  /** Stops sampling; the highest sum seen, in bytes (0 where /proc is not available). */
  stop(): number;
  /** After stop(): the most the processes held together at once (files counted once), bytes. */
  held(): number;
  /** After stop(): what `phase` said when the highest sum was seen (which step was running). */
  peakPhase(): string;
  /** After stop(): the highest sum seen while `phase` said each thing, in bytes. */
  peakByPhase(): Map<string, number>;
  /**
   * After stop(): the CPU time (user + system) the processes used, in seconds, as last sampled
   * (the last 10 ms before each process ended are missed).
   */
  cpuSeconds(): number;
}

export function sampleTreeRss(
  rootPid: number,
  intervalMs = 10,
  heldIntervalMs = 50,
  phase: () => string = () => '',
): TreeRssSampler {
  const byPhase = new Map<string, number>();
  if (!existsSync(`/proc/${rootPid}`))
    return {
      stop: () => 0,
      held: () => 0,
      peakPhase: () => '',
      peakByPhase: () => byPhase,
      cpuSeconds: () => 0,
    };
  const cpuByProcess = new Map<number, number>();
  let peak = 0;
  let peakHeld = 0;
  let phaseAtPeak = '';
  let pids = [rootPid];
  const sample = () => {
    pids = descendantsAndSelf(rootPid);
    const total = pids.reduce((sum, pid) => sum + residentBytes(pid), 0);
    // One process holds what it has resident: no file of it is counted twice, and its smaps
    // need not be read. Reading them walks the process's page tables every 50 ms: beside the
    // million-ad pages step that took 16 % of a core (mostly system time), which the build, on
    // both cores, paid for; without it the sampler takes 2 %.
    if (pids.length === 1 && total > peakHeld) peakHeld = total;
    for (const pid of pids) cpuByProcess.set(pid, Math.max(cpuByProcess.get(pid) ?? 0, cpuMs(pid)));
    const now = phase();
    if (total > (byPhase.get(now) ?? 0)) byPhase.set(now, total);
    if (total > peak) {
      peak = total;
      phaseAtPeak = `${now} (${pids.length} process${pids.length === 1 ? '' : 'es'})`;
    }
  };
  const sampleHeld = () => {
    if (pids.length === 1) return;
    const held = heldBytes(pids);
    if (held > peakHeld) peakHeld = held;
  };
  sample();
  sampleHeld();
  const timer = setInterval(sample, intervalMs);
  const heldTimer = setInterval(sampleHeld, heldIntervalMs);
  return {
    stop() {
      clearInterval(timer);
      clearInterval(heldTimer);
      return peak;
    },
    held: () => peakHeld,
    peakPhase: () => phaseAtPeak,
    peakByPhase: () => byPhase,
    cpuSeconds: () => [...cpuByProcess.values()].reduce((sum, ms) => sum + ms, 0) / 1000,
  };
}

/**
 * What processes hold together now: their anonymous resident memory summed, and each file's
 * resident pages once (the largest of any one process: the others' are mostly the same pages).
 */
export function heldBytes(pids: readonly number[]): number {
  let anonymous = 0;
  const files = new Map<string, number>();
  for (const pid of pids) {
    let smaps: string;
    try {
      smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
    } catch {
      continue; // The process ended between two reads.
    }
    const ofProcess = new Map<string, number>();
    let mapping = '';
    for (const line of smaps.split('\n')) {
      if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
        const path = line.split(/\s+/).slice(5).join(' ');
        mapping = path.startsWith('/') ? path : '';
      } else if (line.startsWith('Rss:')) {
        const bytes = Number(line.slice(4).trim().split(' ')[0]) * 1024;
        if (mapping) ofProcess.set(mapping, (ofProcess.get(mapping) ?? 0) + bytes);
        else anonymous += bytes;
      }
    }
    for (const [path, bytes] of ofProcess) files.set(path, Math.max(files.get(path) ?? 0, bytes));
  }
  let total = anonymous;
  for (const bytes of files.values()) total += bytes;
  return total;
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

/** The child processes of `pid` (of all its threads), from /proc; none where it cannot be read. */
export function childProcessIds(pid: number): number[] {
  const pids: number[] = [];
  try {
    for (const thread of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim();
      if (text) pids.push(...text.split(' ').map(Number));
    }
  } catch {
    // Not Linux, or the process is gone.
  }
  return pids;
}

/**
 * The CPU time a process has used so far (user + system, its own threads), in ms, from
 * /proc/{pid}/stat (clock ticks of 10 ms); 0 when it cannot be read. Unlike wall time, other
 * work on a shared machine barely changes it.
 */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is the 3rd, utime the 14th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}
