/** One HTTP answer: status and parsed JSON body (or text when not JSON). */
export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A cookie-keeping HTTP client for API tests: one per simulated person. Sends the server's own
 * origin on mutating calls, as a browser would on the same site.
 */
export class ApiClient {
  cookies = new Map<string, string>();
  constructor(public base: string) {}

  /** Sends `method path` with an optional JSON body (or a FormData), keeping cookies. */
  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      h['content-type'] ??= 'application/json';
    }
    if (method !== 'GET' && !('origin' in h)) h.origin = this.base;
    const res = await fetch(this.base + path, { method, headers: h, body: payload, redirect: 'manual' });
    this.keepCookies(res.headers);
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  /** Stores Set-Cookie headers; an expired or empty cookie is removed. */
  keepCookies(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim()) || /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get<T = any>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body ?? {});
  }
  put<T = any>(path: string, body?: unknown) {
    return this.call<T>('PUT', path, body ?? {});
  }
  del<T = any>(path: string) {
    return this.call<T>('DELETE', path);
  }

  /** Development sign-in as `username`; throws unless 200. */
  async devLogin(username: string): Promise<this> {
    const r = await this.post('/api/auth/dev', { username });
    if (r.status !== 200) throw new Error(`dev login failed: ${r.status} ${JSON.stringify(r.body)}`);
    return this;
  }

  /** Dev sign-in plus onboarding with `igns` and a clan choice; returns the profile. */
  async onboard(username: string, igns: string[], clan_setup: Record<string, unknown> = { role: 'None' }): Promise<any> {
    await this.devLogin(username);
    const r = await this.post('/api/user/setup', { igns, clan_setup });
    if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${JSON.stringify(r.body)}`);
    return (await this.get('/api/user/me')).body;
  }
}
