import crypto from 'node:crypto';
import type http from 'node:http';
import { StandInServer } from './standIn';

/** A push as the stand-in received it: the decrypted payload and the headers that matter. */
export interface ReceivedPush {
  /** The subscription's name given to subscription(). */
  name: string;
  payload: { title: string; body: string; url: string; tag: string };
  ttl: string | undefined;
  encoding: string | undefined;
  at: number;
}

/** What the stand-in answers a push of one subscription: a status, or 'hang' (never answers). */
export type PushAnswer = number | 'hang';

interface StandInSubscription {
  name: string;
  ecdh: crypto.ECDH;
  auth: Buffer;
  /** Answers to give to the next pushes, in order; 201 once they are used. */
  answers: PushAnswer[];
}

/** HMAC-SHA-256 of `data` under `key`. */
const hmac = (key: Buffer, ...data: Buffer[]) => crypto.createHmac('sha256', key).update(Buffer.concat(data)).digest();

/**
 * A push service stand-in (docs/server.md §20): receives Web Push POSTs on
 * `{url}/push/{n}`, checks the VAPID authorisation (RFC 8292: `vapid t={JWT}, k={key}`, the JWT
 * ES256-signed with that key, `aud` this origin, `exp` in the future; 401 otherwise), decrypts the
 * RFC 8291 aes128gcm body with the subscription's private key and auth secret, and keeps what it
 * got. Each subscription can be told what to answer next (410, 503, 'hang').
 */
export class PushStandIn extends StandInServer {
  readonly received: ReceivedPush[] = [];
  /** Refusals the stand-in made (a bad JWT or body): a test expects none. */
  readonly refused: string[] = [];
  /** Every request, answered or not, by subscription name. */
  readonly hits: string[] = [];
  private readonly subs = new Map<string, StandInSubscription>();
  private serial = 0;

  /** A new subscription on this stand-in: its JSON as a browser gives it. */
  subscription(name: string): { endpoint: string; keys: { p256dh: string; auth: string } } {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    const path = `/push/${++this.serial}-${crypto.randomBytes(6).toString('hex')}`;
    this.subs.set(path, { name, ecdh, auth, answers: [] });
    return { endpoint: this.url + path, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
  }

  /** The next answers to pushes of `endpoint`'s subscription. */
  answerNext(endpoint: string, ...answers: PushAnswer[]): void {
    this.subs.get(new URL(endpoint).pathname)!.answers.push(...answers);
  }

  /** The pushes `name` received. */
  of(name: string): ReceivedPush[] {
    return this.received.filter((r) => r.name === name);
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const sub = this.subs.get(req.url ?? '');
    if (req.method !== 'POST' || !sub) return this.json(res, 404, { error: 'unknown subscription' });
    this.hits.push(sub.name);
    const answer = sub.answers.shift() ?? 201;
    if (answer === 'hang') return; // never answered; the sender's 5 s timeout ends it
    const problem = this.checkVapid(req.headers.authorization);
    if (problem) {
      this.refused.push(problem);
      return this.json(res, 401, { error: problem });
    }
    if (answer !== 201) return this.json(res, answer, { error: `told to answer ${answer}` });
    try {
      const payload = JSON.parse(decrypt(Buffer.concat(chunks), sub.ecdh, sub.auth).toString('utf8'));
      this.received.push({ name: sub.name, payload, ttl: req.headers.ttl as string | undefined, encoding: req.headers['content-encoding'], at: Date.now() });
      res.writeHead(201);
      res.end();
    } catch (err) {
      this.refused.push(`decrypt: ${(err as Error).message}`);
      this.json(res, 400, { error: 'bad body' });
    }
  }

  /** Why the Authorization header is not a valid VAPID one for this origin, or null. */
  private checkVapid(header: string | undefined): string | null {
    const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!m) return `no vapid authorization: ${header}`;
    const [h, p, s] = m[1].split('.');
    const raw = Buffer.from(m[2], 'base64url');
    if (raw.length !== 65 || raw[0] !== 4) return 'bad vapid key';
    const key = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
    const ok = crypto.verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s ?? '', 'base64url'));
    if (!ok) return 'bad signature';
    const header_ = JSON.parse(Buffer.from(h, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    if (header_.alg !== 'ES256') return 'not ES256';
    if (claims.aud !== this.url) return `aud ${claims.aud}`;
    if (!(claims.exp > Date.now() / 1000)) return 'expired';
    if (typeof claims.sub !== 'string') return 'no sub';
    return null;
  }
}

/** Decrypts an RFC 8291 aes128gcm body (one record) with the user agent's key pair and auth secret. */
function decrypt(body: Buffer, ecdh: crypto.ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const uaPublic = ecdh.getPublicKey();
  const secret = ecdh.computeSecret(asPublic);
  const prkKey = hmac(auth, secret);
  const ikm = hmac(prkKey, Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1]));
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1])).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1])).subarray(0, 12);
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('no last-record delimiter');
  return plain.subarray(0, end);
}
