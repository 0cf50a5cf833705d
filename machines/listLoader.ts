import { assign, setup, type EventObject, type PromiseActorLogic } from 'xstate';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';

/** What every list chart holds: the rows of the last load and the failure text of the last try. */
export interface ListContext<TItem> {
  items: TItem[];
  /** The failure text of the last load, or null. */
  error: string | null;
}

/** How one list differs from the others. */
export interface ListLoaderOptions<TItem, TExtra extends object, TEvent extends EventObject, TActor extends string, TReload extends `${string}.reload`> {
  /** The chart id (and the name in the "was not provided" error). */
  id: string;
  /** Name of the promise actor that loads the rows (provided from src/). */
  actor: TActor;
  /** The reload intent, `<noun>.reload`. */
  reload: TReload;
  /** Failure text when the error carries none (docs/client.md §11). */
  fallback: string;
  /** Reload by itself this often (ms) while loaded or failed; absent: no polling. */
  pollInterval?: number;
  /** Where a failed reload goes: `failed` (default) or back to `loaded` with the error kept beside the rows. */
  reloadFailure?: 'failed' | 'loaded';
  /** Where `reload` goes from `loaded`: `reloading` (default: the rows stay) or `loading`. */
  reloadFrom?: 'loading' | 'reloading';
  /** Where `reload` goes from `failed`: `loading` (default: the first-load screen again) or `reloading`. */
  retryFrom?: 'loading' | 'reloading';
  /** Extra context of this list (e.g. the open row), with its initial value. */
  extra?: TExtra;
  /** Extra context after a load (e.g. close a row that is gone). */
  onLoaded?: (context: ListContext<TItem> & TExtra, items: TItem[]) => Partial<ListContext<TItem> & TExtra>;
  /** The list's own events, taken in every state: for each event type, the context it changes. */
  update?: { [K in TEvent['type']]: (context: ListContext<TItem> & TExtra, event: Extract<TEvent, { type: K }>) => Partial<ListContext<TItem> & TExtra> };
}

/** How a chart loads what it shows: the chart id, the loading actor, the fallback failure text, and what a load adds to the context. */
export interface LoadStepOptions<TOutput, TContext extends { error: string | null }, TActor extends string, TInput> {
  /** The chart id (and the name in the "was not provided" error). */
  id: string;
  /** Name of the promise actor that loads (provided from src/). */
  actor: TActor;
  /** Failure text when the error carries none (docs/client.md §11). */
  fallback: string;
  /** The actor's input, from the chart's context (e.g. which list). */
  input?: (context: TContext) => TInput;
  /** The context after a load. */
  onLoaded: (context: TContext, output: TOutput) => Partial<TContext>;
}

/** Where one load's outcomes go, for a chart whose states are not named `loaded` and `failed`, or that loads in two places. */
export interface LoadTargets {
  /** The invoke id (default: the actor's name). */
  id?: string;
  /** The state after a load (default `loaded`). */
  done?: string;
  /** Loads that go elsewhere, tried first: a guard of the chart (given the output) and its target; the load is assigned as well. */
  doneIf?: readonly { guard: string; target: string }[];
  /** The state after a failure (default `failed`). */
  failed?: string;
  /** Failures that go elsewhere, tried first: a guard of the chart (given the error) and its target, keeping no failure text. */
  catches?: readonly { guard: string; target: string }[];
}

/**
 * The load step of the list-loader chart, for any chart that loads what it shows: `listLoad` for
 * a list, or a single record (the results of a game, a dice report, a clan with its members).
 * Gives the default actor (throws until provided), the context updates of the chart's actions
 * `assignLoaded` and `assignError`, and `load(targets)`, the invoke of one load.
 */
export function loadStep<TOutput, TContext extends { error: string | null }, TActor extends string, TInput = void>(
  o: LoadStepOptions<TOutput, TContext, TActor, TInput>,
  doneAction = 'assignLoaded',
) {
  const actors = { [o.actor]: missingPromise<TOutput, TInput>(o.id, o.actor) } as Record<TActor, PromiseActorLogic<TOutput, TInput>>;
  const input = o.input ? { input: ({ context }: { context: TContext }) => o.input!(context) } : {};
  const error = ({ event }: { event: { error: unknown } }) => event.error;
  const output = ({ event }: { event: { output: TOutput } }) => event.output;
  // XState cannot check an invoke config whose actor name is a type parameter, so these configs
  // are cast; the charts' call sites and model tests check them.
  return {
    actors,
    /** The context after a load (for the chart's `assignLoaded`) and after a failure (`assignError`). */
    loaded: (context: TContext, output: TOutput) => ({ ...o.onLoaded(context, output), error: null }) as Partial<TContext>,
    failed: (e: unknown) => ({ error: errorText(e, o.fallback) }) as Partial<TContext>,
    load: (t: LoadTargets = {}): never =>
      ({
        id: t.id ?? o.actor,
        src: o.actor,
        ...input,
        onDone: [
          ...(t.doneIf ?? []).map((d) => ({ guard: { type: d.guard, params: output }, target: d.target, actions: { type: doneAction, params: output } })),
          { target: t.done ?? 'loaded', actions: { type: doneAction, params: output } },
        ],
        onError: [
          ...(t.catches ?? []).map((c) => ({ guard: { type: c.guard, params: error }, target: c.target })),
          { target: t.failed ?? 'failed', actions: { type: 'assignError', params: error } },
        ],
      }) as never,
  };
}

