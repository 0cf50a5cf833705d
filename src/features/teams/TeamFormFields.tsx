import { useSelector } from '@xstate/react';
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

/** The fields of the Create / Edit Team modals (docs/client.md §6): name and colour (preset swatches, picker, hex), with 'Team name is required.' while the name is blank, once a field was touched (useTouched). */
function TeamFormFields<TSubject extends object>({ actor }: { actor: ConfirmActionRef<TeamDraft, TSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const error = teamFormError(draft);
  const { touched, touch, handlers } = useTouched();
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
      {error && touched && <Notice tone="error" testId="team-form-error">{error}</Notice>}
    </div>
  );
}

/** The form of the Create / Edit Team modals (CrudModals): the fields, submit disabled while the name is blank. */
export const TEAM_FORM: CrudForm<TeamDraft> = { Fields: TeamFormFields, blocked: teamNameBlank };
