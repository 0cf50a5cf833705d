import { useActorRef } from '@xstate/react';
import { useLayoutEffect, useRef, useState } from 'react';
import { assign, fromPromise, type ActorRefFrom } from 'xstate';
import { confirmActionChart, type ActionResult, type ConfirmPayload, type PerformInput } from '../../machines/confirmAction.machine';

/** A confirmAction actor as components hold it, typed by its use's draft and subject. */
export type ConfirmActionRef<TDraft extends object, TSubject extends object> = ActorRefFrom<ReturnType<typeof confirmActionChart<TDraft, TSubject>>>;

/** No form values, or nothing to act on. */
export type Nothing = Record<never, never>;

/** The effects one modal use gives the confirmAction chart. */
export interface ConfirmEffects<TDraft extends object, TSubject extends object> {
  /** The draft and subject while the modal is closed (the form's empty values). */
  closed: ConfirmPayload<TDraft, TSubject>;
  /** The call; resolves with the success message, rejects with an Error whose message is shown. */
  perform: (input: PerformInput<TDraft, TSubject>) => Promise<ActionResult>;
  /** Form rule: an error text, or null when the draft may be submitted. */
  validate?: (draft: TDraft) => string | null;
  /** Called once on success (refresh data, navigate ...). */
  onSucceeded?: (input: PerformInput<TDraft, TSubject> & { result: string | null }) => void;
}

/**
 * A confirmAction actor with one use's effects provided (docs/architecture.md: flow actors come from
 * `useActorRef(machine.provide(...))`). The provided implementations read the effects of the
 * latest render, so they never act on a stale closure.
 */
export function useConfirmAction<TDraft extends object, TSubject extends object>(effects: ConfirmEffects<TDraft, TSubject>): ConfirmActionRef<TDraft, TSubject> {
  const latest = useRef(effects);
  useLayoutEffect(() => {
    latest.current = effects;
  });
  const [chart] = useState(() => confirmActionChart(effects.closed));
  return useActorRef(
    chart.provide({
      actors: { performAction: fromPromise(({ input }) => latest.current.perform(input)) },
      guards: { isDraftValid: ({ context }) => !latest.current.validate || latest.current.validate(context.draft) === null },
      actions: {
        assignValidationError: assign(({ context }) => ({ error: latest.current.validate?.(context.draft) ?? null })),
        notifySucceeded: ({ context }) => latest.current.onSucceeded?.({ draft: context.draft, subject: context.subject, result: context.result }),
      },
    }),
  );
}