/** How a chart's list loads: the chart id, the loading actor, the fallback failure text, and what a load adds to the context. */
export interface ListLoadOptions<TItem, TContext extends ListContext<TItem>, TActor extends string, TInput> {
  /** The chart id (and the name in the "was not provided" error). */
  id: string;
  /** Name of the promise actor that loads the rows (provided from src/). */
  actor: TActor;
  /** Failure text when the error carries none (docs/client.md §11). */
  fallback: string;
  /** The actor's input, from the chart's context (e.g. which list). */
  input?: (context: TContext) => TInput;
  /** Extra context after a load (e.g. close a row that is gone). */
  onLoaded?: (context: TContext, items: TItem[]) => Partial<TContext>;
}

/**
 * The load step for a list, for `listLoader` and for a chart that holds a list beside other
 * states (eventsTab, reviewQueue): `loadStep` whose load sets `items`, through the chart's action
 * `assignItems`.
 */
export function listLoad<TItem, TContext extends ListContext<TItem>, TActor extends string, TInput = void>(o: ListLoadOptions<TItem, TContext, TActor, TInput>) {
  return loadStep<TItem[], TContext, TActor, TInput>({ ...o, onLoaded: (context, items) => ({ ...o.onLoaded?.(context, items), items }) as Partial<TContext> }, 'assignItems');
}

/**
 * One list-loader chart for every list screen (docs/architecture.md §4; the model is
 * cypress-realworld-app's `dataMachine(id)`): `loading` (first load, tag `busy`) → `loaded` or
 * `failed` with the error the actor raised (or `fallback`); `<noun>.reload` from `loaded` reloads
 * in `reloading` (tag `busy`) while the rows stay (or in `loading`: `reloadFrom`); from `failed`
 * it loads again (`retryFrom`). `reloading` exists only where something leads to it.
 * Options add a poll (`pollInterval`, delay `pollInterval`), where a failed reload lands, and the
 * list's own context and events (`extra`, `onLoaded`, `update`).
 */
export function listLoader<
  TItem,
  TActor extends string,
  TReload extends `${string}.reload`,
  TExtra extends object = Record<never, never>,
  TEvent extends EventObject = never,
>(o: ListLoaderOptions<TItem, TExtra, TEvent, TActor, TReload>) {
  type Context = ListContext<TItem> & TExtra;
  const { actors, loaded, failed, load } = listLoad<TItem, Context, TActor>(o);
  const poll = o.pollInterval === undefined ? {} : { after: { pollInterval: 'reloading' as const } };
  // XState cannot check a config whose event names are type parameters, so these pieces are
  // cast; the chart's call sites and tests check them.
  const reloadTo = (target: 'loading' | 'reloading'): never => ({ [o.reload]: target }) as never;
  const ownEvents = Object.fromEntries(
    Object.keys(o.update ?? {}).map((type) => [type, { actions: { type: 'update', params: ({ event }: { event: EventObject }) => event } }]),
  ) as never;
  const reloadFrom = o.reloadFrom ?? 'reloading';
  // `reloading` exists only where something leads to it.
  const reloadingState = { tags: ['busy'], invoke: load({ failed: o.reloadFailure ?? 'failed' }) };
  const reloading = reloadFrom === 'reloading' || o.retryFrom === 'reloading' || o.pollInterval !== undefined;
  return setup({
    types: { context: {} as Context, events: {} as { type: TReload } | TEvent },
    actors,
    delays: { pollInterval: o.pollInterval ?? 0 },
    actions: {
      assignItems: assign(({ context }, items: TItem[]) => loaded(context, items)),
      assignError: assign((_, error: unknown) => failed(error)),
      update: assign(({ context }, event: TEvent) => {
        const reduce = o.update?.[event.type as TEvent['type']] as ((c: Context, e: TEvent) => Partial<Context>) | undefined;
        return (reduce ? reduce(context, event) : {}) as Partial<Context>;
      }),
    },
  }).createMachine({
    id: o.id,
    context: { ...o.extra, items: [], error: null } as Context,
    initial: 'loading',
    on: ownEvents,
    states: {
      loading: { tags: ['busy'], invoke: load() },
      loaded: { ...poll, on: reloadTo(reloadFrom) },
      // typed as present either way, so the chart's state value type stays one for every list
      ...(reloading ? { reloading: reloadingState } : ({} as { reloading: typeof reloadingState })),
      failed: { ...poll, on: reloadTo(o.retryFrom ?? 'loading') },
    },
  });
}

/** What a polled list names: the chart id, its loading actor and reload intent, the fallback failure text, and how often it reloads (ms). */
export type PolledListOptions<TActor extends string, TReload extends `${string}.reload`> = Pick<ListLoaderOptions<never, object, never, TActor, TReload>, 'id' | 'actor' | 'reload' | 'fallback'> & {
  pollInterval: number;
};

/**
 * A list polled while its screen is open that keeps its rows through a failed reload: the
 * list-loader chart reloading every `pollInterval` ms in `reloading` while the rows stay; a
 * failed reload goes back to `loaded` with the error beside the rows and keeps polling; after a
 * failed first load, the poll and `<noun>.reload` load again in `reloading`.
 */
export function polledListLoader<TItem, TActor extends string, TReload extends `${string}.reload`>(o: PolledListOptions<TActor, TReload>) {
  return listLoader<TItem, TActor, TReload>({ ...o, reloadFailure: 'loaded', retryFrom: 'reloading' });
}
