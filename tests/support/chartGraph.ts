import { createEmptyActor, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine, type AnyStateNode, type AnyTransitionDefinition, type InspectionEvent } from 'xstate';

/**
 * What a chart is made of, read from the machine definition itself (its state nodes and their
 * `on`, `after`, `always`, invoke onDone/onError and onDone transitions), and which of its
 * transitions a step of a generated path takes. Pure: imports xstate only, so both the model tests
 * (recording) and the report script (drawing, counting) use it and name transitions alike.
 */

/** The name of the root state node in transition keys and diagrams. */
export const ROOT = '(root)';

/** One transition of a chart: `key` is '<source> -> <event>', plus ' [<guard>]' (or ' [else]', ' #<n>') when the source has several for that event. */
export interface ChartTransition {
  key: string;
  /** Dotted path of the source state node ('ready.idle'), or ROOT. */
  source: string;
  /** The event as it reads in a key: the type, `always`, `after(<delay>)`, `done(<actor>)`, `error(<actor>)`. */
  event: string;
  /** Dotted paths of the target state nodes; empty for a transition that stays (no target). */
  targets: string[];
  /** The guard's name, when it has one. */
  guard?: string;
}

/** The dotted path of a state node ('ready.idle'), or ROOT for the machine's root. */
const pathOf = (node: AnyStateNode): string => node.path.join('.') || ROOT;

/** Every state node under the root, parents before children, depth first. */
function stateNodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  const walk = (node: AnyStateNode) => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      out.push(child);
      walk(child);
    }
  };
  walk(machine.root);
  return out;
}

/** The dotted paths of every state node of `machine` ('loading', 'ready', 'ready.idle', ...). */
export const stateKeysOf = (machine: AnyStateMachine): string[] => stateNodesOf(machine).map(pathOf);

/**
 * How an event type reads in a key: `always` for eventless transitions, `after(<delay>)` for
 * delayed ones (`xstate.after.<delay>.<state id>`), `done(<id>)` / `error(<id>)` for an invoked
 * actor's outcome; any other type as it is.
 */
export function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return `after(${after[1]})`;
  const actor = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (actor) return `${actor[1]}(${actor[2]})`;
  return eventType;
}

const guardName = (t: AnyTransitionDefinition): string | undefined => {
  const g = t.guard as unknown;
  if (typeof g === 'string') return g;
  if (g && typeof g === 'object' && 'type' in g && typeof g.type === 'string') return g.type;
  if (typeof g === 'function') return g.name || 'guard';
  return undefined;
};

/** The transition definitions of one state node, in the chart's order (`on`, done, invoke outcomes, `after`, then `always`). */
const definitionsOf = (node: AnyStateNode): AnyTransitionDefinition[][] => [...(node.transitions as Map<string, AnyTransitionDefinition[]>).values(), ...(node.always ? [node.always] : [])];

/** Tells apart the transitions of one source for one event: by guard ('[isOwner]', '[else]'), or by place ('#2') when guards repeat. */
function candidateSuffix(defs: AnyTransitionDefinition[], index: number): string {
  if (defs.length === 1) return '';
  const names = defs.map((d) => guardName(d) ?? 'else');
  return names.filter((n) => n === names[index]).length === 1 ? ` [${names[index]}]` : ` #${index + 1}`;
}

function describe(t: AnyTransitionDefinition, defs: AnyTransitionDefinition[]): ChartTransition {
  const source = pathOf(t.source);
  const event = eventLabel(t.eventType);
  const guard = guardName(t);
  return {
    key: `${source} -> ${event}${candidateSuffix(defs, defs.indexOf(t))}`,
    source,
    event,
    targets: (t.target ?? []).map((n: AnyStateNode) => pathOf(n)),
    ...(guard ? { guard } : {}),
  };
}

