import { useActorRef, useSelector } from '@xstate/react';
import { Fragment, useMemo } from 'react';
import { fromPromise } from 'xstate';
import { teamListMachine } from '../../../machines/teamList.machine';
import * as sel from '../../../machines/teamList.selectors';
import { teamCreatedMessage, teamDeletedMessage, teamSizeText, teamUpdatedMessage, type Team } from '../../../contract/team';
import { useConfirmAction, type Nothing } from '../../ui/ConfirmDialog';
import { CrudModals, NO_ROW, type CrudFlows, type CrudTexts, type NamedRow } from '../../ui/CrudModals';
import { EditDeleteButtons } from '../../ui/RowActions';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { TEAM_FORM, validateTeamDraft } from './TeamFormFields';
import { TeamMemberManager } from './TeamMemberManager';
import { displayColor, editTeamDraft, newTeamDraft, teamBody, type TeamDraft } from './teamForm';
import { liveTeamsEffects, type TeamsEffects } from './teamsEffects';
import { DataTable } from '../../ui/DataTable';

type ListRef = ReturnType<typeof useActorRef<typeof teamListMachine>>;

/** Create, edit and delete modals of the teams view (docs/client.md §6). */
const TEAM_MODALS: CrudTexts = {
  create: { title: 'Create New Team', confirmLabel: 'Create Team', processingText: 'Creating team...' },
  edit: { title: 'Edit Team', confirmLabel: 'Update Team', processingText: 'Updating team...' },
  remove: { title: 'Delete Team', confirmLabel: 'Delete Team', processingText: 'Deleting team...' },
  deleteQuestion: (name) => <>Are you sure you want to delete the team {name}? Its members are taken off the team. This cannot be undone.</>,
};

/**
 * The Event Teams view (docs/client.md §6, §11): 'Back to
 * Events', 'Managing: Teams List', the team table (colour bar, name, 'N Members', Members toggle
 * opening the inline member manager, edit, delete), the Create / Edit Team modals with a hex
 * colour picker and preset swatches (a new team starts on the first preset no team of the event
 * has) and the delete confirmation. `effects` replaces the calls in tests.
 */
export function EventTeamsView({
  clanId,
  eventId,
  eventName,
  onBack,
  effects = liveTeamsEffects,
}: {
  clanId: number;
  eventId: number;
  eventName?: string;
  onBack: () => void;
  effects?: TeamsEffects;
}) {
  const logic = useMemo(
    () => teamListMachine.provide({ actors: { loadTeams: fromPromise(() => effects.fetchTeams(clanId, eventId)) } }),
    [clanId, eventId, effects],
  );
  const list = useActorRef(logic);
  const teams = useSelector(list, sel.selectTeams);
  const reload = () => list.send({ type: 'teams.reload' });
  const create = useConfirmAction<TeamDraft, Nothing>({
    closed: { draft: newTeamDraft(), subject: {} },
    perform: async ({ draft }) => {
      const answer = await effects.createTeam(clanId, eventId, teamBody(draft));
      return { message: answer.message ?? teamCreatedMessage(answer.team.name) };
    },
    validate: validateTeamDraft,
    onSucceeded: reload,
  });
  const edit = useConfirmAction<TeamDraft, NamedRow>({
    closed: { draft: newTeamDraft(), subject: NO_ROW },
    perform: async ({ draft, subject }) => {
      const answer = await effects.updateTeam(clanId, eventId, subject.id, teamBody(draft));
      return { message: answer.message ?? teamUpdatedMessage(answer.team.name) };
    },
    validate: validateTeamDraft,
    onSucceeded: reload,
  });
  const remove = useConfirmAction<Nothing, NamedRow>({
    closed: { draft: {}, subject: NO_ROW },
    perform: async ({ subject }) => {
      const answer = await effects.deleteTeam(clanId, eventId, subject.id);
      return { message: answer.message ?? teamDeletedMessage(subject.name) };
    },
    onSucceeded: reload,
  });
  return (
    <section className="teams-view" aria-label="Event teams">
      <div className="toolbar">
        <button type="button" className="btn" onClick={onBack}>Back to Events</button>
        <span className="toolbar__label">Managing: Teams List</span>
        {eventName && <span className="toolbar__event">{eventName}</span>}
        <button type="button" className="btn btn--primary toolbar__end" onClick={() => create.send({ type: 'confirm.open', draft: newTeamDraft(teams.map((t) => t.color)) })}>
          Create New Team
        </button>
      </div>
      <TeamTable list={list} edit={edit} remove={remove} clanId={clanId} eventId={eventId} effects={effects} />
      <CrudModals texts={TEAM_MODALS} form={TEAM_FORM} create={create} edit={edit} remove={remove} />
    </section>
  );
}

