import { createInvite, fetchInvites, revokeInvite } from '../../api/invites';
import { copyText } from '../../base/clipboard';
import type { CreateInviteBody, Invite } from '../../../contract/invite';

/** The calls of the clan page's invites (docs/server.md §18) and the clipboard; tests give fakes. */
export interface InviteEffects {
  loadInvites(clanId: number): Promise<Invite[]>;
  createInvite(clanId: number, body: CreateInviteBody): Promise<Invite>;
  revokeInvite(clanId: number, code: string): Promise<void>;
  /** Puts `text` on the clipboard; rejects when the browser refuses. */
  copyText(text: string): Promise<void>;
}

/** The real calls. */
export const liveInviteEffects: InviteEffects = {
  loadInvites: fetchInvites,
  createInvite,
  revokeInvite,
  copyText,
};
