import * as v from 'valibot';
import { typedTextSchema } from './text';

/**
 * Who may join a clan and how (docs/server.md §18 "Joining"): the clan's settings, the join
 * answers, join requests and their texts, shared by the server's routes and the client's screens.
 */

/** How a clan takes new members: `open` joins at once, `request` waits for a manager, `invite` only with an invite. */
export const JOIN_POLICIES = ['open', 'request', 'invite'] as const;
export type JoinPolicy = (typeof JOIN_POLICIES)[number];

/** POST /api/clan/{clanId}/join without an IGN (409). */
export const LINK_IGN_FIRST = 'Link an IGN first.';
/** A second request while one is pending (409). */
export const ALREADY_ASKED = 'You have already asked to join this clan.';
/** Joining an `invite` clan without an invite (403), also by onboarding. */
export const INVITE_ONLY = 'This clan takes new members by invitation only.';
/** Joining a clan one is a member of already (409). */
export const ALREADY_MEMBER = 'You are already a member of this clan.';
/** Approving, denying or withdrawing a request that was decided or withdrawn meanwhile (409). */
export const NOT_PENDING = 'This join request is no longer pending.';
/** Longest deny reason, in characters after the text rule. */
export const JOIN_REASON_MAX = 300;

/** The clan's own settings, in the members answer and the settings answer. */
export const ClanSettingsSchema = v.object({
  id: v.number(),
  name: v.string(),
  join_policy: v.picklist(JOIN_POLICIES),
  listed: v.boolean(),
});
export type ClanSettings = v.InferOutput<typeof ClanSettingsSchema>;

/** PUT /api/clan/{clanId}/settings body: either field may be left out; bad values are refused with these texts (400). */
export const ClanSettingsBodySchema = v.object({
  join_policy: v.optional(v.picklist(JOIN_POLICIES, 'join_policy must be one of open, request or invite.')),
  listed: v.optional(v.boolean('listed must be true or false.')),
});
export type ClanSettingsBody = v.InferOutput<typeof ClanSettingsBodySchema>;

/** PUT /api/clan/{clanId}/settings answer: the clan as it now is. */
export const ClanSettingsAnswerSchema = v.object({ clan: ClanSettingsSchema });

/** A membership as a join answers it. */
export const JoinMembershipSchema = v.object({ clan_id: v.number(), name: v.string(), role: v.literal('Member'), joined_at: v.string() });

/** The statuses a join request can have; a withdrawn request is gone. */
const JOIN_REQUEST_STATUSES = ['pending', 'approved', 'denied'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];

/** A join request as its asker sees it (the 202 of a join, and GET /api/user/me's `join_requests`). */
export const OwnJoinRequestSchema = v.object({
  id: v.number(),
  clan_id: v.number(),
  clan_name: v.string(),
  status: v.picklist(JOIN_REQUEST_STATUSES),
  reason: v.nullable(v.string()),
  created_at: v.string(),
});
export type OwnJoinRequest = v.InferOutput<typeof OwnJoinRequestSchema>;

/** A new request as POST .../join and setup answer it: pending, with no reason field. */
export const NewJoinRequestSchema = v.object({
  id: v.number(),
  clan_id: v.number(),
  clan_name: v.string(),
  status: v.literal('pending'),
  created_at: v.string(),
});

/** POST /api/clan/{clanId}/join answers: 201 a membership (open clan) or 202 a join request (request clan). */
export const JoinAnswerSchema = v.union([
  v.object({ membership: JoinMembershipSchema }),
  v.object({ join_request: NewJoinRequestSchema }),
]);
export type JoinAnswer = v.InferOutput<typeof JoinAnswerSchema>;

/** A pending request as the clan's managers see it. */
const ClanJoinRequestSchema = v.object({
  id: v.number(),
  user_id: v.number(),
  username: v.string(),
  igns: v.array(v.string()),
  created_at: v.string(),
});
export type ClanJoinRequest = v.InferOutput<typeof ClanJoinRequestSchema>;

/** GET /api/clan/{clanId}/join-requests answer: the pending ones, oldest first (ties by id). */
export const ClanJoinRequestsAnswerSchema = v.object({ join_requests: v.array(ClanJoinRequestSchema) });

/** POST .../join-requests/{id}/deny body: an optional reason (text rule, at most 300 characters; empty means none). */
export const DenyJoinBodySchema = v.object({
  reason: v.optional(
    v.nullable(
      typedTextSchema({
        label: 'Reason',
        field: 'reason',
        multiline: true,
        required: 'Reason must be text.',
        min: 0,
        max: JOIN_REASON_MAX,
        tooLong: `Reason must be at most ${JOIN_REASON_MAX} characters.`,
      }),
    ),
    null,
  ),
});

/** POST .../join-requests/{id}/deny answer: the request as decided. */
export const DenyJoinAnswerSchema = v.object({ join_request: v.object({ id: v.number(), status: v.literal('denied'), reason: v.nullable(v.string()) }) });

/** `join_request` socket event, to the clan's managers room whenever its count of pending requests changes. */
export const JoinRequestCountSchema = v.object({ clan_id: v.number(), pending: v.number() });
export type JoinRequestCount = v.InferOutput<typeof JoinRequestCountSchema>;

/**
 * `join_request_decided` socket event, to the asker's own sockets (their user room, every process)
 * when a manager approves or denies their request (docs/server.md §18 "Joining"): the request, its
 * clan, the decision and the manager's reason (null for none or an approval).
 */
export const JoinRequestDecidedSchema = v.object({
  id: v.number(),
  clan_id: v.number(),
  clan_name: v.string(),
  status: v.picklist(['approved', 'denied']),
  reason: v.nullable(v.string()),
});
export type JoinRequestDecided = v.InferOutput<typeof JoinRequestDecidedSchema>;

/** How long a decided request stays in its asker's list (GET /api/user/me), in days. */
export const DECIDED_SHOWN_DAYS = 30;

/** How each join policy reads in the Owner's settings (docs/client.md §5). */
export const JOIN_POLICY_LABELS: Record<JoinPolicy, string> = {
  open: 'Open: anyone with an IGN joins at once',
  request: 'By request: a manager approves each joiner',
  invite: 'By invitation only',
};

/**
 * What onboarding's Clan Member step says finishing does under each join policy (docs/client.md
 * §2): the clan list names no policy, so each case is said; the request then shows on the dashboard.
 */
export const ONBOARDING_JOIN_POLICY_TEXTS = [
  'An open clan: you join it as a Member when you finish.',
  'A clan that approves new members: finishing sends your request to join, shown on your dashboard until a manager decides.',
  'An invitation-only clan: you need an invite link from one of its managers.',
] as const;

/** How a request's status reads to its asker (docs/client.md §3). */
export const JOIN_REQUEST_STATUS_TEXT: Record<JoinRequestStatus, string> = {
  pending: 'Request sent: waiting for a manager',
  approved: 'Approved: you are a member',
  denied: 'Denied',
};

/** The managers' count of pending requests on the clan page (docs/client.md §5). */
export const pendingRequestsText = (n: number) => (n === 1 ? '1 request to join' : `${n} requests to join`);
