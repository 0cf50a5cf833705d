import { fromCallback } from 'xstate';
import { openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';
import type { TasksAnnounce } from '../../../machines/gameTasks.machine';

/**
 * The `announcer` actor of the gameTasks chart (product-spec section 7 "Live socket": sent
 * `tasks_reordered` (game_id, message)): opens a socket when the Game Tasks screen has loaded and
 * emits `tasks_reordered` {game_id, message} for every TasksAnnounce, so open game screens reload
 * their board (the server also broadcasts by itself after a swap or assign). Socket.IO buffers an
 * emit made before the connection is up. Stopping the actor closes the socket.
 */
export function tasksReorderedAnnouncer(open: () => GameSocketLike = openGameSocket) {
  return fromCallback<TasksAnnounce, { gameId: number }>(({ receive, input }) => {
    const socket = open();
    receive((command) => {
      if (command.type === 'tasks.announce') socket.emit('tasks_reordered', { game_id: input.gameId, message: command.message });
    });
    return () => {
      socket.disconnect();
    };
  });
}
