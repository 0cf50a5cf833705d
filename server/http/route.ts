/**
 * How a route describes itself (docs/architecture.md §5, docs/server.md §14): its description,
 * its checked inputs and its answers are declared once, in the route's own handler chain, with
 * hono-openapi; GET /api/openapi.json is generated from the app's routes (server/openapi/document.ts),
 * so a route cannot go undocumented and the document cannot drift from the code.
 *
 * Usage (one chain per route; the handler comes last):
 *
 *     app.put(
 *       '/clan/:clanId/name',
 *       describe({ tag: 'clans', access: 'owner', summary: 'Renames the clan.', answer: named('RenameClanAnswer', RenameClanAnswerSchema) }),
 *       input('param', ids({ clanId: 'clan id' })),
 *       input('json', named('RenameClanBody', RenameClanBodySchema)),
 *       async (c) => {
 *         // 401 signed out, then 400 'Invalid clan id.', then 404 / 403 (http/clanScope.ts)
 *         const { user, clanId, db } = await clanScope(c, 'owner');
 *         const { new_name } = valid(c, 'json'); // 400 with the body's refusal here, after the 403
 *         ...
 *
 * - describe(): summary, tag, who may call it (access), the success status and answer (a named
 *   contract schema, or a raw media type), other answers (`also`) and a multipart body.
 * - input(target, schema): 'param' (path ids: ids({...}) gives 'Invalid {label}.'), 'query' or
 *   'json' (a named contract schema; `{optional: true}` takes no body as `{}`). The check runs in
 *   the chain, but a refusal is only answered where the handler reads the input with
 *   valid(c, target): the route's earlier answers (401 signed out, 403, 404 of the path's clan or
 *   event) keep coming first, exactly as they did when handlers read their inputs themselves.
 *   Read inputs with valid(), never c.req.valid() (which would hand back the refusal).
 * - route({ ...description, param, query, json }): describe() and those input()s in one
 *   declaration, spread into the chain (`...route({...})`); the clan, sign-up, team and user routes
 *   declare themselves so, a route needing input()'s options writes the chain out.
 * - Names given with named() become `#/components/schemas/{name}`; a name names one schema only.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { describeRoute, resolver, uniqueSymbol, type DescribeRouteOptions, type ResolverReturnType } from 'hono-openapi';
import * as v from 'valibot';
import type { AppEnv } from './context';
import { ApiError } from '../errors';
import { BODY_NOT_OBJECT, firstIssueMessage, IdParamSchema, isJsonObject } from '../../contract/common';

/** A JSON object of the document. */
type Json = Record<string, unknown>;

/** A named schema: `name` becomes its entry under components.schemas. */
export interface Named<S extends v.GenericSchema = v.GenericSchema> {
  name: string;
  schema: S;
}

/** Shorthand for a named contract schema. */
export const named = <S extends v.GenericSchema>(name: string, schema: S): Named<S> => ({ name, schema });

/** Who may call a route; the route checks it itself (401 signed out, 403 otherwise). */
export type Access =
  | 'public' // no sign-in
  | 'signed-in' // any signed-in user
  | 'member' // a member of the path's clan (any role)
  | 'manager' // an Owner or Admin of the path's clan
  | 'owner' // the Owner of the path's clan
  | 'operator'; // /metrics: loopback callers or `Authorization: Bearer {METRICS_TOKEN}`, else 404

/** An answer that is not JSON: its media type and what it holds. */
export interface RawAnswer {
  contentType: string;
  description: string;
  /** JSON Schema of the content (binary by default). */
  schema?: Json;
}