/** Every transition of `machine`, the root's first, then each state node's in `stateNodesOf` order. */
export function chartTransitions(machine: AnyStateMachine): ChartTransition[] {
  return [machine.root, ...stateNodesOf(machine)].flatMap((node) => definitionsOf(node).flatMap((defs) => defs.map((t) => describe(t, defs))));
}

/** The key of one transition definition, as `chartTransitions` names it. */
function keyOf(t: AnyTransitionDefinition): string | undefined {
  const defs = t.eventType === '' ? t.source.always : (t.source.transitions as Map<string, AnyTransitionDefinition[]>).get(t.eventType);
  return defs?.includes(t) ? describe(t, defs).key : undefined;
}

/**
 * An actor scope like the one @xstate/graph computes paths with, whose inspection receives the
 * microsteps, so the transitions a macrostep takes (the event's, then raised and eventless ones)
 * are seen as the chart selected them.
 */
function recordingScope(onTransitions: (ts: AnyTransitionDefinition[]) => void) {
  const empty = createEmptyActor();
  const system = Object.create(empty.system, {
    _sendInspectionEvent: {
      value: (e: InspectionEvent) => {
        if (e.type === '@xstate.microstep') onTransitions(e._transitions);
      },
    },
  }) as typeof empty.system;
  return { self: empty, logger: () => {}, id: '', sessionId: 'paths', defer: () => {}, system, stopChild: () => {}, emit: () => {}, actionExecutor: () => {} };
}

/**
 * The keys of the transitions `machine` takes when `event` arrives in `snapshot` (the event's own,
 * then raised and eventless ones), in order, without repeats. For the path's first step
 * (`xstate.init`) pass `snapshot` undefined: the eventless transitions taken on the way to the
 * initial state, from the chart's `input`. Transitions the chart builds outside its definition (the
 * start itself) are left out.
 */
export function transitionsTaken(machine: AnyStateMachine, snapshot: AnyMachineSnapshot | undefined, event: AnyEventObject, input?: unknown): string[] {
  const taken: AnyTransitionDefinition[] = [];
  const scope = recordingScope((ts) => taken.push(...ts));
  if (snapshot === undefined) machine.getInitialSnapshot(scope as never, input);
  else machine.transition(snapshot, event, scope as never);
  return [...new Set(taken.flatMap((t) => keyOf(t) ?? []))];
}

/** How far a state or transition is covered: taken by a passing step, left out with a written reason, or neither. */
export type CoverageMark = 'covered' | 'excused' | 'uncovered';

/** The marks a diagram is drawn with, keyed by state path and by transition key; a missing key reads 'uncovered'. */
export type CoverageMarks = ReadonlyMap<string, CoverageMark>;

const EDGE_STYLE: Record<CoverageMark, string> = {
  covered: 'color="#1a7f37", fontcolor="#1a7f37"',
  excused: 'color="#9a6700", fontcolor="#9a6700", style=dashed',
  uncovered: 'color="#cf222e", fontcolor="#cf222e", penwidth=2.2, style=bold',
};
const STATE_FILL: Record<CoverageMark, string> = { covered: '#dafbe1', excused: '#fff8c5', uncovered: '#ffebe9' };

/** A DOT string literal. */
const q = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** An event the tests offered in a state (its dotted path, or ROOT) that the chart did not take there. */
export interface RefusedEvent {
  source: string;
  event: string;
}

/**
 * The chart as a Graphviz DOT digraph: compound and parallel (dashed) state nodes as clusters, atomic
 * ones as boxes (finals with a double border), a dot arrow to each initial child, and one edge per
 * transition and target (a loop for one without target) labelled with its event and guard. Edges
 * and states are coloured by `marks`: covered green, excused amber and dashed, uncovered red and bold.
 * Each `refused` event is a red dotted edge from its state to a '✗', the transition the chart lacks.
 */
