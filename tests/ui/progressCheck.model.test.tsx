// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { CHECK_WAIT_S, WOM_CHECK_MESSAGES } from '../../contract/womCheck';
import { progressCheckMachine, type ProgressCheckEvent, type ProgressCheckOutcome } from '../../machines/progressCheck.machine';
import { ProgressCheck } from '../../src/features/play/ProgressCheck';
import { PROGRESS_CHECK_TEXTS as T } from '../../src/features/play/progressCheckTexts';
import { logTime } from '../../src/base/timeFormat';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of 'Check now' on a team's Wise Old Man total, the progressCheck chart
 * (docs/client.md §9; docs/server.md §17), through the rendered control: the button focused and
 * pressed, the ask accepted (202, its wait counted down second by second on fake
 * time) or refused as too soon (429 with the server's text and its Retry-After) or failing with the
 * server's text; every state asserted on the screen.
 */

type Snap = SnapshotFrom<typeof progressCheckMachine>;
type Done = { type: 'xstate.done.actor.0.progressCheck.asking'; output: ProgressCheckOutcome };
type Failed = { type: 'xstate.error.actor.0.progressCheck.asking'; error: Error };
type Event =
  | ProgressCheckEvent
  | Done
  | Failed
  | { type: 'xstate.after.second.progressCheck.waiting' };

const TEAM = 12;
const CHECKED_AT = '2026-05-01T10:05:00.000Z';
// The fake server's waits are short so every second of them is a step of the paths; the real 202 gives CHECK_WAIT_S.
const ACCEPTED: ProgressCheckOutcome = { waitS: 2, refusal: null };
const TOO_SOON: ProgressCheckOutcome = { waitS: 1, refusal: WOM_CHECK_MESSAGES.tooSoon(CHECK_WAIT_S - 1, 1) };

interface World {
  /** The control's asks, `checkProgress(teamId)`, each answered by the path's step. */
  fx: FakeEffects;
}

function events(s: Snap): Event[] {
  if (s.matches('idle')) return [{ type: 'progress.check' }];
  if (s.matches('asking'))
    return [
      { type: 'xstate.done.actor.0.progressCheck.asking', output: ACCEPTED },
      { type: 'xstate.done.actor.0.progressCheck.asking', output: TOO_SOON },
      { type: 'xstate.error.actor.0.progressCheck.asking', error: new Error(WOM_CHECK_MESSAGES.notOnTeam) },
    ];
  return [{ type: 'xstate.after.second.progressCheck.waiting' }];
}

const button = () => screen.getByTestId('progress-check-button') as HTMLButtonElement;

/** What every state shows: the last check's time, and the failure's text exactly when the chart holds one. */
function common(s: Snap): void {
  const at = screen.getByTestId('progress-checked-at');
  expect(at.textContent).toBe(`${T.lastChecked} ${logTime(CHECKED_AT)}`);
  expect(at.querySelector('time')?.getAttribute('datetime')).toBe(CHECKED_AT);
  if (s.context.error) expect(screen.getByTestId('progress-check-error').textContent).toBe(s.context.error);
  else expect(screen.queryByTestId('progress-check-error')).toBeNull();
}

/** Answers the ask the chart just made, for the team, as the path's step says. */
function answerAsk(w: World, step: Done | Failed): Promise<void> {
  expect(w.fx.waitingCall('checkProgress')).toEqual([TEAM]);
  return w.fx.settle('checkProgress', step);
}

modelTests<Snap, Event, World>({
  name: 'progressCheck',
  machine: progressCheckMachine,
  events,
  inputs: [{ teamId: TEAM }],
  fakeTimers: 'manual',
  executors: {
    // A native button takes focus (so Tab reaches it and Enter or Space presses it); fireEvent, as user-event waits on the faked setTimeout.
    'progress.check': async () => {
      act(() => button().focus());
      expect(document.activeElement).toBe(button());
      act(() => void fireEvent.click(button()));
    },
    'xstate.done.actor.0.progressCheck.asking': (w, { event }) => act(() => answerAsk(w, event as Done)),
    'xstate.error.actor.0.progressCheck.asking': (w, { event }) => act(() => answerAsk(w, event as Failed)),
    'xstate.after.second.progressCheck.waiting': async () => act(async () => void (await vi.advanceTimersByTimeAsync(1000))),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    idle: (s) => {
      expect(button().textContent).toBe(T.check);
      expect(button().disabled).toBe(false);
      expect(screen.getByTestId('progress-check-note').textContent).toBe('');
      common(s);
    },
    asking: (s) => {
      expect(button().textContent).toBe(T.asking);
      expect(button().disabled).toBe(true);
      expect(screen.getByTestId('progress-check-note').textContent).toBe('');
      common(s);
    },
    waiting: (s) => {
      // The seconds left on the disabled button ('Check again in 0:02'), and the server's refusal or the accepted note.
      expect(button().textContent).toBe(T.waiting(s.context.waitLeft));
      expect(button().disabled).toBe(true);
      expect(screen.getByTestId('progress-check-note').textContent).toBe(s.context.refusal ?? T.asked);
      common(s);
    },
  },
  guards: (paths) => {
    // Both answers, the failure, and a whole wait counted down to the button again, are on some path.
    const shown = new Set(paths.flatMap((p) => p.steps.map((st) => `${String(st.state.value)}:${st.state.context.waitLeft}:${st.state.context.refusal ?? ''}:${st.state.context.error ?? ''}`)));
    expect(shown).toContain('waiting:2::');
    expect(shown).toContain(`waiting:1:${TOO_SOON.refusal}:`);
    expect(shown).toContain(`idle:0::${WOM_CHECK_MESSAGES.notOnTeam}`);
    expect(paths.some((p) => p.steps.some((st, i) => i > 0 && st.state.matches('idle') && p.steps[i - 1].state.matches('waiting')))).toBe(true);
  },
  render: () => {
    const w: World = { fx: new FakeEffects() };
    const check = w.fx.fn<ProgressCheckOutcome>('checkProgress');
    render(<ProgressCheck teamId={TEAM} teamName="Iron Gains" checkedAt={CHECKED_AT} check={check} />);
    return w;
  },
});
