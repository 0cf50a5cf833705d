// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { diceVerifyMachine, type DiceVerifyEvent } from '../../machines/diceVerify.machine';
import { VERIFY_TEXTS, VerifyDicePage } from '../../src/features/verify/VerifyDicePage';
import { commitmentOf, dieFor } from '../../contract/game/dice';
import type { GameHistory } from '../../contract/history';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of the diceVerify chart (docs/game-rules.md §9) through the rendered
 * 'Verify dice' page, once per kind of history the server may send: finished and honest (every
 * roll Verified), finished with a revert (the roll it undid marked 'Verified · reverted' and the
 * counts '4 rolls, 1 reverted · 3 turns processed'), finished with one die changed (that roll Not verified), not finished (the
 * commitment only, rolls waiting for the seed), and without rolls (the empty state). The history
 * call is a fake the test settles; the dice are recomputed for real (WebCrypto).
 */

type Snap = SnapshotFrom<typeof diceVerifyMachine>;
const DONE = 'xstate.done.actor.verifyDice';
const ERROR = 'xstate.error.actor.verifyDice';
type ModelEvent = DiceVerifyEvent | { type: typeof DONE } | { type: typeof ERROR };

const SEED = '204e27b9697905af3c216755a02458d00b020172507fb7f50f831bbf05659eaf';
const GAME_ID = 7;

/** A history of game 7 with `rolls` rolls of two teams in turn, dice from SEED. */
async function historyOf(rolls: number, over: Partial<GameHistory['game']> = {}): Promise<GameHistory> {
  const moves: GameHistory['moves'] = [];
  const at: Record<number, number> = { 1: 1, 2: 1 };
  for (let k = 1; k <= rolls; k += 1) {
    const team = k % 2 === 1 ? 1 : 2;
    const die = await dieFor(SEED, GAME_ID, k);
    const from = at[team];
    at[team] = from + die;
    moves.push({ at: `2026-11-24T00:00:0${k}.000Z`, team_id: team, kind: 'roll', roll_index: k, die, from, landing: at[team], to: at[team], via: null });
  }
  return {
    game: { id: GAME_ID, event_name: 'Autumn Race', clan_name: 'Iron Legion', board_size: 100, status: 'finished', winners: null, dice_commitment: await commitmentOf(SEED), dice_seed: SEED, ...over },
    teams: [{ team_id: 1, name: 'Red', color: '#aa0000' }, { team_id: 2, name: 'Blue', color: '#0000aa' }],
    moves,
    reviews: [],
  };
}

interface Case {
  name: string;
  history: () => Promise<GameHistory>;
  /** What the loaded report shows. */
  loaded: (commitment: string) => Promise<void> | void;
}

const results = () => screen.getAllByTestId('dice-roll').map((r) => r.getAttribute('data-result'));

