import crypto from 'node:crypto';
import type http from 'node:http';
import { StandInServer } from './standIn';

/**
 * A local stand-in for Discord's OAuth2 endpoints (authorize, token and users/@me;
 * docs/server.md §2), shared by the API test of the redirect
 * chain and the browser test of the sign-in.
 */
export const CLIENT_ID = 'stand-in-client-1234';
export const CLIENT_SECRET = 'stand-in-secret-5678';

/** A Discord user as users/@me answers it. */
export interface DiscordUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
}

/** What the stand-in saw of one token request, for the test to inspect. */
export interface TokenCall {
  credentials: 'basic' | 'body' | 'none';
  ok: boolean;
  problem: string | null;
}

/**
 * A local stand-in for Discord's OAuth2 endpoints:
 * - GET /oauth2/authorize: remembers the request (client_id, redirect_uri, code_challenge …),
 *   issues a one-time code and redirects to redirect_uri with that code and the same state
 * - POST /api/oauth2/token: checks grant_type, the code (known, unused), redirect_uri, the client
 *   credentials (HTTP basic or body) and that sha256(code_verifier) is the code_challenge it saw;
 *   answers a bearer token, or 400/401 `{"error": ...}` (always 400 when `failToken` is on)
 * - GET /api/users/@me: checks the bearer token and answers `user`
 */
export class DiscordStandIn extends StandInServer {
  user: DiscordUser = { id: '80351110224678912', username: 'nelly', global_name: 'Nelly the Great', avatar: '8342729096ea3675442027381ff50dfe' };
  failToken = false;
  /** When on, authorize sends the browser back with a state of its own (a forged callback). */
  forgeState = false;
  authorizeCalls: URLSearchParams[] = [];
  tokenCalls: TokenCall[] = [];
  userCalls = 0;
  private codes = new Map<string, { challenge: string; method: string; redirectUri: string; clientId: string; used: boolean }>();
  private tokens = new Set<string>();

  /** An outage (`fault`) hits Discord's API only (token and users/@me); authorize still answers. */
  protected async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (url.pathname.startsWith('/api/') && this.answerFault(res, { message: '500: Internal Server Error', code: 0 })) return;
    if (req.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const q = url.searchParams;
      this.authorizeCalls.push(q);
      const redirectUri = q.get('redirect_uri') ?? '';
      const code = crypto.randomBytes(12).toString('hex');
      this.codes.set(code, {
        challenge: q.get('code_challenge') ?? '',
        method: q.get('code_challenge_method') ?? '',
        redirectUri,
        clientId: q.get('client_id') ?? '',
        used: false,
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', this.forgeState ? 'forged-state' : (q.get('state') ?? ''));
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/oauth2/token') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const call: TokenCall = { credentials: 'none', ok: false, problem: null };
      this.tokenCalls.push(call);
      const refuse = (status: number, error: string, problem: string) => {
        call.problem = problem;
        this.json(res, status, { error, error_description: problem });
      };
      let clientId = form.get('client_id');
      let secret = form.get('client_secret');
      const auth = req.headers.authorization ?? '';
      if (auth.startsWith('Basic ')) {
        const [id, pw] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
        call.credentials = 'basic';
        clientId = decodeURIComponent(id);
        secret = decodeURIComponent(pw ?? '');
      } else if (secret !== null) {
        call.credentials = 'body';
      }
      if (this.failToken) return refuse(400, 'invalid_grant', 'told to fail');
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return refuse(400, 'invalid_request', 'not a form body');
      if (clientId !== CLIENT_ID || secret !== CLIENT_SECRET) return refuse(401, 'invalid_client', 'bad client credentials');
      if (form.get('grant_type') !== 'authorization_code') return refuse(400, 'unsupported_grant_type', 'grant_type');
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.used) return refuse(400, 'invalid_grant', 'unknown or used code');
      code.used = true;
      if (code.clientId !== clientId) return refuse(400, 'invalid_grant', 'code issued to another client');
      if (form.get('redirect_uri') !== code.redirectUri) return refuse(400, 'invalid_grant', 'redirect_uri mismatch');
      const verifier = form.get('code_verifier') ?? '';
      const hashed = crypto.createHash('sha256').update(verifier).digest('base64url');
      if (code.method !== 'S256' || !verifier || hashed !== code.challenge) return refuse(400, 'invalid_grant', 'PKCE verifier does not match');
      const token = crypto.randomBytes(16).toString('hex');
      this.tokens.add(token);
      call.ok = true;
      this.json(res, 200, { access_token: token, token_type: 'Bearer', expires_in: 604800, refresh_token: 'refresh-' + token, scope: 'identify' });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/api/users/@me') {
      this.userCalls++;
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !this.tokens.has(auth.slice(7))) return this.json(res, 401, { message: '401: Unauthorized', code: 0 });
      this.json(res, 200, { ...this.user, discriminator: '0' });
      return;
    }
    this.json(res, 404, { message: 'not found' });
  }
}
