import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import { EVENT_NAME_MAX, START_SLACK_MS } from '../../../contract/event';
import type { ConfirmActionRef } from '../../ui/ConfirmDialog';
import type { CrudForm } from '../../ui/CrudModals';
import { Notice } from '../../ui/Notice';
import { useTouched } from '../../ui/useTouched';
import { EVENT_FORM_TEXTS, centralTimeNote, eventFormError, utcInputAt, type EventDraft } from './eventForm';

/** confirmAction `validate` of the event modals: the docs/client.md §6 rule at the current time. */
export function validateEventDraft(draft: EventDraft): string | null {
  return eventFormError(draft, Date.now());
}

/** Selector: true while the event form may not be submitted (docs/game-rules.md §13: submit disabled while invalid). */
const eventFormBlocked = (s: { context: { draft: EventDraft } }) => validateEventDraft(s.context.draft) !== null;

/**
 * The fields of the schedule and edit modals (docs/client.md §6): Event Name (max
 * 100), Start and End Date/Time entered in UTC (`datetime-local` read as UTC), each with its
 * America/Chicago conversion note; in the schedule modal (a draft whose signupsOpen is not null)
 * 'Open sign-ups' and, once ticked, an optional close time (UTC); in the Copy event modal (a draft whose copyTeams is
 * true or false) 'Copy teams too'; and the form rule's message while the form is invalid (it
 * says why the submit button is disabled) once a field was touched (useTouched).
 */
function EventFormFields<TSubject extends object>({ actor }: { actor: ConfirmActionRef<EventDraft, TSubject> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  const change = (field: 'name' | 'start' | 'end' | 'signupsCloseAt', value: string) => {
    actor.send({ type: 'confirm.change', field, value });
  };
  const error = eventFormError(draft, Date.now());
  const { touched, handlers } = useTouched();
  const startNote = centralTimeNote(draft.start);
  const endNote = centralTimeNote(draft.end);
  return (
    <div className="stack" {...handlers}>
      <label className="field">
        <span className="field__label">Event Name</span>
        <input className="input" value={draft.name} maxLength={EVENT_NAME_MAX} required autoFocus onChange={(e) => change('name', e.target.value)} />
      </label>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-start`}>Start Date/Time (UTC)</label>
        <input
          id={`${id}-start`}
          className="input"
          type="datetime-local"
          value={draft.start}
          min={draft.originalStart && draft.originalStart === draft.start ? undefined : utcInputAt(Date.now() - START_SLACK_MS)}
          required
          aria-describedby={`${id}-start-note`}
          onChange={(e) => change('start', e.target.value)}
        />
        <span id={`${id}-start-note`} className="field__hint" data-testid="start-central-note">
          {startNote ?? 'Enter the time in UTC; its Central Time is shown here.'}
        </span>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-end`}>End Date/Time (UTC, optional)</label>
        <input
          id={`${id}-end`}
          className="input"
          type="datetime-local"
          value={draft.end}
          min={draft.start || undefined}
          aria-describedby={`${id}-end-note`}
          onChange={(e) => change('end', e.target.value)}
        />
        {endNote && (
          <span id={`${id}-end-note`} className="field__hint" data-testid="end-central-note">
            {endNote}
          </span>
        )}
      </div>
      {draft.signupsOpen !== null && (
        <>
          <label className="field field--inline">
            <input type="checkbox" checked={draft.signupsOpen} onChange={(e) => actor.send({ type: 'confirm.change', field: 'signupsOpen', value: e.target.checked })} />
            <span>{EVENT_FORM_TEXTS.signupsOpen}</span>
          </label>
          {draft.signupsOpen ? (
            <label className="field" htmlFor={`${id}-signups-close`}>
              <span className="field__label">{EVENT_FORM_TEXTS.signupsClose}</span>
              <input id={`${id}-signups-close`} className="input" type="datetime-local" value={draft.signupsCloseAt} onChange={(e) => change('signupsCloseAt', e.target.value)} />
            </label>
          ) : (
            <span className="field__hint">{EVENT_FORM_TEXTS.signupsOpenHint}</span>
          )}
        </>
      )}
      {typeof draft.copyTeams === 'boolean' && (
        <div className="field">
          <label className="field field--inline">
            <input
              type="checkbox"
              checked={draft.copyTeams}
              aria-describedby={`${id}-copy-teams-hint`}
              onChange={(e) => actor.send({ type: 'confirm.change', field: 'copyTeams', value: e.target.checked })}
            />
            <span>{EVENT_FORM_TEXTS.copyTeams}</span>
          </label>
          <span id={`${id}-copy-teams-hint`} className="field__hint">{EVENT_FORM_TEXTS.copyTeamsHint}</span>
        </div>
      )}
      {error && touched && <Notice tone="error" testId="event-form-error">{error}</Notice>}
    </div>
  );
}

/** The form of the schedule and edit modals (CrudModals): the fields, submit disabled while the form rule refuses the draft. */
export const EVENT_FORM: CrudForm<EventDraft> = { Fields: EventFormFields, blocked: eventFormBlocked };
