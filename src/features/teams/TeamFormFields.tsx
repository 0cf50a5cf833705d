import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import { TEAM_COLOR_PRESETS, TEAM_NAME_MAX } from '../../../contract/team';
import type { ConfirmActionRef } from '../../ui/ConfirmDialog';
import type { CrudForm } from '../../ui/CrudModals';
import { Notice } from '../../ui/Notice';
import { useTouched } from '../../ui/useTouched';
import { ColorField } from './ColorField';
import { teamFormError, type TeamDraft } from './teamForm';

/** confirmAction `validate` of the team modals (docs/client.md §6). */
export function validateTeamDraft(draft: TeamDraft): string | null {
  return teamFormError(draft);
}

/** Selector: true while the team name is blank (docs/game-rules.md §13: buttons disabled while blank). */
const teamNameBlank = (s: { context: { draft: TeamDraft } }) => s.context.draft.name.trim() === '';

/** The fields of the Create / Edit Team modals (docs/client.md §6): name, colour (preset swatches, picker, hex) and the Discord role ID with how to copy it (docs/server.md §19), with 'Team name is required.' while the name is blank, once a field was touched (useTouched). */
function TeamFormFields<TSubject extends object>({ actor }: { actor: ConfirmActionRef<TeamDraft, TSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const error = teamFormError(draft);
  const { touched, touch, handlers } = useTouched();
  const roleId = useId();
  return (
    <div className="stack" {...handlers}>
      <label className="field">
        <span className="field__label">Team Name</span>
        <input
          className="input"
          value={draft.name}
          maxLength={TEAM_NAME_MAX}
          autoFocus
          required
          onChange={(e) => actor.send({ type: 'confirm.change', field: 'name', value: e.target.value })}
        />
      </label>
      <ColorField
        label="Team Colour"
        value={draft.color}
        presets={TEAM_COLOR_PRESETS}
        onChange={(hex) => {
          touch();
          actor.send({ type: 'confirm.change', field: 'color', value: hex });
        }}
      />
      <div className="field">
        <label className="field__label" htmlFor={roleId}>Discord role ID</label>
        <input
          className="input"
          id={roleId}
          value={draft.discordRoleId ?? ''}
          inputMode="numeric"
          autoComplete="off"
          placeholder="Optional: 17 to 20 digits"
          aria-describedby={`${roleId}-hint`}
          onChange={(e) => {
            touch();
            actor.send({ type: 'confirm.change', field: 'discordRoleId', value: e.target.value });
          }}
        />
        <p id={`${roleId}-hint`} className="field__hint">
          Pinged in Discord announcements about this team when the event&apos;s Discord panel has Ping teams on. In Discord: Server
          Settings → Roles → right-click the role → Copy Role ID (turn on Developer Mode under Advanced first).
        </p>
      </div>
      {error && touched && <Notice tone="error" testId="team-form-error">{error}</Notice>}
    </div>
  );
}

/** The form of the Create / Edit Team modals (CrudModals): the fields, submit disabled while the name is blank. */
export const TEAM_FORM: CrudForm<TeamDraft> = { Fields: TeamFormFields, blocked: teamNameBlank };