export function chartDot(machine: AnyStateMachine, marks: CoverageMarks, refused: readonly RefusedEvent[] = []): string {
  const mark = (key: string): CoverageMark => marks.get(key) ?? 'uncovered';
  const compound = (node: AnyStateNode) => Object.keys(node.states).length > 0;
  const lines: string[] = [
    'digraph chart {',
    '  compound=true; rankdir=LR; nodesep=0.3; ranksep=0.45; fontname="Helvetica"; fontsize=11;',
    '  node [shape=box, style="rounded,filled", fontname="Helvetica", fontsize=10, color="#57606a"];',
    '  edge [fontname="Helvetica", fontsize=9, arrowsize=0.7];',
  ];
  const draw = (node: AnyStateNode, indent: string) => {
    const path = pathOf(node);
    if (!compound(node)) {
      lines.push(`${indent}${q(path)} [label=${q(String(node.key))}, fillcolor=${q(STATE_FILL[mark(path)])}${node.type === 'final' ? ', peripheries=2' : ''}, tooltip=${q(path)}];`);
      return;
    }
    const label = node === machine.root ? machine.id : `${String(node.key)}${node.type === 'parallel' ? ' (parallel)' : ''}`;
    const fill = node === machine.root ? '#ffffff' : STATE_FILL[mark(path)];
    lines.push(`${indent}subgraph ${q(`cluster_${path}`)} {`);
    lines.push(`${indent}  label=${q(label)}; style="rounded,filled${node.type === 'parallel' ? ',dashed' : ''}"; fillcolor=${q(fill)}; color="#57606a";`);
    lines.push(`${indent}  ${q(path)} [shape=point, style=invis, width=0.01, label=""];`);
    if (node.type !== 'parallel' && node.initial?.target?.length) {
      const first = node.initial.target[0] as AnyStateNode;
      lines.push(`${indent}  ${q(`init:${path}`)} [shape=circle, style=filled, fillcolor="#24292f", width=0.1, label=""];`);
      lines.push(`${indent}  ${q(`init:${path}`)} -> ${q(pathOf(first))}${compound(first) ? ` [lhead=${q(`cluster_${pathOf(first)}`)}]` : ''};`);
    }
    for (const child of Object.values(node.states) as AnyStateNode[]) draw(child, `${indent}  `);
    lines.push(`${indent}}`);
  };
  draw(machine.root, '  ');
  const nodes = new Map([machine.root, ...stateNodesOf(machine)].map((n) => [pathOf(n), n]));
  const inside = (a: string, b: string) => b === ROOT || a === b || a.startsWith(`${b}.`);
  for (const t of chartTransitions(machine)) {
    for (const target of t.targets.length ? t.targets : [t.source]) {
      const attrs = [`label=${q(t.guard ? `${t.event} [${t.guard}]` : t.event)}`, `tooltip=${q(t.key)}`, EDGE_STYLE[mark(t.key)]];
      if (compound(nodes.get(target)!) && !inside(t.source, target)) attrs.push(`lhead=${q(`cluster_${target}`)}`);
      if (compound(nodes.get(t.source)!) && !inside(target, t.source)) attrs.push(`ltail=${q(`cluster_${t.source}`)}`);
      lines.push(`  ${q(t.source)} -> ${q(target)} [${attrs.join(', ')}];`);
    }
  }
  for (const r of refused) {
    const missing = `refused:${r.source}`;
    lines.push(`  ${q(missing)} [shape=plaintext, style="", label="✗", fontcolor="#cf222e", tooltip="offered, not taken"];`);
    lines.push(`  ${q(r.source)} -> ${q(missing)} [label=${q(`${r.event} (not taken)`)}, tooltip=${q(`${r.source} -> ${r.event}`)}, color="#cf222e", fontcolor="#cf222e", style=dotted, penwidth=2];`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** Whether an `uncovered` name excuses transition `t`: its key, or '<source> -> <event>' for every candidate of that event. */
export const excuses = (name: string, t: ChartTransition): boolean => name === t.key || name === `${t.source} -> ${t.event}`;