/** What describe() takes. */
export interface RouteDescription {
  summary: string;
  /** The group the route is listed under (the resource folder of server/). */
  tag: string;
  access: Access;
  /** The success status: 200 unless said. */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The success answer: a named contract schema (JSON) or a raw answer; none for a redirect or a 204. */
  answer?: Named | RawAnswer;
  /** Other answers than the success and the 4xx `{"error"}` (status → description, answer optional). */
  also?: Record<number, { description: string; answer?: Named | RawAnswer }>;
  /** A multipart/form-data body, read by the route itself: each field's JSON Schema and which are required. */
  multipart?: { fields: Record<string, Json>; required: string[] };
  /** False for the root operations (/healthz, /readyz, /metrics), which answer no `{"error"}` 4xx of the API. */
  refusals?: false;
}

/** Where components live; every named schema is referenced as `#/components/schemas/{name}`. */
const REF = '#/components/schemas/';

/** The named answer and body schemas met so far (filled as routes describe themselves; converted when the document is built). */
const ANSWERS: Record<string, v.GenericSchema> = {};
const BODIES: Record<string, v.GenericSchema> = {};

/** The tags in the order routes first name them (the document's tag list). */
export const ROUTE_TAGS: { name: string }[] = [];

/** Adds `n` to `registry`; a name used for two schemas, or for both a body and an answer, is a mistake: it throws. */
function register(registry: Record<string, v.GenericSchema>, other: Record<string, v.GenericSchema>, n: Named): void {
  if ((registry[n.name] && registry[n.name] !== n.schema) || n.name in other) throw new Error(`Two schemas are named ${n.name} in the routes' descriptions`);
  registry[n.name] = n.schema;
}

/**
 * Names answer schemas nested in several answers (so each is written once, as its own component),
 * besides those the routes name. For the API document (server/openapi/document.ts).
 */
export function nameNestedAnswers(...schemas: Named[]): void {
  for (const n of schemas) register(ANSWERS, BODIES, n);
}

/** The contract schema of the answer component `name`, for tests that check real answers with it. */
export function namedAnswer(name: string): v.GenericSchema | undefined {
  return ANSWERS[name];
}

/**
 * The conversion settings of @valibot/to-json-schema (by way of resolver()): JSON Schema 2020-12,
 * the dialect of OpenAPI 3.1, as the schema's input (what a caller sends, before trimming and
 * other transforms) or output (an answer); the named schemas of `definitions` referenced into
 * components. A refinement JSON Schema cannot say (a cross-field check such as the settings'
 * feasibility rule) is left to the server's 400; the shape around it is still converted.
 */
function conversion(typeMode: 'input' | 'output', definitions?: Record<string, v.GenericSchema>): { options: Json } {
  return {
    options: {
      target: 'draft-2020-12',
      typeMode,
      errorMode: 'ignore',
      ...(definitions ? { definitions } : {}),
      overrideRef: ({ referenceId }: { referenceId: string }) => REF + referenceId,
    },
  };
}

const isNamed = (x: Named | RawAnswer): x is Named => 'schema' in x && 'name' in x && typeof x.name === 'string' && !('contentType' in x);

/** The content of an answer: JSON by reference, or the raw media type. */
function content(answer: Named | RawAnswer): Json {
  if (!isNamed(answer)) return { [answer.contentType]: { schema: answer.schema ?? { type: 'string', contentEncoding: 'binary' } } };
  register(ANSWERS, BODIES, answer);
  return { 'application/json': { schema: resolver(answer.schema, conversion('output', ANSWERS)) } };
}

/** How each access level reads in a description, and which security requirement it has. */
const ACCESS: Record<Access, { text: string; security: Json[] }> = {
  public: { text: 'No sign-in needed.', security: [] },
  'signed-in': { text: 'Signed in (session cookie).', security: [{ session: [] }] },
  member: { text: 'Signed in as a member of the clan (401 signed out, 403 otherwise).', security: [{ session: [] }] },
  manager: { text: 'Signed in as an Owner or Admin of the clan (401 signed out, 403 otherwise).', security: [{ session: [] }] },
  owner: { text: 'Signed in as the Owner of the clan (401 signed out, 403 otherwise).', security: [{ session: [] }] },
  operator: { text: 'Loopback callers, or `Authorization: Bearer {METRICS_TOKEN}`; 404 for anyone else.', security: [{}, { metricsToken: [] }] },
};

