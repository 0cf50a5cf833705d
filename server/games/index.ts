/**
 * Games (issue #5): the HTTP routes, and what the live socket reuses — `loadGame(db, gameId,
 * viewerUserId | null)` (the full game, 404 'Game not found.'), `toPublicGame(game)` (the
 * spectators' shape) and `randomSource(config)` (crypto, or seeded by BOARD_SEED).
 */
export { gameRoutes } from './routes';
export { loadGame, toPublicGame } from './service';
export { randomSource, cryptoRandom } from './randomSource';
