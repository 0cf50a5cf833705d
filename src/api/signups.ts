import { request, withNetworkMessage } from './client';
import { fetchTeams } from './teams';
import { OkSchema } from '../../contract/common';
import type { Signup } from '../../contract/signup';
import {
  ApplyAnswerSchema,
  BalanceAnswerSchema,
  ScoreImportAnswerSchema,
  SignupAnswerSchema,
  SignupListSchema,
  WomProgressSchema,
  type BalanceAnswer,
  type ListedSignup,
  type ScoreImportAnswer,
  type SignupBody,
  type WomMetric,
  type WomProgress,
} from '../../contract/signupApi';

const signupsPath = (clanId: number, eventId: number) => `clan/${clanId}/events/${eventId}/signups`;

/** GET .../signups → the event's sign-ups, oldest first (docs/server.md §16). Fallback 'Failed to fetch sign-ups.' */
async function fetchSignups(clanId: number, eventId: number): Promise<Signup[]> {
  const answer = await withNetworkMessage(request(SignupListSchema, (h) => h.get(signupsPath(clanId, eventId)), 'Failed to fetch sign-ups.'), 'Network error fetching sign-ups.');
  return answer.signups;
}

/** The event's sign-ups with the names of their teams (two calls: the sign-ups and the teams, docs/server.md §3, §16). */
export async function fetchListedSignups(clanId: number, eventId: number): Promise<ListedSignup[]> {
  const [signups, teams] = await Promise.all([fetchSignups(clanId, eventId), fetchTeams(clanId, eventId)]);
  const names = new Map(teams.map((t) => [t.id, t.name]));
  return signups.map((s) => ({ ...s, team_name: s.team_id === null ? null : (names.get(s.team_id) ?? null) }));
}

/** POST .../signups {osrs_ign_id, wants_leader, note} → {signup}. Fallback 'Failed to sign up.' */
export function signUp(clanId: number, eventId: number, body: SignupBody): Promise<Signup> {
  return request(SignupAnswerSchema, (h) => h.post(signupsPath(clanId, eventId), { json: body }), 'Failed to sign up.').then((a) => a.signup);
}

/** DELETE .../signups/{id} → {ok: true}. Fallback 'Failed to withdraw the sign-up.' */
export function withdrawSignup(clanId: number, eventId: number, signupId: number): Promise<unknown> {
  return request(OkSchema, (h) => h.delete(`${signupsPath(clanId, eventId)}/${signupId}`), 'Failed to withdraw the sign-up.');
}

/** PUT .../signups/{id} {score} (managers) → {signup}. Fallback 'Failed to save the score.' */
export function saveScore(clanId: number, eventId: number, signupId: number, score: number | null): Promise<Signup> {
  return request(SignupAnswerSchema, (h) => h.put(`${signupsPath(clanId, eventId)}/${signupId}`, { json: { score } }), 'Failed to save the score.').then((a) => a.signup);
}

/** POST .../signups/scores, multipart `file` (CSV ign,score) → {updated_count, errors}. Fallback 'Failed to import scores.' */
export function uploadScores(clanId: number, eventId: number, file: File): Promise<ScoreImportAnswer> {
  const form = new FormData();
  form.append('file', file, file.name);
  return request(ScoreImportAnswerSchema, (h) => h.post(`${signupsPath(clanId, eventId)}/scores`, { body: form }), 'Failed to import scores.');
}

/** POST .../signups/scores/wom {metric} → 202 with the progress. Fallback 'Failed to start the Wise Old Man fetch.' */
export function startWomFetch(clanId: number, eventId: number, metric: WomMetric): Promise<WomProgress> {
  return request(WomProgressSchema, (h) => h.post(`${signupsPath(clanId, eventId)}/scores/wom`, { json: { metric } }), 'Failed to start the Wise Old Man fetch.');
}

/** GET .../signups/scores/wom → {total, done, errors}. Fallback 'Failed to read the Wise Old Man progress.' */
export function fetchWomProgress(clanId: number, eventId: number): Promise<WomProgress> {
  return request(WomProgressSchema, (h) => h.get(`${signupsPath(clanId, eventId)}/scores/wom`), 'Failed to read the Wise Old Man progress.');
}

/** POST .../teams/balance {team_count} → {proposal}, changing nothing. Fallback 'Failed to balance teams.' */
export function proposeTeams(clanId: number, eventId: number, teamCount: number): Promise<BalanceAnswer['proposal']> {
  return request(BalanceAnswerSchema, (h) => h.post(`clan/${clanId}/events/${eventId}/teams/balance`, { json: { team_count: teamCount } }), 'Failed to balance teams.').then((a) => a.proposal);
}

/** POST .../teams/balance/apply {proposal} → {created_team_ids, placed_count}. Fallback 'Failed to apply the teams.' */
export function applyProposal(clanId: number, eventId: number, proposal: BalanceAnswer['proposal']): Promise<{ created_team_ids: number[]; placed_count: number }> {
  return request(ApplyAnswerSchema, (h) => h.post(`clan/${clanId}/events/${eventId}/teams/balance/apply`, { json: { proposal } }), 'Failed to apply the teams.');
}
