import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { ConfirmDialog, type ConfirmActionRef, type Nothing } from './ConfirmDialog';

/** The texts of one modal: its title, the confirm button and the line shown while it runs. */
export interface ModalTexts {
  title: string;
  confirmLabel: string;
  processingText: string;
}

/** A row a modal acts on: its id and the name the modals show. */
export interface NamedRow {
  id: number;
  name: string;
}

/** The subject of an edit or delete flow while no row is chosen. */
export const NO_ROW: NamedRow = { id: 0, name: '' };

/** The create, edit and delete flows of a list of named rows. */
export interface CrudFlows<TDraft extends object> {
  create: ConfirmActionRef<TDraft, Nothing>;
  edit: ConfirmActionRef<TDraft, NamedRow>;
  remove: ConfirmActionRef<Nothing, NamedRow>;
}

/** The texts of a list's modals: each modal's title, confirm button and processing line, and the delete question about the row's name. */
export interface CrudTexts {
  create: ModalTexts;
  edit: ModalTexts;
  remove: ModalTexts;
  deleteQuestion: (name: ReactNode) => ReactNode;
}

/**
 * The form of a list's create and edit modals (each feature's form module gives one): its fields,
 * and when submit is disabled (absent: never; the flow's validation answers a submit).
 */
export interface CrudForm<TDraft extends object> {
  Fields: <S extends object>(props: { actor: ConfirmActionRef<TDraft, S> }) => ReactNode;
  blocked?: (snapshot: { context: { draft: TDraft } }) => boolean;
}

const NEVER_BLOCKED = () => false;

/**
 * The create, edit and delete modals of a list of named rows (events, teams, tasks;
 * docs/game-rules.md §6 modal flows): the create and edit modals show the form's `Fields` with
 * submit disabled while the form is `blocked`; the delete modal asks `texts.deleteQuestion` about
 * the row's name (a danger action).
 */
export function CrudModals<TDraft extends object>({ create, edit, remove, texts, form }: CrudFlows<TDraft> & { texts: CrudTexts; form: CrudForm<TDraft> }) {
  const { Fields, blocked = NEVER_BLOCKED } = form;
  const createBlocked = useSelector(create, blocked);
  const editBlocked = useSelector(edit, blocked);
  const removeName = useSelector(remove, (s) => s.context.subject.name);
  return (
    <>
      <ConfirmDialog actor={create} {...texts.create} submitDisabled={createBlocked}>
        <Fields actor={create} />
      </ConfirmDialog>
      <ConfirmDialog actor={edit} {...texts.edit} submitDisabled={editBlocked}>
        <Fields actor={edit} />
      </ConfirmDialog>
      <ConfirmDialog actor={remove} {...texts.remove} danger>
        <p>{texts.deleteQuestion(<strong>{removeName}</strong>)}</p>
      </ConfirmDialog>
    </>
  );
}