const CASES: Case[] = [
  {
    name: 'finished, honest',
    history: () => historyOf(4),
    loaded: () => {
      expect(results()).toEqual(['verified', 'verified', 'verified', 'verified']);
      expect(screen.getAllByText('Verified')).toHaveLength(4);
      expect(screen.getByTestId('verify-commitment').textContent).toBe(VERIFY_TEXTS.commitmentMatches);
      expect(screen.getByTestId('verify-summary').textContent).toBe(VERIFY_TEXTS.allVerified(4));
      expect(screen.getByTestId('dice-seed').textContent).toBe(SEED);
    },
  },
  {
    name: 'finished, roll 3 reverted',
    history: async () => {
      const h = await historyOf(4);
      const third = h.moves[2];
      h.moves.splice(3, 0, { at: '2026-11-24T00:00:03.500Z', team_id: third.team_id, kind: 'revert', roll_index: null, die: null, from: third.to, landing: null, to: third.from, via: null });
      return h;
    },
    loaded: () => {
      expect(results()).toEqual(['verified', 'verified', 'verified', 'verified']);
      const rows = screen.getAllByTestId('dice-roll');
      expect(rows.map((r) => r.getAttribute('data-reverted'))).toEqual(['false', 'false', 'true', 'false']);
      expect(rows.map((r) => r.lastElementChild!.textContent)).toEqual(['Verified', 'Verified', 'Verified · reverted', 'Verified']);
      expect(screen.getByTestId('verify-counts').textContent).toBe('4 rolls, 1 reverted · 3 turns processed. A reverted roll is listed too: its die came from the seed all the same.');
      expect(screen.getByTestId('verify-summary').textContent).toBe(VERIFY_TEXTS.allVerified(4));
    },
  },
  {
    name: 'finished, roll 2 tampered',
    history: async () => {
      const h = await historyOf(4);
      h.moves[1].die = (h.moves[1].die! % 6) + 1;
      return h;
    },
    loaded: () => {
      expect(results()).toEqual(['verified', 'failed', 'verified', 'verified']);
      const row = screen.getAllByTestId('dice-roll')[1];
      expect(within(row).getByText('Not verified')).toBeTruthy();
      expect(screen.getByTestId('verify-summary').textContent).toBe(VERIFY_TEXTS.someFailed(1, 4));
    },
  },
  {
    name: 'in progress, seed sealed',
    history: () => historyOf(3, { status: 'in-progress', dice_seed: null }),
    loaded: () => {
      expect(results()).toEqual(['pending', 'pending', 'pending']);
      expect(screen.getByTestId('verify-summary').textContent).toBe(VERIFY_TEXTS.sealed);
      expect(screen.queryByTestId('dice-seed')).toBeNull();
      expect(screen.queryByText('Verified')).toBeNull();
    },
  },
  {
    name: 'no rolls yet',
    history: () => historyOf(0, { status: 'READY', dice_seed: null }),
    loaded: () => {
      expect(screen.getByTestId('verify-empty').textContent).toBe(VERIFY_TEXTS.noRolls);
      expect(screen.queryAllByTestId('dice-roll')).toHaveLength(0);
    },
  },
];

interface World {
  fx: FakeEffects;
  c: Case;
  commitment: string;
  /** A report is on screen (after a load; none after a failure). */
  hasReport: boolean;
}

for (const c of CASES) {
  modelTests<Snap, ModelEvent, World>({
    name: `diceVerify (${c.name})`,
    machine: diceVerifyMachine,
    dropPrefixPaths: true,
    inputs: [{ gameId: GAME_ID }],
    events: (s) => (s.matches('loading') ? [{ type: DONE }, { type: ERROR }] : [{ type: 'verify.reload' }]),
    // The state before tells apart a check again (from loaded) from a retry (from failed), so each gets its path.
    serialize: (s, event, prev) => JSON.stringify([s.value, event?.type ?? null, event ? prev?.value : null]),
    executors: {
      [DONE]: async (w) => {
        await w.fx.resolve('loadHistory', await w.c.history());
        w.hasReport = true;
      },
      [ERROR]: async (w) => {
        await w.fx.reject('loadHistory', new Error('Game not found.'));
        w.hasReport = false;
      },
      'verify.reload': async (_w, { prev }) => {
        const name = prev.matches('failed') ? 'Retry' : 'Check again';
        await userEvent.click(await screen.findByRole('button', { name }));
      },
    } satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>,
    assertions: {
      loading: async (_s, w) => {
        if (w.hasReport) expect(((await screen.findByRole('button', { name: 'Checking...' })) as HTMLButtonElement).disabled).toBe(true);
        else expect(await screen.findByText('Checking the dice...')).toBeTruthy();
        expect(w.fx.calls('loadHistory').at(-1)).toEqual([GAME_ID]);
      },
      loaded: async (_s, w) => {
        await screen.findByRole('button', { name: 'Check again' });
        expect(screen.getByTestId('dice-commitment').textContent).toBe(w.commitment);
        expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
        expect(screen.getByRole('link', { name: 'How to check it by hand' }).getAttribute('href')).toBe('#method');
        await w.c.loaded(w.commitment);
      },
      failed: async () => {
        expect((await screen.findByRole('alert')).textContent).toBe('Game not found.');
        expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
        expect(screen.queryByTestId('verify-report')).toBeNull();
      },
    },
    render: async () => {
      const fx = new FakeEffects();
      const router = createMemoryRouter(
        [{ path: '/games/:gameId/verify', element: <VerifyDicePage loadHistory={fx.fn('loadHistory')} /> }],
        { initialEntries: [`/games/${GAME_ID}/verify`] },
      );
      render(<RouterProvider router={router} />);
      return { fx, c, commitment: await commitmentOf(SEED), hasReport: false };
    },
  });
}