/** Every /api refusal, as the document lists it beside the success. */
const REFUSALS = {
  description: 'Refused: a bad id, query or body (400), signed out (401), not allowed (403), not found (404), a conflict (409), too large (413) or too many requests (429).',
  content: { 'application/json': { schema: { $ref: `${REF}ErrorBody` } } },
};

/**
 * The route's entry in the API document (hono-openapi's describeRoute): summary, tag, access
 * (as the description and the security requirement), the success answer with its status, other
 * answers, the `{"error"}` 4xx of every /api route and a multipart body. Checks nothing at run
 * time. Throws (when the app is built) for a schema name used twice.
 */
export function describe(d: RouteDescription): MiddlewareHandler {
  const access = ACCESS[d.access];
  if (!ROUTE_TAGS.some((t) => t.name === d.tag)) ROUTE_TAGS.push({ name: d.tag });
  const status = String(d.status ?? 200);
  const responses: Json = {
    [status]: d.answer
      ? { description: isNamed(d.answer) ? d.summary : d.answer.description, content: content(d.answer) }
      : { description: d.status === 204 ? 'Taken (no body).' : 'A redirect (Location header).' },
  };
  for (const [code, other] of Object.entries(d.also ?? {})) {
    responses[code] = other.answer ? { description: other.description, content: content(other.answer) } : { description: other.description };
  }
  if (d.refusals !== false) responses['4XX'] = REFUSALS;
  const spec: Json = { tags: [d.tag], summary: d.summary, description: access.text, security: access.security, responses };
  if (d.multipart) {
    spec.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: d.multipart.fields, required: d.multipart.required } } } };
  }
  return describeRoute(spec as DescribeRouteOptions);
}

/** The parts of a request input() checks. */
type Target = 'json' | 'param' | 'query';

/** The labels of the id schemas made by ids(), for their refusal texts. */
const ID_LABELS = new WeakMap<v.GenericSchema, Record<string, string>>();

/**
 * The path ids of a route, name → label (e.g. `{ clanId: 'clan id' }`): each a positive integer
 * that fits the database's integer column (IdParamSchema of contract/common.ts: 1..ID_MAX), so
 * '12abc', '0' and 9999999999 never reach SQL, where PostgreSQL would fail. Checked by
 * input('param', ...), refused with 400 'Invalid {label}.' for the first bad one in this order.
 * `others` adds path parameters that are not ids (an invite's code), checked by their own schemas
 * after the ids.
 */
export function ids<const K extends string, O extends Record<string, v.GenericSchema> = Record<never, never>>(
  labels: Record<K, string>,
  others?: O,
): v.ObjectSchema<Record<K, typeof IdParamSchema> & O, undefined> {
  const entries = { ...Object.fromEntries(Object.keys(labels).map((k) => [k, IdParamSchema])), ...others } as Record<K, typeof IdParamSchema> & O;
  const schema = v.object(entries);
  ID_LABELS.set(schema, labels);
  return schema;
}

/**
 * A refused input (kept as the target's checked data until valid() reads it).
 * The refusal texts are the API's (docs/server.md §1, §8):
 * - json: 'Request body must be valid JSON.'; an array, null or a primitive: the schema's own
 *   'must be a JSON object' text when it declares one (valibot's object schemas would take an
 *   array as `{}`), else 'Request body must be a JSON object.'; otherwise the schema's first
 *   message, or 'Invalid request body.'
 * - param: 'Invalid {label}.' for ids(), else the schema's first message
 * - query: the schema's first message, or 'Invalid query.'
 */
class Refusal {
  /** param: the path field refused (the first in path order), so checkIds() can leave a trailing id for later. */
  constructor(readonly error: ApiError, readonly key?: string) {}
}

