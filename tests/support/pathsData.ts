import fs from 'node:fs';
import path from 'node:path';

/**
 * The record one `modelTests` call leaves for the path report when PATHS_REPORT names a folder:
 * its generated paths, the state nodes and transitions each step took, and how each path ended.
 * Written by the model test's worker, read by the report script.
 */

/** The environment variable naming the folder the records go to; unset (the default), nothing is recorded. */
export const PATHS_REPORT_ENV = 'PATHS_REPORT';

/** One step of a generated path as run. */
export interface StepRecord {
  /** The event as it reads (`chartGraph.eventLabel`, or the model's `label`). */
  event: string;
  /** Every state node the step's state is in, parents included ('ready', 'ready.idle'). */
  reached: string[];
  /** Keys of the transitions the step took (`chartGraph.chartTransitions` keys). */
  transitions: string[];
  /** Events the model offers in the step's state that the chart does not take there and the model does not ignore (a deleted transition shows here). */
  refused?: string[];
}

/** One generated path and how its test ended. */
export interface PathRecord {
  title: string;
  /** The chart input the path starts from, as JSON, when the model has several. */
  input?: string;
  status: 'passed' | 'failed';
  steps: StepRecord[];
  /** For a failed path: the step index that failed, what it was doing, the error, and the page's text then. */
  failure?: { step: number; during: string; error: string; screen: string };
  /** Wall time of the path's test in milliseconds. */
  ms: number;
}

/** What one `modelTests` call recorded. */
export interface ChartRun {
  /** The model's name ('loadingPause (without a state)'). */
  name: string;
  /** The machine's id: the chart it covers. */
  chart: string;
  /** The test file, relative to the repository. */
  file: string;
  /** States ('ready.idle') and transitions ('ready -> list.reload', any candidate) left uncovered on purpose, with why. */
  uncovered: Record<string, string>;
  /** The guard test's outcome. */
  guard: { status: 'passed' | 'failed'; error?: string };
  paths: PathRecord[];
}

/** A file-name-safe form of `text`. */
const slug = (text: string) => text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** Writes `run` as JSON into folder `dir` (created if missing) under a name from its file and model name; returns the file's path. */
export function writeChartRun(dir: string, run: ChartRun): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${slug(path.basename(run.file))}--${slug(run.name)}.json`);
  fs.writeFileSync(file, JSON.stringify(run, null, 1));
  return file;
}

/** Every record in folder `dir` (none when it is missing), in file-name order. Throws on a file that is not JSON. */
export function readChartRuns(dir: string): ChartRun[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as ChartRun);
}
