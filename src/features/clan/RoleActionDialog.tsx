import * as Dialog from '@radix-ui/react-dialog';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { clanRoleMachine, RoleRequest } from '../../../machines/clanRole.machine';
import * as roleSel from '../../../machines/clanRole.selectors';
import { ChartDialogContent } from '../../ui/Modal';

/** Title, question and confirm label of each confirmed clan action. */
function dialogText(r: RoleRequest): { title: string; body: string; confirm: string } {
  const name = r.member?.username ?? '';
  const clan = r.viewer.clanName;
  switch (r.kind) {
    case 'transfer':
      return { title: 'Transfer Ownership', body: `Make ${name} the Owner of ${clan}? You will become an Admin.`, confirm: 'Transfer Ownership' };
    case 'kick':
      return { title: 'Kick Member', body: `Remove ${name} from ${clan}?`, confirm: 'Kick Member' };
    case 'leave':
      return { title: 'Leave Clan', body: `Are you sure you want to leave ${clan}?`, confirm: 'Leave Clan' };
    case 'disband':
      return {
        title: 'Disband Clan',
        body: `Disband ${clan}? This permanently deletes the clan with its events, teams, games and tasks. It cannot be undone.`,
        confirm: 'Disband Clan',
      };
    default:
      return { title: 'Confirm', body: '', confirm: 'Confirm' };
  }
}

/**
 * The confirmation dialog of the clanRole chart (docs/client.md §5: confirmation
 * dialogs for leaving and kicking; docs/game-rules.md §6: disband is confirmed; transferring ownership is
 * confirmed too, as it cannot be undone by the acting Owner). Opened by the chart's `confirming`
 * states; Cancel, Esc or a click outside send `roleAction.cancel`.
 */
export function RoleActionDialog({ clanRole }: { clanRole: ActorRefFrom<typeof clanRoleMachine> }) {
  const open = useSelector(clanRole, roleSel.isConfirmOpen);
  const request = useSelector(clanRole, roleSel.selectRequest);
  const text = request ? dialogText(request) : null;
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && clanRole.send({ type: 'roleAction.cancel' })}>
      <ChartDialogContent open={open} className="dialog panel">
        <Dialog.Title className="dialog__title">{text?.title}</Dialog.Title>
        <Dialog.Description>{text?.body}</Dialog.Description>
        <div className="row dialog__actions">
          <button type="button" className="btn" onClick={() => clanRole.send({ type: 'roleAction.cancel' })}>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={() => clanRole.send({ type: 'roleAction.confirm' })}>
            {text?.confirm}
          </button>
        </div>
      </ChartDialogContent>
    </Dialog.Root>
  );
}
