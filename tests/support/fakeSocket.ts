import type { GameSocketLike } from '../../src/realtime/gameSocket';

type Listener = (...args: any[]) => void;

/** A tiny event emitter with on/off and an `emitLocal` that calls the listeners. */
class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  on(event: string, listener: Listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off(event?: string, listener?: Listener) {
    if (!event) this.listeners.clear();
    else if (!listener) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(listener);
    return this;
  }
  emitLocal(event: string, ...args: unknown[]) {
    for (const l of [...(this.listeners.get(event) ?? [])]) l(...args);
  }
  count(event: string) {
    return this.listeners.get(event)?.size ?? 0;
  }
}

/**
 * A stand-in for the Socket.IO client of src/realtime/gameSocket.ts: the test plays the server
 * (`serverSends`, `serverConnects`, `drop`, `startReconnecting`) and reads what the page sent
 * (`sent`, `sentOf`). Connection state follows socket.io-client's rules: `active` stays true while
 * the client would reconnect by itself.
 */
export class FakeSocket extends Emitter implements GameSocketLike {
  connected = false;
  active = true;
  closed = false;
  sent: { event: string; payload: any }[] = [];
  io = new Emitter();

  emit(event: string, payload: unknown) {
    this.sent.push({ event, payload });
    return this;
  }
  connect() {
    this.active = true;
    this.connectCalls += 1;
    return this;
  }
  connectCalls = 0;
  disconnect() {
    this.closed = true;
    this.active = false;
    this.connected = false;
    return this;
  }

  /** The server accepts the connection (first connect or a reconnect). */
  serverConnects() {
    this.connected = true;
    this.active = true;
    this.emitLocal('connect');
  }
  /** The connection drops; `byServer` = the server closed it, so the client will not retry. */
  drop(reason = 'transport close', byServer = false) {
    this.connected = false;
    this.active = !byServer;
    this.emitLocal('disconnect', byServer ? 'io server disconnect' : reason);
  }
  /** The client's manager starts reconnection attempt `n`. */
  startReconnecting(n: number) {
    this.io.emitLocal('reconnect_attempt', n);
  }
  /** A failed connection attempt (e.g. the 20 s timeout). */
  connectFails(message = 'timeout') {
    this.emitLocal('connect_error', new Error(message));
  }
  /** The server sends `event` with `payload` to this client. */
  serverSends(event: string, payload: unknown) {
    this.emitLocal(event, payload);
  }
  /** Payloads the client sent with `event`. */
  sentOf(event: string) {
    return this.sent.filter((s) => s.event === event).map((s) => s.payload);
  }
}
