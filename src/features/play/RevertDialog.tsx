import { ConfirmDialog, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { RELIEF_CONFIRM_TEXTS, REVERT_TEXTS } from './texts';

/**
 * The Leader's revert confirmation (docs/client.md §9, docs/game-rules.md §6 modal flows): the
 * confirm modal of `actor`, naming the team (`teamName`) and the reverts it has left
 * (`revertsLeft`, null when not counted). Loaded lazily by the Game Action panel (GamePanels.tsx)
 * for a Leader only, so the spectator page does not download the dialog library.
 */
// GamePanels.tsx loads this module with a lazy import.
// ts-unused-exports:disable-next-line
export function RevertDialog({ actor, teamName, revertsLeft }: { actor: ConfirmActionRef<Nothing, Nothing>; teamName: string; revertsLeft: number | null }) {
  return (
    <ConfirmDialog actor={actor} title={REVERT_TEXTS.title} confirmLabel={REVERT_TEXTS.confirm} processingText={REVERT_TEXTS.processing} danger>
      <p>{REVERT_TEXTS.body(teamName, revertsLeft)}</p>
    </ConfirmDialog>
  );
}

/**
 * The Leader's relief confirmation (docs/game-rules.md §15; modal flows of docs/flows.md §3): one
 * click on 'Ask for a new task' asks first, naming the team (`teamName`) and the new tasks a team
 * may ask for in the game (`maxPerTeam`). Loaded with RevertDialog.
 */
// GamePanels.tsx loads this module with a lazy import.
// ts-unused-exports:disable-next-line
export function ReliefDialog({ actor, teamName, maxPerTeam }: { actor: ConfirmActionRef<Nothing, Nothing>; teamName: string; maxPerTeam: number }) {
  return (
    <ConfirmDialog actor={actor} title={RELIEF_CONFIRM_TEXTS.title} confirmLabel={RELIEF_CONFIRM_TEXTS.confirm} processingText={RELIEF_CONFIRM_TEXTS.processing}>
      <p>{RELIEF_CONFIRM_TEXTS.body(teamName, maxPerTeam)}</p>
    </ConfirmDialog>
  );
}
