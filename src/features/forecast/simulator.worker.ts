/// <reference lib="webworker" />
import { simulateBoard } from '../../../contract/game/forecast';
import type { SimulationRequest } from '../../../contract/game/simulatorView';

/**
 * The board simulator's web worker (docs/game-rules.md §14): runs the contract's simulateBoard for
 * each request off the page's thread and posts the result back ({ok: true, result} or {ok: false,
 * error}), so 10,000 runs of a 225-square board never freeze Manage Game.
 */
self.onmessage = (e: MessageEvent<SimulationRequest>) => {
  try {
    const r = e.data;
    const result = simulateBoard({ board: r.board, tiers: r.tiers, hours_per_tier: r.hours_per_tier, available_hours: r.available_hours, runs: r.runs });
    self.postMessage({ ok: true, result });
  } catch (err) {
    self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) });
  }
};
