import { act, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { assign, type SnapshotFrom } from 'xstate';
import { modelTests, shortestPaths, type ModelExecutor } from './chartModel';
import type { TestPath } from './graph';
import type { FakeEffects } from './effects';
import { confirmActionMachine, type ConfirmActionEvent as TypedConfirmEvent } from '../../machines/confirmAction.machine';
import { ApiRequestError } from '../../src/api/client';

/**
 * The shared harness of the model-based tests of the confirmAction chart (docs/flows.md
 * §3: confirm, processing, result message, close) through a rendered screen: the event
 * offer per state, the state serialization that keeps every close/cancel edge, the path generation,
 * the state nodes, and the assertions and executors that are the same for every modal. What a
 * screen does differently (fields, triggers, the closed screen, the fake server) stays in its test
 * and comes in through a `ConfirmModelUse`.
 */

/** A snapshot of the confirmAction chart. */
export type ConfirmSnap = SnapshotFrom<typeof confirmActionMachine>;
/** The chart's events with the untyped draft and subject the harness drives every use with. */
type ConfirmActionEvent = TypedConfirmEvent<Record<string, unknown>, Record<string, unknown>>;
type Done = { type: 'xstate.done.actor.performAction'; output: { message: string; partial?: boolean } };
type Failed = { type: 'xstate.error.actor.performAction'; error: Error };
/** The chart's events plus the synthetic done/error steps of its `performAction` actor. */
export type ConfirmModelEvent = ConfirmActionEvent | Done | Failed;
/** A generated path through the chart. */
export type ConfirmPath = TestPath<ConfirmSnap, ConfirmModelEvent>;
/** Causes one step's event through the rendered screen. */
export type ConfirmExecutor = (step: { event: ConfirmModelEvent; state: ConfirmSnap }) => Promise<void>;

/** The state nodes of the chart; every one must be reached and asserted (the harness checks both). */
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
  /** The success is partial (ActionResult.partial): it stays in the modal instead of the fading banner. */
  partial?: boolean;
  failureMessage: string;
  /**
   * The page keeps the trigger after a full success, so `confirm.open` is offered beside the banner
   * (a rename or a link can be made again; a deleted row's button is gone).
   */
  reopens?: boolean;
  /** A full success leaves the screen (a deleted account signs out to /): nothing more is offered after it. */
  leaves?: boolean;
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
        { type: 'xstate.done.actor.performAction', output: { message: use.doneMessage(s.context.draft), partial: use.partial ?? false } },
        { type: 'xstate.error.actor.performAction', error: new Error(use.failureMessage) },
      ];
    }
    // A full success is a banner (its dismiss button is confirm.close) beside the page, whose button
    // opens the modal again (confirm.open); a partial one stays in the modal.
    if (s.matches('succeeded') && use.leaves && !s.context.partial) return [];
    if (s.matches('succeeded')) return s.context.partial ? [{ type: 'confirm.close' }, { type: 'confirm.cancel' }] : [{ type: 'confirm.close' }, ...(use.reopens ? [use.open] : [])];
    return [{ type: 'confirm.retry' }, { type: 'confirm.close' }, { type: 'confirm.cancel' }];
  };
}

/**
 * States are told apart by value, draft and error (everything the assertions read); a return to
 * `closed`, and a modal opened again from a success's banner, also keep the edge they came by, so
 * every close, cancel and reopen edge gets its own path.
 */
