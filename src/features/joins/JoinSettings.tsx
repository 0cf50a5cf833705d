import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import { JOIN_POLICIES, JOIN_POLICY_LABELS, type ClanSettings, type JoinPolicy } from '../../../contract/joins';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { liveJoinEffects, type JoinEffects } from './effects';

/** The settings form: how the clan takes new members and whether newcomers find it. */
interface SettingsDraft {
  join_policy: JoinPolicy;
  listed: boolean;
}

/**
 * The Owner's joining settings on the clan page (docs/client.md §5; docs/server.md §18): a
 * 'Joining' button showing the policy, opening a confirm / processing / result modal with the join
 * policy (Open, By request, By invitation only) and 'List this clan where newcomers choose a clan'.
 * `onSaved` runs after a save (the page reloads the clan).
 */
export function JoinSettingsButton({ clanId, settings, disabled, effects = liveJoinEffects, onSaved }: { clanId: number; settings: ClanSettings; disabled: boolean; effects?: JoinEffects; onSaved: () => void }) {
  const flow = useConfirmAction<SettingsDraft, Nothing>({
    closed: { draft: { join_policy: 'open', listed: true }, subject: {} },
    perform: async ({ draft }) => {
      await effects.saveSettings(clanId, draft);
      return { message: 'Clan settings saved.' };
    },
    onSucceeded: onSaved,
  });
  return (
    <>
      <button
        type="button"
        className="btn btn--small"
        disabled={disabled}
        data-testid="join-settings"
        onClick={() => flow.send({ type: 'confirm.open', draft: { join_policy: settings.join_policy, listed: settings.listed } })}
      >
        Joining: {JOIN_POLICY_LABELS[settings.join_policy].split(':')[0]}{settings.listed ? '' : ' (unlisted)'}
      </button>
      <SettingsDialog actor={flow} />
    </>
  );
}

/** The settings modal's fields. */
function SettingsDialog({ actor }: { actor: ConfirmActionRef<SettingsDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <ConfirmDialog actor={actor} title="Joining Settings" confirmLabel="Save Settings" processingText="Saving the settings...">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-policy`}>Who may join</label>
        <select id={`${id}-policy`} className="input" value={draft.join_policy} onChange={(e) => actor.send({ type: 'confirm.change', field: 'join_policy', value: e.target.value as JoinPolicy })}>
          {JOIN_POLICIES.map((p) => (
            <option key={p} value={p}>{JOIN_POLICY_LABELS[p]}</option>
          ))}
        </select>
      </div>
      <label className="choice">
        <input type="checkbox" checked={draft.listed} onChange={(e) => actor.send({ type: 'confirm.change', field: 'listed', value: e.target.checked })} />
        <span>List this clan where newcomers choose a clan</span>
      </label>
    </ConfirmDialog>
  );
}
