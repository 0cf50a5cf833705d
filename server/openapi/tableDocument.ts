import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { API_ROUTES, DOCS_ASSETS, SHARED_ANSWER_SCHEMAS, type Access, type ApiRoute, type MultipartBody, type Named, type RawAnswer } from './table';

/**
 * While some routes do not yet describe themselves (server/http/route.ts), their rows of the old
 * route table (server/openapi/table.ts) still give their operations; server/openapi/document.ts
 * adds those the routes' own document lacks. Goes with table.ts once every route describes itself.
 *
 * The OpenAPI 3.1 document of the HTTP API (docs/server.md §14), generated from the route table
 * (server/openapi/table.ts) and the contract's valibot schemas with @valibot/to-json-schema (JSON
 * Schema draft 2020-12, the dialect of OpenAPI 3.1); nothing in it is written by hand but the
 * route summaries. Request bodies and query parameters are converted as the schema's input (what
 * a caller sends, before trimming and other transforms), answers as its output.
 */

/** A JSON object of the document. */
type Json = Record<string, unknown>;

/** Where components live; every named schema is referenced as `#/components/schemas/{name}`. */
const REF = '#/components/schemas/';

/** An id in a path: what IdParamSchema (contract/common.ts) accepts. */
const PATH_ID: Json = { type: 'string', pattern: '^[1-9][0-9]{0,9}$', description: 'A positive whole number (an id).' };

/** How each access level reads in a summary, and which security requirement it has. */
const ACCESS: Record<Access, { text: string; security: Json[] }> = {
  public: { text: 'No sign-in needed.', security: [] },
  'signed-in': { text: 'Signed in (session cookie).', security: [{ session: [] }] },
  member: { text: "Signed in as a member of the clan (401 signed out, 403 otherwise).", security: [{ session: [] }] },
  manager: { text: 'Signed in as an Owner or Admin of the clan (401 signed out, 403 otherwise).', security: [{ session: [] }] },
  owner: { text: 'Signed in as the Owner of the clan (401 signed out, 403 otherwise).', security: [{ session: [] }] },
  operator: { text: 'Loopback callers, or `Authorization: Bearer {METRICS_TOKEN}`; 404 for anyone else.', security: [{}, { metricsToken: [] }] },
};

/** The conversion settings: JSON Schema 2020-12, references into components, `$schema` left out (the document says the dialect). */
function conversion(typeMode: 'input' | 'output'): ConversionConfig {
  return {
    target: 'draft-2020-12',
    typeMode,
    // A refinement JSON Schema cannot say (a cross-field check such as the settings' feasibility
    // rule) is left to the server's 400; the shape around it is still converted.
    errorMode: 'ignore',
    overrideRef: ({ referenceId }) => REF + referenceId,
  };
}

/** A converted schema without its `$schema` key (components and parameters carry none in OpenAPI). */
function bare(schema: JsonSchema): Json {
  const { $schema: _dialect, ...rest } = schema as Json;
  return rest;
}

/** The named schemas of `pick` over the table, one per name (a name used for two schemas is a mistake: it throws). */
function namedSchemas(pick: (route: ApiRoute) => (Named | undefined)[]): Record<string, v.GenericSchema> {
  const out: Record<string, v.GenericSchema> = {};
  for (const route of API_ROUTES) {
    for (const n of pick(route)) {
      if (!n) continue;
      if (out[n.name] && out[n.name] !== n.schema) throw new Error(`Two schemas are named ${n.name} in server/openapi/table.ts`);
      out[n.name] = n.schema;
    }
  }
  return out;
}

const isNamed = (x: Named | RawAnswer | MultipartBody | undefined): x is Named => x !== undefined && 'schema' in x && 'name' in x;

/** The content of an answer: JSON by reference, or the raw media type. */
function content(answer: Named | RawAnswer): Json {
  if (isNamed(answer)) return { 'application/json': { schema: { $ref: REF + answer.name } } };
  return { [answer.contentType]: { schema: answer.schema ?? { type: 'string', contentEncoding: 'binary' } } };
}

