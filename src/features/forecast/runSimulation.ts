import type { BoardSimulation } from '../../../contract/game/forecast';
import type { SimulationRequest } from '../../../contract/game/simulatorView';
import type { ChancePoint } from '../../../contract/forecastView';
import type { ChancesRequest } from '../../../contract/game/chances';

/**
 * Runs one simulation in a new web worker (Vite worker import of simulator.worker.ts) and ends the
 * worker with the answer; `signal` (the chart stopping the run) ends it at once. Rejects with the
 * worker's error.
 */
export function runSimulation(request: SimulationRequest, signal?: AbortSignal): Promise<BoardSimulation> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./simulator.worker.ts', import.meta.url), { type: 'module' });
    const stop = () => worker.terminate();
    signal?.addEventListener('abort', () => {
      stop();
      reject(new Error('Simulation stopped.'));
    });
    worker.onmessage = (e: MessageEvent<{ ok: true; result: BoardSimulation } | { ok: false; error: string }>) => {
      stop();
      if (e.data.ok) resolve(e.data.result);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      stop();
      reject(new Error(e.message || 'The simulator failed.'));
    };
    worker.postMessage(request);
  });
}

/** Computes each team's chance after every move of a game in a new web worker (chances.worker.ts); ends it with the answer or on `signal`. */
export function computeChances(request: ChancesRequest, signal?: AbortSignal): Promise<ChancePoint[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./chances.worker.ts', import.meta.url), { type: 'module' });
    signal?.addEventListener('abort', () => {
      worker.terminate();
      reject(new Error('Stopped.'));
    });
    worker.onmessage = (e: MessageEvent<{ ok: true; points: ChancePoint[] } | { ok: false; error: string }>) => {
      worker.terminate();
      if (e.data.ok) resolve(e.data.points);
      else reject(new Error(e.data.error));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || 'The chances could not be computed.'));
    };
    worker.postMessage(request);
  });
}