/** Parses the body as JSON whatever its Content-Type says (as the API always has); an empty body is `{}` when `optional`. */
async function readBody(c: Context, optional: boolean): Promise<{ raw: unknown } | null> {
  try {
    const text = await c.req.text();
    return { raw: optional && text.trim() === '' ? {} : JSON.parse(text) };
  } catch {
    return null;
  }
}

/** The target's value, checked with `schema`: its output, or the Refusal to answer. */
async function check(c: Context, target: Target, schema: v.GenericSchema, optional: boolean, status: 400 | 404): Promise<unknown> {
  const refuse = (message: string, key?: string) => new Refusal(new ApiError(status, message), key);
  if (target === 'json') {
    const body = await readBody(c, optional);
    if (!body) return refuse('Request body must be valid JSON.');
    if (!isJsonObject(body.raw)) {
      const own = (schema as { message?: unknown }).message;
      return refuse(typeof own === 'string' && own !== '' ? own : BODY_NOT_OBJECT);
    }
    const result = v.safeParse(schema, body.raw);
    return result.success ? result.output : refuse(firstIssueMessage(result.issues) || 'Invalid request body.');
  }
  const result = v.safeParse(schema, target === 'param' ? c.req.param() : c.req.query());
  if (result.success) return result.output;
  const labels = ID_LABELS.get(schema);
  const key = result.issues[0].path?.[0]?.key;
  if (labels && typeof key === 'string' && key in labels) return refuse(`Invalid ${labels[key]}.`, key);
  return refuse(firstIssueMessage(result.issues) || (target === 'query' ? 'Invalid query.' : 'Invalid request.'));
}

/** What the document says of each field (path ids: what ids() was told), for a query or path schema. */
function withDescriptions(base: ResolverReturnType, schema: v.GenericSchema, about: Record<string, string> | undefined): ResolverReturnType {
  const labels = ID_LABELS.get(schema);
  const texts: Record<string, string> = { ...about };
  for (const [k, label] of Object.entries(labels ?? {})) texts[k] ??= `The ${label}: a positive whole number.`;
  return {
    ...base,
    toOpenAPISchema: async (custom) => {
      const result = await base.toOpenAPISchema(custom);
      const properties = (result.schema as { properties?: Record<string, Json> }).properties ?? {};
      for (const [k, text] of Object.entries(texts)) if (properties[k]) properties[k] = { ...properties[k], description: text };
      return result;
    },
  };
}

/** input()'s options. */
interface InputOptions {
  /** json: no body, an empty one or only whitespace counts as `{}` (the schema's defaults apply). */
  optional?: boolean;
  /** The status of a refusal: 400 unless said (a path naming nothing, e.g. an unknown file, is 404). */
  status?: 400 | 404;
  /** query/param: what each field means, for the document. */
  about?: Record<string, string>;
}

/**
 * Checks one part of the request with a contract schema (the route's validator, documented by
 * hono-openapi as its request body or parameters): 'json' (the body, by a named schema: its
 * component), 'param' (path parameters; ids() for ids) or 'query' (the first value of each query
 * field). The checked value, or its refusal (see Refusal), is read with valid(c, target).
 * hono-openapi's own validator is not used because it answers a refusal at once, with its own
 * body, and reads a body as JSON only under a JSON Content-Type; the document is made the same way
 * (its resolver() and middleware marker).
 */
export function input<T extends Target, S extends v.GenericSchema, P extends string = string>(
  target: T,
  schema: S | Named<S>,
  options: InputOptions = {},
): MiddlewareHandler<AppEnv, P, { out: { [K in T]: v.InferOutput<S> } }> {
  const given = '~standard' in schema ? { schema } : schema;
  const s: S = given.schema;
  const name = 'name' in given ? given.name : undefined;
  const optional = options.optional === true;
  const status = options.status ?? 400;
  const middleware: MiddlewareHandler<AppEnv, P, { out: { [K in T]: v.InferOutput<S> } }> = async (c, next) => {
    c.req.addValidatedData(target, (await check(c, target, s, optional, status)) as object);
    await next();
  };
  let marker: Json;
  if (target === 'json') {
    if (name) register(BODIES, ANSWERS, { name, schema: s });
    const body = resolver(s, conversion('input', name ? BODIES : undefined));
    marker = { spec: { requestBody: { required: !optional, content: { 'application/json': { schema: body } } } } };
  } else {
    const options_ = conversion('input');
    marker = { target, ...withDescriptions(resolver(s, options_), s, options.about), options: options_ };
  }
  return Object.assign(middleware, { [uniqueSymbol]: marker });
}

