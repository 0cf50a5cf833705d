import type { BoardSimulation } from '../../../contract/game/forecast';
import type { SimulationRequest } from '../../../contract/game/simulatorView';

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