function serializeState(s: ConfirmSnap, event: ConfirmModelEvent | undefined, prev: ConfirmSnap | undefined): string {
  const base = JSON.stringify([s.value, s.context.draft, s.context.error]);
  const reopened = s.matches('confirming') && prev?.matches('succeeded');
  return (s.matches('closed') || reopened) && event && prev ? `${base} via ${event.type} from ${JSON.stringify(prev.value)}` : base;
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

/** The fading banner of a full success (ConfirmDialog's ResultBanner). */
const resultBanner = () => screen.queryByTestId('action-result');

/**
 * The start of the `succeeded` assertion: a full success closes the modal and shows the message
 * in the fading banner; a partial one shows it in the modal as a status, with a Close button and,
 * with `retryHidden`, no Retry button.
 */
async function expectSucceededDialog(s: ConfirmSnap, { retryHidden }: { retryHidden: boolean }): Promise<void> {
  if (!s.context.partial) {
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(resultBanner() && within(resultBanner()!).getByRole('status').textContent).toBe(s.context.result));
    expect(resultBanner()?.dataset.tone).toBe('success');
    return;
  }
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
function commonExecutors(w: Pick<ConfirmWorld, 'user'>, trigger: () => Promise<void>) {
  return {
    'confirm.open': async () => trigger(),
    // Cancel is the button while confirming, Esc on the result step (which has no Cancel button).
    'confirm.cancel': async () => {
      const cancel = within(dialog()).queryByRole('button', { name: 'Cancel' });
      if (cancel) await w.user.click(cancel);
      else await w.user.keyboard('{Escape}');
    },
    'confirm.retry': async () => w.user.click(within(dialog()).getByRole('button', { name: 'Retry' })),
    // Close in the modal; on a full success's banner, its dismiss button.
    'confirm.close': async () => {
      const open = screen.queryByRole('dialog');
      if (open) await w.user.click(within(open).getByRole('button', { name: 'Close' }));
      else await w.user.click(within(resultBanner()!).getByRole('button', { name: 'Dismiss message' }));
    },
  } satisfies Partial<Record<ConfirmModelEvent['type'], ConfirmExecutor>>;
}

/**
 * One modal of a screen, as every confirmAction model test names it: its texts, the form rule, the
 * `confirm.open` its trigger sends, the fake server's success (message and how it is settled for the
 * draft) and failure, and the calls expected once it succeeded.
 */
export interface ModalUse<W extends ConfirmWorld> {
  name: string;
  title: string;
  confirmLabel: string;
  processingText: string;
  validate?: (draft: Record<string, unknown>) => string | null;
  open: ConfirmModelUse['open'];
  trigger: (w: W) => Promise<void>;
  /** The fake server's success; `partial` when it leaves part undone (the result stays in the modal). */
  done: { message: (draft: Record<string, unknown>) => string; settle: (w: W, draft: Record<string, unknown>) => Promise<void>; partial?: boolean };
  failure: { message: string; settle: (w: W) => Promise<void> };
  calls: (w: W, draft: Record<string, unknown>) => void;
}

/** The texts of a modal: the use's name (for test names), its title, confirm button and processing text. */
export const modalTexts = (name: string, title: string, confirmLabel: string, processingText: string) => ({ name, title, confirmLabel, processingText });

/** The form rules a model's paths go through (null: the form is valid), for the spec-text guards. */
export function rulesReached(all: { use: Pick<ModalUse<ConfirmWorld>, 'validate'>; paths: ConfirmPath[] }[]): Set<string | null> {
  return new Set(all.flatMap(({ use, paths }) => paths.flatMap((p) => p.steps.map((st) => use.validate?.(st.state.context.draft) ?? null))));
}

/** A failure the fake server answers to call `name`: `message` with HTTP `status`. */
export function failing(name: string, message: string, status = 403): ModalUse<ConfirmWorld>['failure'] {
  return { message, settle: (w) => act(() => w.fx.reject(name, new ApiRequestError(message, status))) };
}

/** A success the fake server answers to call `name` with `value`, the result message being `message`. */
export function answering(name: string, message: string, value?: unknown): ModalUse<ConfirmWorld>['done'] {
  return { message: () => message, settle: (w) => act(() => w.fx.resolve(name, value)) };
}

/** The executors of a modal: open, cancel, retry, close; the use's `confirm.change`; submit by its button; the fake server's answers. */
export function modalExecutors<W extends ConfirmWorld>(use: ModalUse<W>, w: W, change: ConfirmExecutor) {
  return {
    ...commonExecutors(w, () => use.trigger(w)),
    'confirm.change': change,
    'confirm.submit': async () => {
      const button = within(dialog()).getByRole('button', { name: use.confirmLabel });
      expect(button.hasAttribute('disabled')).toBe(false);
      await w.user.click(button);
    },
    'xstate.done.actor.performAction': async ({ state }) => use.done.settle(w, state.context.draft),
    'xstate.error.actor.performAction': async () => use.failure.settle(w),
  } satisfies Record<ConfirmModelEvent['type'], ConfirmExecutor>;
}

/** `closed`: no dialog, and the table's row headers name what the fake server holds (reloaded after a success). */
export async function expectClosedRows(names: () => string[]): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() => expect(screen.queryAllByRole('rowheader').map((th) => th.textContent)).toEqual(names()));
}