/**
 * Answers now a refusal of the path ids named in `first` (400 'Invalid {label}.'), and leaves a
 * refusal of a later id (a sign-up's, an IGN's, a submission's) to valid(c, 'param'), which the
 * route calls after its access checks: a trailing id has always been checked after the clan and
 * event were (a non-member's bad sign-up id is 403, an unknown clan's 404, as before).
 */
export function checkIds(c: Context, first: readonly string[]): void {
  const data: unknown = c.req.valid('param' as never);
  if (data instanceof Refusal && (data.key === undefined || first.includes(data.key))) throw data.error;
}

/**
 * The checked `target` of the request (input()'s output), or its refusal raised here as the
 * ApiError input() made (answered by app.onError as `{"error": ...}` with its status).
 */
export function valid<O extends object, T extends keyof O & Target>(c: Context<AppEnv, string, { out: O }>, target: T): O[T] {
  const data: unknown = c.req.valid(target as never);
  if (data instanceof Refusal) throw data.error;
  return data as O[T];
}

/** What route() takes: the route's description and its checked inputs (none of them needed). */
export interface RouteDeclaration<P extends v.GenericSchema, Q extends v.GenericSchema, J extends v.GenericSchema> extends RouteDescription {
  /** The path parameters, as input('param', ...) takes them (ids() for ids). */
  param?: P;
  /** The query, as input('query', ...) takes it. */
  query?: Q;
  /** The JSON body: a named contract schema, as input('json', ...) takes it. */
  json?: Named<J>;
}

/** The checked inputs a route's handler reads with valid(): only those its declaration names. */
type DeclaredInputs<D> = (D extends { param: infer P extends v.GenericSchema } ? { param: v.InferOutput<P> } : object) &
  (D extends { query: infer Q extends v.GenericSchema } ? { query: v.InferOutput<Q> } : object) &
  (D extends { json: Named<infer J> } ? { json: v.InferOutput<J> } : object);

/** Stands where route() declares no input of a kind, so its chain keeps one length. */
const noInput: MiddlewareHandler = async (_c, next) => {
  await next();
};

/**
 * One route's description and checked inputs in one declaration, spread into its chain before the
 * handler: `app.put(path, ...route({ tag, access, summary, answer, param: ids({...}), json: named(...) }), async (c) => ...)`.
 * The same as describe(d) followed by input('param', d.param), input('query', d.query) and
 * input('json', d.json) for those given (in that order), so the document and the refusals are
 * exactly theirs; a route whose inputs need input()'s options (an optional body, a 404 refusal,
 * query texts) writes its chain out instead. Throws as describe() does.
 */
export function route<P extends v.GenericSchema, Q extends v.GenericSchema, J extends v.GenericSchema, D extends RouteDeclaration<P, Q, J>>(
  d: D & RouteDeclaration<P, Q, J>,
): [MiddlewareHandler, MiddlewareHandler, MiddlewareHandler, MiddlewareHandler<AppEnv, string, { out: DeclaredInputs<D> }>] {
  const { param, query, json, ...description } = d;
  return [
    describe(description),
    param ? input('param', param) : noInput,
    query ? input('query', query) : noInput,
    (json ? input('json', json) : noInput) as MiddlewareHandler<AppEnv, string, { out: DeclaredInputs<D> }>,
  ];
}
