/** Texts of the Game Action panel (docs/client.md §1; docs/game-rules.md §6, §11). */
export const GAME_ACTION_TEXTS = {
  leaderTitle: 'Roll Dice for Your Team',
  memberTitle: 'Leader Action Required',
  noTeamTitle: 'Join a Team to Roll',
  memberOnly: 'Only the Leader of your team can roll the dice or revert a turn.',
  noTeam: 'You must be a member of a team participating in this game to see game actions.',
  noActions: (status: string) => `Game is ${status}. No actions available.`,
} as const;

/** Texts of the relief confirm step (docs/game-rules.md §15; the confirm modal of docs/flows.md §3). */
export const RELIEF_CONFIRM_TEXTS = {
  title: 'Ask for a New Task?',
  confirm: 'Ask for a New Task',
  processing: 'Asking...',
  body: (team: string, max: number) =>
    `${team}'s task on this square is replaced by another task of its tier, drawn from the pool. This spends one of the ${max} new ${max === 1 ? 'task' : 'tasks'} each team may ask for in this game.`,
  // The request is sent; the new task or the server's refusal follows on the panel.
  done: 'Asked the server for a new task.',
  notNow: 'A new task cannot be asked for now.',
  /** Under the relief button: what is left of the team's new tasks. */
  left: (left: number, max: number) => `New tasks left: ${left} of ${max}`,
} as const;

/** Texts of the revert confirm step (the confirm modal of docs/flows.md §3). */
export const REVERT_TEXTS = {
  button: 'Revert Last Turn',
  title: 'Revert Last Turn?',
  confirm: 'Revert Turn',
  processing: 'Reverting...',
  body: (team: string, left: number | null) =>
    `${team} goes back to the square before its last roll.${left === null ? '' : ` This uses 1 of the ${left} reverts left.`}`,
  done: 'The last turn was reverted.',
  notNow: 'The last turn cannot be reverted now.',
} as const;
