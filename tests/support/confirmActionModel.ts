import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { TestModel, getShortestPaths, type TestPath } from './graph';
import type { FakeEffects } from './effects';
import { confirmActionMachine, type ConfirmActionEvent as TypedConfirmEvent } from '../../machines/confirmAction.machine';

/**
 * The shared harness of the model-based tests of the confirmAction chart (product-spec section 4
 * "Modal flows": confirm, processing, result message, close) through a rendered screen: the event
 * offer per state, the state serialization that keeps every close/cancel edge, the path generation,
 * the state nodes, and the assertions and executors that are the same for every modal. What a
 * screen does differently (fields, triggers, the closed screen, the fake server) stays in its test
 * and comes in through a `ConfirmModelUse`.
 */

/** A snapshot of the confirmAction chart. */
export type ConfirmSnap = SnapshotFrom<typeof confirmActionMachine>;
/** The chart's events with the untyped draft and subject the harness drives every use with. */
type ConfirmActionEvent = TypedConfirmEvent<Record<string, unknown>, Record<string, unknown>>;
type Done = { type: 'xstate.done.actor.performAction'; output: { message: string } };
type Failed = { type: 'xstate.error.actor.performAction'; error: Error };
/** The chart's events plus the synthetic done/error steps of its `performAction` actor. */
export type ConfirmModelEvent = ConfirmActionEvent | Done | Failed;
/** A generated path through the chart. */
export type ConfirmPath = TestPath<ConfirmSnap, ConfirmModelEvent>;
/** Causes one step's event through the rendered screen. */
export type ConfirmExecutor = (step: { event: ConfirmModelEvent; state: ConfirmSnap }) => Promise<void>;

/** The state nodes of the chart; every one must be reached and asserted. */
const STATE_NODES = ['closed', 'confirming', 'processing', 'succeeded', 'failed'] as const;
export type ConfirmStateNode = (typeof STATE_NODES)[number];

/** What every model test's world holds: the fake effects, the user-event session and a load count. */
export interface ConfirmWorld {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  loads: () => number;
}

/** One use of the chart, as far as path generation needs it. */
export interface ConfirmModelUse {
  /** The use's form rule: the `isDraftValid` guard and the validation error (as useConfirmAction provides it). */
  validate?: (draft: Record<string, unknown>) => string | null;
  /** The `confirm.open` the trigger sends. */
  open: Extract<ConfirmActionEvent, { type: 'confirm.open' }>;
  /** The `confirm.change` events a person can cause while confirming (see `fieldChanges`). */
  changes: (s: ConfirmSnap) => ConfirmModelEvent[];
  /** Whether `confirm.submit` is offered while confirming (the button is enabled). */
  canSubmit: (s: ConfirmSnap) => boolean;
  /** The success message for the draft being submitted. */
  doneMessage: (draft: Record<string, unknown>) => string;
  failureMessage: string;
}

/**
 * A use's form rule (typed by its own draft) as the harness calls it: the harness drives the chart
 * with untyped drafts that hold that use's fields.
 */
export const untypedRule = <TDraft extends object>(rule: (draft: TDraft) => string | null) => rule as (draft: Record<string, unknown>) => string | null;

/** The chart as a use runs it: the use's validation is the `isDraftValid` guard (as useConfirmAction provides it). */
function chartOf(use: Pick<ConfirmModelUse, 'validate'>) {
  return confirmActionMachine.provide({
    guards: { isDraftValid: ({ context }) => !use.validate || use.validate(context.draft) === null },
    actions: { assignValidationError: assign(({ context }) => ({ error: use.validate?.(context.draft) ?? null })) },
  });
}

/**
 * The `confirm.change` events for the values a person types in each field (every value that is not
 * the field's current one). With `filledInOrder`, fields are filled top to bottom: a field is
 * offered once the fields above it are filled.
 */
export function fieldChanges(s: ConfirmSnap, fields: Record<string, string[]>, filledInOrder = false): ConfirmModelEvent[] {
  const changes: ConfirmModelEvent[] = [];
  for (const [field, values] of Object.entries(fields)) {
    const now = String(s.context.draft[field] ?? '');
    for (const value of values) if (value !== now) changes.push({ type: 'confirm.change', field, value });
    if (filledInOrder && !now) break;
  }
  return changes;
}

/** Events a person (or the fake server) can cause in a state of this use. */
function eventsFor(use: ConfirmModelUse) {
  return (s: ConfirmSnap): ConfirmModelEvent[] => {
    if (s.matches('closed')) return [use.open];
    if (s.matches('confirming')) {
      return [...use.changes(s), ...(use.canSubmit(s) ? [{ type: 'confirm.submit' } as const] : []), { type: 'confirm.cancel' }];
    }
    if (s.matches('processing')) {
      return [
        { type: 'xstate.done.actor.performAction', output: { message: use.doneMessage(s.context.draft) } },
        { type: 'xstate.error.actor.performAction', error: new Error(use.failureMessage) },
      ];
    }
    if (s.matches('succeeded')) return [{ type: 'confirm.close' }, { type: 'confirm.cancel' }];
    return [{ type: 'confirm.retry' }, { type: 'confirm.close' }, { type: 'confirm.cancel' }];
  };
}

/**
 * States are told apart by value, draft and error (everything the assertions read); a return to
 * `closed` also keeps the edge it came by, so every close and cancel edge gets its own path.
 */
