/** Texts of the Game Action panel (product-spec sections 2, 4 and 6). */
export const GAME_ACTION_TEXTS = {
  leaderTitle: 'Roll Dice for Your Team',
  memberTitle: 'Leader Action Required',
  noTeamTitle: 'Join a Team to Roll',
  memberOnly: 'Only the Leader of your team can roll the dice or revert a turn.',
  noTeam: 'You must be a member of a team participating in this game to see game actions.',
  noActions: (status: string) => `Game is ${status}. No actions available.`,
} as const;
