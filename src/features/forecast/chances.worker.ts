/// <reference lib="webworker" />
import { chancesOverGame, type ChancesRequest } from '../../../contract/game/chances';

/**
 * The results page's web worker (docs/game-rules.md §14): each team's chance to win after every
 * move (contract chancesOverGame), off the page's thread; posts {ok: true, points} or {ok: false, error}.
 */
self.onmessage = (e: MessageEvent<ChancesRequest>) => {
  try {
    self.postMessage({ ok: true, points: chancesOverGame(e.data) });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
