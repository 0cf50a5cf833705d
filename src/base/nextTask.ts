/**
 * Resolves in a new task of the browser's event loop (a MessageChannel message, which unlike a
 * 0 ms timer is not clamped to 4 ms after nested timers), so the work after it does not lengthen
 * the task that awaited it. The app's first load is evaluated and started in such steps
 * (src/main.tsx).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