function TeamTable({
  list,
  edit,
  remove,
  clanId,
  eventId,
  effects,
}: {
  list: ListRef;
  edit: CrudFlows<TeamDraft>['edit'];
  remove: CrudFlows<TeamDraft>['remove'];
  clanId: number;
  eventId: number;
  effects: TeamsEffects;
}) {
  const teams = useSelector(list, sel.selectTeams);
  const loading = useSelector(list, sel.selectTeamsLoading);
  const failed = useSelector(list, sel.selectTeamsFailed);
  const error = useSelector(list, sel.selectTeamsError);
  const expanded = useSelector(list, sel.selectExpandedTeamId);
  if (loading) return <Spinner text="Loading teams..." />;
  return (
    <>
      {error && (
        <div className="row">
          <Notice tone="error">{error}</Notice>
          {failed && <button type="button" className="btn" onClick={() => list.send({ type: 'teams.reload' })}>Retry</button>}
        </div>
      )}
      {!failed && (
        <DataTable className="table teams-table cards-sm" columns={['Team Name', 'Size', 'Manage', 'Edit/Delete']}>
          {teams.length === 0 ? (
            <tr>
              <td colSpan={4} className="table__empty">No teams created for this event. Click "Create New Team" to start!</td>
            </tr>
          ) : (
            teams.map((team) => (
              <Fragment key={team.id}>
                <TeamRow team={team} open={expanded === team.id} list={list} edit={edit} remove={remove} />
                {expanded === team.id && (
                  <tr className="teams-table__members">
                    <td colSpan={4} id={`team-${team.id}-members`}>
                      <TeamMemberManager clanId={clanId} eventId={eventId} team={team} effects={effects} onCountChanged={(count) => list.send({ type: 'team.memberCountChanged', teamId: team.id, count })} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))
          )}
        </DataTable>
      )}
    </>
  );
}

function TeamRow({ team, open, list, edit, remove }: { team: Team; open: boolean; list: ListRef } & Omit<CrudFlows<TeamDraft>, 'create'>) {
  return (
    <tr>
      <th scope="row">
        <span className="team-name">
          <span className="team-name__bar" style={{ background: displayColor(team.color) }} aria-hidden="true" />
          <span>{team.name}</span>
        </span>
      </th>
      <td data-label="Size">{teamSizeText(team.member_count)}</td>
      <td data-label="Manage">
        <button
          type="button"
          className="btn btn--small"
          aria-expanded={open}
          aria-controls={`team-${team.id}-members`}
          aria-label={`Members of ${team.name}`}
          onClick={() => list.send({ type: 'team.toggleMembers', teamId: team.id })}
        >
          Members {open ? '▴' : '▾'}
        </button>
      </td>
      <td data-label="Edit/Delete">
        <div className="row row--nowrap">
          <EditDeleteButtons
            label={team.name}
            onEdit={() => edit.send({ type: 'confirm.open', subject: { id: team.id, name: team.name }, draft: { ...editTeamDraft(team) } })}
            onDelete={() => remove.send({ type: 'confirm.open', subject: { id: team.id, name: team.name } })}
          />
        </div>
      </td>
    </tr>
  );
}
