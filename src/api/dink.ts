import { OkSchema } from '../../contract/common';
import { DinkAccountsAnswerSchema, DinkLinkAnswerSchema, DinkRecentAnswerSchema, type DinkAccount, type DinkLink, type DinkPost } from '../../contract/dink';
import { request } from './client';

/**
 * The Dink calls of docs/server.md §13 (managers), one function per endpoint, answers parsed
 * with contract/dink.ts schemas; failures raise ApiRequestError with the server's `error` text
 * (or a fallback).
 */

const dinkPath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/dink`;

/** GET .../dink → the event's Dink link `{url, auto_approve, created_at}`, or null when none is made. */
export async function fetchDinkLink(clanId: number, eventId: number): Promise<DinkLink | null> {
  return (await request(DinkLinkAnswerSchema, (h) => h.get(dinkPath(clanId, eventId)), 'Failed to load the Dink link.')).dink;
}

/** POST .../dink → a new link (makes the first, or rotates: the old URL answers 404 at once). */
export async function createDinkLink(clanId: number, eventId: number): Promise<DinkLink> {
  const answer = await request(DinkLinkAnswerSchema, (h) => h.post(dinkPath(clanId, eventId)), 'Failed to make the Dink link.');
  if (!answer.dink) throw new Error('The server sent an answer this page cannot read.');
  return answer.dink;
}

/** PUT .../dink {auto_approve} → the link with the setting saved. */
export async function saveDinkAutoApprove(clanId: number, eventId: number, autoApprove: boolean): Promise<DinkLink> {
  const answer = await request(DinkLinkAnswerSchema, (h) => h.put(dinkPath(clanId, eventId), { json: { auto_approve: autoApprove } }), 'Failed to save the auto-approve setting.');
  if (!answer.dink) throw new Error('The server sent an answer this page cannot read.');
  return answer.dink;
}

/** DELETE .../dink: revokes the link (its URL answers 404 at once). */
export async function revokeDinkLink(clanId: number, eventId: number): Promise<void> {
  await request(DinkLinkAnswerSchema, (h) => h.delete(dinkPath(clanId, eventId)), 'Failed to revoke the Dink link.');
}

/** GET .../dink/recent → the last 200 posts to the link, newest first, each with its outcome. */
export async function fetchDinkPosts(clanId: number, eventId: number): Promise<DinkPost[]> {
  return (await request(DinkRecentAnswerSchema, (h) => h.get(`${dinkPath(clanId, eventId)}/recent`), 'Failed to load the recent Dink posts.')).posts;
}

/** GET .../dink/accounts → the account pinned for each IGN on the event's teams (hash prefix, when, posts), by IGN. */
export async function fetchDinkAccounts(clanId: number, eventId: number): Promise<DinkAccount[]> {
  return (await request(DinkAccountsAnswerSchema, (h) => h.get(`${dinkPath(clanId, eventId)}/accounts`), 'Failed to load the pinned Dink accounts.')).accounts;
}

/** DELETE .../dink/accounts/{ignId}: clears the IGN's pin (its next post with a hash pins again); 404 for an IGN not on a team. */
export async function clearDinkAccount(clanId: number, eventId: number, ignId: number): Promise<void> {
  await request(OkSchema, (h) => h.delete(`${dinkPath(clanId, eventId)}/accounts/${ignId}`), 'Failed to clear the pinned Dink account.');
}