function serializeState(s: ConfirmSnap, event: ConfirmModelEvent | undefined, prev: ConfirmSnap | undefined): string {
  const base = JSON.stringify([s.value, s.context.draft, s.context.error]);
  return s.matches('closed') && event && prev ? `${base} via ${event.type} from ${JSON.stringify(prev.value)}` : base;
}

/** The shortest paths to every distinct state of this use (@xstate/graph TestModel + getShortestPaths). */
export function pathsOf(use: ConfirmModelUse): ConfirmPath[] {
  const machine = chartOf(use);
  const model = new TestModel(machine, { stateMatcher: (s: ConfirmSnap, key: string) => s.matches(key as ConfirmStateNode) });
  return model.getPaths(
    () => getShortestPaths(machine, { events: eventsFor(use) as never, serializeState: serializeState as never }) as never,
    { allowDuplicatePaths: false },
  ) as unknown as ConfirmPath[];
}

/** Guard: the chart's state nodes are exactly STATE_NODES. */
export function expectChartStateNodes(): void {
  expect(Object.keys(confirmActionMachine.states).sort()).toEqual([...STATE_NODES].sort());
}

/** Guard: some step of a use's paths is in every state node, and its assertion table has an entry for every node. */
export function expectStateNodesCovered(useName: string, paths: ConfirmPath[], assertionTable: Record<string, unknown>): void {
  const reached = new Set<string>();
  for (const p of paths) for (const st of p.steps) for (const key of STATE_NODES) if (st.state.matches(key)) reached.add(key);
  expect([...reached].sort(), useName).toEqual([...STATE_NODES].sort());
  expect(Object.keys(assertionTable).sort()).toEqual([...STATE_NODES].sort());
}

/** The test name of a path: its events after the initial one, a change written by `change`. */
export function pathName(path: ConfirmPath, change: (event: Extract<ConfirmModelEvent, { type: 'confirm.change' }>) => string): string {
  return path.steps
    .slice(1)
    .map(({ event }) => (event.type === 'confirm.change' ? change(event) : event.type.replace('xstate.', '').replace('.actor.performAction', '')))
    .join(' → ');
}

/** Walks a path: causes each step's event (but the initial one), then asserts the state node it is in. */
export async function walkPath(
  path: ConfirmPath,
  exec: Record<string, ConfirmExecutor>,
  check: Record<ConfirmStateNode, (s: ConfirmSnap) => Promise<void>>,
): Promise<void> {
  for (const step of path.steps) {
    if ((step.event.type as string) !== 'xstate.init') await exec[step.event.type](step);
    const key = STATE_NODES.find((k) => step.state.matches(k))!;
    await check[key](step.state);
  }
}

/** The open modal. */
export const dialog = () => screen.getByRole('dialog');

/** The `processing` assertion: the use's processing text, its confirm button and Cancel disabled. */
export async function expectProcessing(use: { processingText: string; confirmLabel: string }): Promise<void> {
  const d = dialog();
  within(d).getByText(use.processingText);
  expect(within(d).getByRole('button', { name: use.confirmLabel }).hasAttribute('disabled')).toBe(true);
  expect(within(d).getByRole('button', { name: 'Cancel' }).hasAttribute('disabled')).toBe(true);
}

/**
 * The start of the `succeeded` assertion: the result message as a status, a Close button and, with
 * `retryHidden`, no Retry button.
 */
export async function expectSucceededDialog(s: ConfirmSnap, { retryHidden }: { retryHidden: boolean }): Promise<void> {
  const d = await screen.findByRole('dialog');
  await waitFor(() => expect(within(d).getByRole('status').textContent).toBe(s.context.result));
  within(d).getByRole('button', { name: 'Close' });
  if (retryHidden) expect(within(d).queryByRole('button', { name: 'Retry' })).toBeNull();
}

/** The `failed` assertion: the error as an alert, Retry and Close, and nothing loaded again. */
export async function expectFailed(s: ConfirmSnap, w: Pick<ConfirmWorld, 'loads'>): Promise<void> {
  const d = await screen.findByRole('dialog');
  await waitFor(() => expect(within(d).getByRole('alert').textContent).toBe(s.context.error));
  within(d).getByRole('button', { name: 'Retry' });
  within(d).getByRole('button', { name: 'Close' });
  expect(w.loads()).toBe(1);
}

/** Types `value` into a text input the way a person replaces its text: clear it, then click and paste (nothing for ''). */
export async function replaceText(w: Pick<ConfirmWorld, 'user'>, input: HTMLElement, value: unknown): Promise<void> {
  await w.user.clear(input);
  if (value) {
    await w.user.click(input);
    await w.user.paste(String(value));
  }
}

/** The executors that are the same for every use: open through the use's trigger, cancel, retry, close. */
export function commonExecutors(w: Pick<ConfirmWorld, 'user'>, trigger: () => Promise<void>) {
  return {
    'confirm.open': async () => trigger(),
    // Cancel is the button while confirming, Esc on the result step (which has no Cancel button).
    'confirm.cancel': async () => {
      const cancel = within(dialog()).queryByRole('button', { name: 'Cancel' });
      if (cancel) await w.user.click(cancel);
      else await w.user.keyboard('{Escape}');
    },
    'confirm.retry': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Retry' })),
    'confirm.close': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Close' })),
  } satisfies Partial<Record<ConfirmModelEvent['type'], ConfirmExecutor>>;
}
