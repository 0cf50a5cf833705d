import type { ActorRefFrom } from 'xstate';
import type { gamePlayMachine } from '../../../machines/gamePlay.machine';

/**
 * The running game-play chart (machines/gamePlay.machine.ts) the play panels read and send to
 * (docs/client.md §9); its own module so the panels share it without importing each other.
 */
export type GamePlayRef = ActorRefFrom<typeof gamePlayMachine>;
