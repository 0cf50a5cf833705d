import { approveJoinRequest, denyJoinRequest, fetchJoinRequests, saveClanSettings, withdrawJoinRequest } from '../../api/joins';
import { openGameSocket, type GameSocketLike } from '../../realtime/gameSocket';
import type { ClanMember } from '../../../contract/clan';
import type { ClanJoinRequest, ClanSettings, ClanSettingsBody } from '../../../contract/joins';

/** The calls of the joining screens (docs/server.md §18); tests give fakes. */
export interface JoinEffects {
  loadJoinRequests(clanId: number): Promise<ClanJoinRequest[]>;
  approve(clanId: number, requestId: number): Promise<ClanMember>;
  deny(clanId: number, requestId: number, reason: string): Promise<void>;
  saveSettings(clanId: number, body: ClanSettingsBody): Promise<ClanSettings>;
  withdraw(requestId: number): Promise<void>;
  /** Opens the socket the live count comes over (a lease on the tab's one socket). */
  openSocket(): GameSocketLike;
}

/** The real calls. */
export const liveJoinEffects: JoinEffects = {
  loadJoinRequests: fetchJoinRequests,
  approve: approveJoinRequest,
  deny: denyJoinRequest,
  saveSettings: saveClanSettings,
  withdraw: withdrawJoinRequest,
  openSocket: openGameSocket,
};
