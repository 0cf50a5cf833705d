import { chromium } from 'playwright-core';

/** A top-level task of the page's main thread, from a Chromium trace. */
interface Task {
  /** Start, ms after the navigation started. */
  at: number;
  /** Wall-clock duration (ms). */
  dur: number;
  /** Thread CPU time (ms): what the task cost without other processes' load. */
  cpu: number;
  /** The longest script or rendering events inside it, by name and script file. */
  what: string;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; frame?: string } };
}

const SLOWDOWN = 4;
/** A task's time over this much counts as blocking (Lighthouse's Total Blocking Time), in ms. */
const BLOCKING_MS = 50;

/**
 * The main-thread tasks of one page load, from a Chromium trace (playwright-core + CDP Tracing),
 * after the first contentful paint: what Lighthouse's Total Blocking Time adds up, each task's CPU
 * time multiplied by its 4x slowdown (bench/lighthouse.md).
 */
async function measure(url: string, waitMs: number): Promise<{ fcp: number; tasks: Task[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => void events.push(...(e.value as unknown as TraceEvent[])));
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel'].join(','),
      transferMode: 'ReportEvents',
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(waitMs);
    await cdp.send('Tracing.end');
    await done;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((n) => n.pid === e.pid && n.name === 'firstContentfulPaint'));
    if (!main) throw new Error('no renderer main thread with a first contentful paint in the trace');
    const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
    const nav = mine.find((e) => e.name === 'navigationStart')?.ts ?? Math.min(...mine.map((e) => e.ts));
    const fcp = mine.find((e) => e.name === 'firstContentfulPaint')!.ts;
    const runs = mine.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ts >= fcp && (e.dur ?? 0) > 1000);
    // Chromium writes a task under both names, one inside the other: the outermost counts.
    const tops = runs.filter((t) => !runs.some((o) => o !== t && o.ts <= t.ts && o.ts + (o.dur ?? 0) >= t.ts + (t.dur ?? 0) && (o.ts < t.ts || (o.dur ?? 0) > (t.dur ?? 0) || runs.indexOf(o) < runs.indexOf(t))));
    const tasks = tops.map((t): Task => {
      const end = t.ts + (t.dur ?? 0);
      const inner = mine
        .filter((e) => e.ph === 'X' && e !== t && e.ts >= t.ts && e.ts < end && ['EvaluateScript', 'v8.compileModule', 'v8.evaluateModule', 'FunctionCall', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'Paint', 'ParseHTML', 'XHRReadyStateChange', 'RunMicrotasks', 'V8.GCScavenger', 'MajorGC', 'MinorGC'].includes(e.name))
        .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
        .slice(0, 3)
        .map((e) => {
          const src = e.args?.data?.url?.replace(/^.*\//, '') ?? e.args?.data?.functionName ?? '';
          return `${e.name}${src ? ` ${src}` : ''} ${((e.dur ?? 0) / 1000).toFixed(1)}`;
        });
      return { at: (t.ts - nav) / 1000, dur: (t.dur ?? 0) / 1000, cpu: (t.tdur ?? t.dur ?? 0) / 1000, what: inner.join(', ') };
    });
    return { fcp: (fcp - nav) / 1000, tasks };
  } finally {
    await browser.close();
  }
}

/**
 * `node --import tsx bench/longTasks.ts URL [runs] [minMs]`: for each run, the page's tasks after
 * the first contentful paint whose CPU or wall-clock time x4 passes `minMs` (default 20), and the
 * blocking time they add up to at 4x (sum of max(0, 4 x time - 50 ms)), from their CPU times (the
 * page's own cost) and from their wall-clock times (what Lighthouse multiplies, other processes'
 * load included). Unthrottled, as Lighthouse observes a page before it simulates a slow phone.
 */
async function main(): Promise<void> {
  const [url, runsArg, minArg] = process.argv.slice(2);
  if (!url) throw new Error('usage: bench/longTasks.ts URL [runs] [minMs]');
  const runs = Number(runsArg ?? 1);
  const min = Number(minArg ?? 20);
  for (let i = 0; i < runs; i++) {
    const { fcp, tasks } = await measure(url, 4000);
    const blocking = (ms: (t: Task) => number) => tasks.reduce((s, t) => s + Math.max(0, ms(t) * SLOWDOWN - BLOCKING_MS), 0).toFixed(0);
    const longest = (ms: (t: Task) => number) => Math.max(0, ...tasks.map((t) => ms(t) * SLOWDOWN)).toFixed(0);
    console.log(
      `run ${i + 1}: FCP ${fcp.toFixed(0)} ms, blocking x${SLOWDOWN} ${blocking((t) => t.cpu)} ms CPU / ${blocking((t) => t.dur)} ms wall, longest x${SLOWDOWN} ${longest((t) => t.cpu)} ms CPU / ${longest((t) => t.dur)} ms wall`,
    );
    for (const t of tasks.filter((t) => Math.max(t.cpu, t.dur) * SLOWDOWN >= min)) {
      console.log(`  @${t.at.toFixed(0).padStart(5)}  cpu x${SLOWDOWN} ${(t.cpu * SLOWDOWN).toFixed(0).padStart(4)}  (wall ${t.dur.toFixed(1)})  ${t.what}`);
    }
  }
}

void main();