/** The OpenAPI operation of one table row. */
function operation(route: ApiRoute, operationId: string): Json {
  const access = ACCESS[route.access];
  const parameters: Json[] = [];
  for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) {
    const schema = name === 'file' ? { type: 'string', enum: [...DOCS_ASSETS] } : PATH_ID;
    parameters.push({ name, in: 'path', required: true, schema });
  }
  for (const [name, q] of Object.entries(route.query ?? {})) {
    parameters.push({ name, in: 'query', required: false, description: q.description, schema: bare(toJsonSchema(q.schema, conversion('input'))) });
  }
  const status = String(route.status ?? 200);
  const responses: Json = {
    [status]: route.answer
      ? { description: isNamed(route.answer) ? route.summary : route.answer.description, content: content(route.answer) }
      : { description: route.status === 204 ? 'Taken (no body).' : 'A redirect (Location header).' },
  };
  for (const [code, other] of Object.entries(route.also ?? {})) {
    responses[code] = other.answer ? { description: other.description, content: content(other.answer) } : { description: other.description };
  }
  if (route.path.startsWith('/api/')) {
    responses['4XX'] = { description: 'Refused: a bad id, query or body (400), signed out (401), not allowed (403), not found (404), a conflict (409), too large (413) or too many requests (429).', content: { 'application/json': { schema: { $ref: `${REF}ErrorBody` } } } };
  }
  const op: Json = {
    operationId,
    tags: [route.tag],
    summary: route.summary,
    description: access.text,
    security: access.security,
    ...(parameters.length ? { parameters } : {}),
    responses,
  };
  if (route.body) {
    op.requestBody = isNamed(route.body)
      ? { required: !route.bodyOptional, content: { 'application/json': { schema: { $ref: REF + route.body.name } } } }
      : { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: route.body.multipart, required: route.body.required } } } };
  }
  return op;
}

/** A readable operation id: method and the path's words, e.g. getApiClanClanIdMembers. */
function operationIdOf(route: ApiRoute): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

let built: Json | null = null;

/**
 * The OpenAPI 3.1 document (built once per process): info, servers (this site), tags, one path
 * item per table path, and components (every named contract schema, the `{"error"}` body, the
 * session cookie and the metrics bearer). Throws when the table names two schemas alike.
 */
export function openApiDocument(): Json {
  if (built) return built;
  const answers = namedSchemas((r) => [isNamed(r.answer) ? r.answer : undefined, ...Object.values(r.also ?? {}).map((a) => (isNamed(a.answer) ? a.answer : undefined))]);
  for (const shared of SHARED_ANSWER_SCHEMAS) answers[shared.name] = shared.schema;
  const bodies = namedSchemas((r) => [isNamed(r.body) ? r.body : undefined]);
  const clash = Object.keys(bodies).find((name) => name in answers);
  if (clash) throw new Error(`${clash} names both a body and an answer in server/openapi/table.ts`);
  const schemas: Json = {
    ErrorBody: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], description: 'Every refusal: `{"error": "<a sentence for people>"}`.' },
  };
  for (const [name, s] of Object.entries(toJsonSchemaDefs(answers, conversion('output')))) schemas[name] = bare(s);
  for (const [name, s] of Object.entries(toJsonSchemaDefs(bodies, conversion('input')))) schemas[name] = bare(s);

  const paths: Record<string, Json> = {};
  for (const route of API_ROUTES) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is twice in server/openapi/table.ts`);
    item[route.method] = operation(route, operationIdOf(route));
  }
  built = {
    openapi: '3.1.0',
    info: {
      title: 'Clan Snakes & Ladders API',
      version: '1',
      description:
        'The HTTP API of the site: JSON under /api, errors `{"error": ...}` with a 4xx status. The live game (Socket.IO at /socket.io) is described in docs/server.md §6. Mutating calls from a browser must come from this site (Origin checked).',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(API_ROUTES.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sid', description: 'The session cookie set by sign-in (httpOnly).' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN, for /metrics from other hosts than loopback.' },
      },
    },
  };
  return built;
}