/** The alerts of a confirming modal: the form rule's text, then the chart's error. */
/**
 * The form rule's message as a form with touched-only messages shows it (src/ui/useTouched.ts):
 * only once a field was touched. The model's paths touch a field only by changing it to a new
 * value, so a touched form is one whose draft differs from the one the modal opened with.
 */
export function touchedRule(rule: string | null, s: ConfirmSnap, open: ConfirmModelUse['open']): string | null {
  return JSON.stringify(s.context.draft) === JSON.stringify(open.draft) ? null : rule;
}

export function expectAlerts(d: HTMLElement, rule: string | null, s: ConfirmSnap): void {
  expect(within(d).queryAllByRole('alert').map((a) => a.textContent)).toEqual([rule, s.context.error].filter(Boolean));
}

/** `succeeded`: the result message, the calls made, and the screen's data loaded again. */
export async function expectSucceeded<W extends ConfirmWorld>(use: ModalUse<W>, w: W, s: ConfirmSnap, retryHidden: boolean): Promise<void> {
  await expectSucceededDialog(s, { retryHidden });
  use.calls(w, s.context.draft);
  await waitFor(() => expect(w.loads()).toBe(2));
}

/**
 * The suite of a screen's modals: for every modal, the chart as that modal runs it handed to the
 * one harness (`modelTests`: its guards, then one test per path on a freshly rendered screen); and
 * the screen's own guard over every modal's paths.
 */
export function modalSuite<W extends ConfirmWorld, U extends ModalUse<W>>(
  title: string,
  uses: U[],
  parts: {
    model: (use: U) => ConfirmModelUse;
    assertions: (use: U, w: W) => Record<ConfirmStateNode, (s: ConfirmSnap) => Promise<void>>;
    executors: (use: U, w: W) => Record<ConfirmModelEvent['type'], ConfirmExecutor>;
    render: () => Promise<W>;
    /** A world for the guard (nothing rendered). */
    idle: () => W;
    /** How a field change reads in a test name (default: field=value). */
    change?: (event: Extract<ConfirmModelEvent, { type: 'confirm.change' }>) => string;
    guard: { name: string; check: (all: { use: U; paths: ConfirmPath[] }[]) => void };
  },
): void {
  describe(title, () => {
    const all = uses.map((use) => {
      const model = { partial: use.done.partial ?? false, ...parts.model(use) };
      return { use, model, paths: shortestPaths<ConfirmSnap, ConfirmModelEvent>(chartOf(model), eventsFor(model), serializeState) };
    });
    it(parts.guard.name, () => parts.guard.check(all.map(({ use, paths }) => ({ use, paths }))));

    for (const { use, model, paths } of all) {
      // The harness's tables are per world: each entry reads the modal's table for the world it is given.
      const types = Object.keys(parts.executors(use, parts.idle())) as ConfirmModelEvent['type'][];
      const executors = Object.fromEntries(
        types.map((type): [string, ModelExecutor<W, ConfirmSnap, ConfirmModelEvent>] => [type, (w, step) => parts.executors(use, w)[type](step)]),
      ) as Record<ConfirmModelEvent['type'], ModelExecutor<W, ConfirmSnap, ConfirmModelEvent>>;
      const assertions = Object.fromEntries(STATE_NODES.map((node) => [node, (s: ConfirmSnap, w: W) => parts.assertions(use, w)[node](s)]));
      const change = parts.change ?? ((e) => `${e.field}=${JSON.stringify(e.value)}`);
      modelTests<ConfirmSnap, ConfirmModelEvent, W>({
        name: `confirmAction (${use.name})`,
        machine: chartOf(model),
        events: eventsFor(model),
        serialize: serializeState,
        dropPrefixPaths: true,
        // A modal without a field (a delete, a leave) offers no change anywhere.
        notDriven: paths.some((p) => p.steps.some((st) => eventsFor(model)(st.state).some((e) => e.type === 'confirm.change'))) ? [] : ['confirm.change'],
        executors,
        assertions,
        render: () => parts.render(),
        label: (e) => (e.type === 'confirm.change' ? change(e) : e.type.replace('xstate.', '').replace('.actor.performAction', '')),
      });
    }
  });
}
