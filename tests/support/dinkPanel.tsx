import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { DinkPanel, type DinkEffects } from '../../src/features/dink/DinkPanel';
import { FakeEffects } from './effects';

/**
 * The Dink panel as its three charts' model tests render it (dinkLink, dinkPosts, dinkAccounts;
 * docs/client.md §7): every effect a FakeEffects call the test settles, by name ('load',
 * 'create', 'save', 'revoke', 'posts', 'accounts', 'clear', 'copy'), for clan 7, event 3.
 */
export interface DinkWorld {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

/** Renders the panel over fake effects; user-event advances fake timers. */
export function renderDinkPanel(): DinkWorld {
  const fx = new FakeEffects();
  const effects: DinkEffects = {
    fetchDinkLink: fx.fn('load'),
    createDinkLink: fx.fn('create'),
    saveDinkAutoApprove: (clanId, eventId, autoApprove) => fx.fn('save')(clanId, eventId, autoApprove),
    revokeDinkLink: fx.fn('revoke'),
    fetchDinkPosts: fx.fn('posts'),
    fetchDinkAccounts: fx.fn('accounts'),
    clearDinkAccount: fx.fn('clear'),
    copyText: fx.fn('copy'),
  };
  render(<DinkPanel clanId={7} eventId={3} effects={effects} />);
  return { fx, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }) };
}

/** Answers effect `name` as a synthetic done/error step of a path says. */
export const settleDink = (w: DinkWorld, name: string, e: { type: string; output?: unknown; error?: unknown }) =>
  act(() => w.fx.settle(name, e));

/** A button of the panel by its name. */
export const dinkButton = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
