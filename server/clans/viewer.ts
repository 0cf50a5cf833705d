import type { Db } from '../db/schema';
import { isManagerRole, type ClanRole } from '../../contract/user';
import type { ClanMember } from '../../contract/clan';
import type { EligibleMember, TeamMember, TeamRole } from '../../contract/team';
import type { Signup } from '../../contract/signup';

// ---------------------------------------------------------------------------------------------
// What members see of each other (docs/server.md §18, "What members see"): every answer that
// names a person is made here, by one function per shape, from the row as stored and the viewer.
// The repositories' exported readers take the viewer and answer only these shapes, so a route
// cannot hand out a stored row as it is.
// ---------------------------------------------------------------------------------------------

/** Who asks: the signed-in user and their role in the clan the answer is about (clanScope, eventScope). */
export interface Viewer {
  user: { id: number };
  role: ClanRole;
}

/** A viewer with what they may read of the people of one answer. */
export interface ViewerScope {
  userId: number;
  /** An Owner or Admin of the answer's clan: last_login, a sign-up's note and score. */
  managesClan: boolean;
  /** The people of the answer whose discord_id the viewer may read: themself and those in a clan the viewer manages. */
  discordOf: ReadonlySet<number>;
}

/** Ids per query: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 1000;

/**
 * The scope of `viewer` over the people `subjectIds` of one answer: discord_id is answered to the
 * user themself and to the managers (Owner, Admin) of a clan they are both in, whichever clan that
 * is (one query per 1,000 people).
 */
export async function viewerScope(db: Db, viewer: Viewer, subjectIds: readonly number[]): Promise<ViewerScope> {
  const discordOf = new Set<number>([viewer.user.id]);
  const others = [...new Set(subjectIds)].filter((id) => id !== viewer.user.id);
  for (let i = 0; i < others.length; i += CHUNK) {
    const rows = await db.selectFrom('clan_memberships as mine')
      .innerJoin('clan_memberships as theirs', 'theirs.clan_id', 'mine.clan_id')
      .select('theirs.user_id')
      .distinct()
      .where('mine.user_id', '=', viewer.user.id)
      .where('mine.role', 'in', ['Owner', 'Admin'])
      .where('theirs.user_id', 'in', others.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) discordOf.add(r.user_id);
  }
  return { userId: viewer.user.id, managesClan: isManagerRole(viewer.role), discordOf };
}

/** The person's discord_id as the scope allows it: null when hidden or when they have none. */
function discordIdFor(scope: ViewerScope, userId: number, discordId: string | null): string | null {
  return scope.discordOf.has(userId) ? discordId : null;
}

/** A members-list row as stored. */
export interface ClanMemberRow {
  member_id: number;
  username: string;
  role: string;
  joined_at: string;
  last_login: string | null;
  clan_name: string;
  discord_id: string | null;
}

/** A members-list row as answered: last_login to the clan's managers and in one's own row only. */
export function clanMemberView(r: ClanMemberRow, scope: ViewerScope): ClanMember {
  return {
    member_id: r.member_id,
    username: r.username,
    role: r.role as ClanRole,
    joined_at: r.joined_at,
    last_login: scope.managesClan || r.member_id === scope.userId ? r.last_login : null,
    clan_name: r.clan_name,
    discord_id: discordIdFor(scope, r.member_id, r.discord_id),
  };
}

/** A team member as stored, with the IGN's user. */
export interface TeamMemberRow {
  id: number;
  osrs_ign: string;
  osrs_ign_id: number;
  role: string;
  user_id: number;
  discord_id: string | null;
}

/** A team member as answered. */
export function teamMemberView(r: TeamMemberRow, scope: ViewerScope): TeamMember {
  return { id: r.id, osrs_ign: r.osrs_ign, osrs_ign_id: r.osrs_ign_id, role: r.role as TeamRole, discord_id: discordIdFor(scope, r.user_id, r.discord_id) };
}

/** An eligible member as gathered, with the stored discord_id. */
export interface EligibleMemberRow extends Omit<EligibleMember, 'discord_id'> {
  discord_id: string | null;
}

/** An eligible member as answered. */
export function eligibleMemberView(r: EligibleMemberRow, scope: ViewerScope): EligibleMember {
  return { discord_id: discordIdFor(scope, r.user_id, r.discord_id), discord_username: r.discord_username, user_id: r.user_id, osrs_accounts: r.osrs_accounts };
}

/** A sign-up as stored, with its note and its user's discord_id. */
export interface SignupRow extends Omit<Signup, 'note' | 'discord_id'> {
  note: string;
  discord_id: string | null;
}

/**
 * A sign-up as answered: its note and score (with where the score came from) to its owner and
 * the clan's managers only, null to other members.
 */
export function signupView(r: SignupRow, scope: ViewerScope): Signup {
  const full = scope.managesClan || r.user_id === scope.userId;
  return {
    id: r.id,
    event_id: r.event_id,
    user_id: r.user_id,
    username: r.username,
    discord_id: discordIdFor(scope, r.user_id, r.discord_id),
    osrs_ign_id: r.osrs_ign_id,
    ign: r.ign,
    wants_leader: r.wants_leader,
    note: full ? r.note : null,
    score: full ? r.score : null,
    score_source: full ? r.score_source : null,
    team_id: r.team_id,
    created_at: r.created_at,
  };
}
