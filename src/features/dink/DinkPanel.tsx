import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { DINK_TYPES, type DinkAccount, type DinkPost } from '../../../contract/dink';
import { dinkConfigUrl } from '../../../contract/dinkConfig';
import { dinkLinkMachine } from '../../../machines/dinkLink.machine';
import * as sel from '../../../machines/dinkLink.selectors';
import { dinkPostsMachine } from '../../../machines/dinkPosts.machine';
import { dinkAccountsMachine } from '../../../machines/dinkAccounts.machine';
import * as dinkApi from '../../api/dink';
import { logTime } from '../../base/timeFormat';
import { copyText } from '../../base/clipboard';
import { useSelectors } from '../../base/useSelectors';
import { ConfirmDialog, useConfirmAction, type Nothing } from '../../ui/ConfirmDialog';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { latestCall, useLatest } from '../game/latest';
import { DINK_OUTCOME_TEXT, DINK_OUTCOME_TONE, DINK_TYPE_LABELS } from './dinkTexts';
import { DataTable } from '../../ui/DataTable';
import { useListView } from '../../ui/useListView';

/** The Dink calls of the panel (docs/server.md §13) and the clipboard, replaceable in tests. */
export interface DinkEffects {
  fetchDinkLink: typeof dinkApi.fetchDinkLink;
  createDinkLink: typeof dinkApi.createDinkLink;
  saveDinkAutoApprove: typeof dinkApi.saveDinkAutoApprove;
  revokeDinkLink: typeof dinkApi.revokeDinkLink;
  fetchDinkPosts: typeof dinkApi.fetchDinkPosts;
  fetchDinkAccounts: typeof dinkApi.fetchDinkAccounts;
  clearDinkAccount: typeof dinkApi.clearDinkAccount;
  /** Puts `text` on the clipboard; rejects when the browser refuses. */
  copyText: (text: string) => Promise<void>;
}

/** The real calls. */
export const liveDinkEffects: DinkEffects = {
  fetchDinkLink: dinkApi.fetchDinkLink,
  createDinkLink: dinkApi.createDinkLink,
  saveDinkAutoApprove: dinkApi.saveDinkAutoApprove,
  revokeDinkLink: dinkApi.revokeDinkLink,
  fetchDinkPosts: dinkApi.fetchDinkPosts,
  fetchDinkAccounts: dinkApi.fetchDinkAccounts,
  clearDinkAccount: dinkApi.clearDinkAccount,
  copyText,
};

const BUSY_TEXT: Partial<Record<sel.DinkLinkPhase, string>> = { creating: 'Making the link...', savingAutoApprove: 'Saving...' };

/** What the one-link set-up does, and when the raw webhook URL is the better choice. */
const DINK_SETUP_TEXTS = {
  turnsOn:
    "Dink reads it at every start: it turns on, with screenshots, the notifiers this event's tasks use (loot, kill count, collection log and the rest), lets every item a loot task names through whatever its value, and sends them to this event. The player's other Dink settings and webhooks stay as they are.",
  webhook: "For players who set Dink up by hand: paste this into Primary Webhook URLs and turn on the notifiers the tasks use, with screenshots (see How to set up Dink below).",
} as const;

/** The Rotate, Revoke and Clear dialogs' texts. */
export const DINK_DIALOG_TEXTS = {
  rotateTitle: 'Rotate Dink Link',
  rotateBody: 'Make a new link? The current link stops working at once: every player must paste the new one into Dink.',
  rotated: 'New Dink link made.',
  revokeTitle: 'Revoke Dink Link',
  revokeBody: 'Revoke the link? Posts to it are refused at once and nothing from Dink counts until a new link is made.',
  revoked: 'Dink link revoked.',
  clearTitle: 'Clear Pinned Account',
  clearBody: 'Posts from Dink with this IGN are then taken from whichever account sends the next one with an account hash, and that account is pinned. Clear a pin only when it is not the player\'s own account.',
  cleared: (ign: string) => `The pinned account of ${ign} is cleared: the next post pins one again.`,
} as const;

/** The texts of the pinned accounts list. */
const PINNED_TEXTS = {
  about: 'The first post from Dink with an IGN pins its Dink account; posts with that IGN from another account are then refused as suspicious. Clear a pin that is not the player\'s own.',
  empty: 'No accounts pinned yet: the first post from Dink with an IGN pins its account.',
} as const;

/** The IGN a Clear acts on. */
interface PinSubject {
  ignId: number;
  ign: string;
}

/**
 * The 'Dink' panel of an event's Manage Game view (docs/client.md §7; docs/server.md §13), for
 * managers: the event's Dink link with Copy, Rotate and Revoke (confirm dialogs), or Make Dink
 * Link when there is none; the Auto-approve switch; a short how-to for Dink's settings; and the
 * recent posts (time, player, type, summary, outcome), read again every 10 s while the panel is
 * open; and the pinned accounts (IGN, hash prefix, when, posts) with Clear per row (confirmed,
 * then the list is read again). The flows are the dinkLink, dinkPosts and dinkAccounts charts and
 * three confirmAction dialogs; `effects` replaces the calls in tests. Posted texts are rendered as
 * text.
 */
export function DinkPanel({ clanId, eventId, effects = liveDinkEffects }: { clanId: number; eventId: number; effects?: DinkEffects }) {
  const id = useId();
  // The actors live as long as the panel; their implementations read the current props through this ref.
  const latest = useLatest({ clanId, eventId, effects });
  const flow = useActorRef(
    dinkLinkMachine.provide({
      actors: {
        loadLink: latestCall(latest, (fx, clan, event) => fx.fetchDinkLink(clan, event)),
        createLink: latestCall(latest, (fx, clan, event) => fx.createDinkLink(clan, event)),
        saveAutoApprove: latestCall(latest, (fx, clan, event, input: { autoApprove: boolean }) => fx.saveDinkAutoApprove(clan, event, input.autoApprove)),
        copyLink: latestCall(latest, (fx, _clan, _event, input: { url: string }) => fx.copyText(input.url)),
      },
    }),
  );
  const posts = useActorRef(dinkPostsMachine.provide({ actors: { loadPosts: latestCall(latest, (fx, clan, event) => fx.fetchDinkPosts(clan, event)) } }));
  const accounts = useActorRef(dinkAccountsMachine.provide({ actors: { loadAccounts: latestCall(latest, (fx, clan, event) => fx.fetchDinkAccounts(clan, event)) } }));
  const clearPin = useConfirmAction<Nothing, PinSubject>({
    closed: { draft: {}, subject: { ignId: 0, ign: '' } },
    perform: async ({ subject }) => {
      await effects.clearDinkAccount(clanId, eventId, subject.ignId);
      return { message: DINK_DIALOG_TEXTS.cleared(subject.ign) };
    },
    onSucceeded: () => accounts.send({ type: 'accounts.reload' }),
  });
  const clearIgn = useSelector(clearPin, (s) => s.context.subject.ign);
  const rotate = useConfirmAction<Nothing, Nothing>({
    closed: { draft: {}, subject: {} },
    perform: async () => {
      const dink = await effects.createDinkLink(clanId, eventId);
      flow.send({ type: 'link.rotated', dink });
      return { message: DINK_DIALOG_TEXTS.rotated };
    },
  });
  const revoke = useConfirmAction<Nothing, Nothing>({
    closed: { draft: {}, subject: {} },
    perform: async () => {
      await effects.revokeDinkLink(clanId, eventId);
      flow.send({ type: 'link.revoked' });
      return { message: DINK_DIALOG_TEXTS.revoked };
    },
  });
  const { phase, busy, link, message, loadError, canCreate, canToggle, canCopy, canChange } = useSelectors(flow, {
    phase: sel.selectDinkPhase,
    busy: sel.isDinkBusy,
    link: sel.selectDinkLink,
    message: sel.selectDinkMessage,
    loadError: sel.selectDinkLoadError,
    canCreate: sel.canCreateDink,
    canToggle: sel.canToggleAutoApprove,
    canCopy: sel.canCopyDink,
    canChange: sel.canChangeDink,
  });

  return (
    <section className="game-area dink-panel" aria-labelledby={`${id}-title`} data-testid="dink-panel" data-phase={phase}>
      <h3 id={`${id}-title`}>Dink</h3>
      <p className="muted">Players' RuneLite Dink plugin posts loot, kill counts, levels and more here; a post that matches the team's task becomes its proof.</p>
      {phase === 'loading' && <Spinner text="Loading the Dink link..." />}
      {phase === 'failed' && <LoadFailed error={loadError} onRetry={() => flow.send({ type: 'dink.reload' })} />}
      {phase !== 'loading' && phase !== 'failed' && (
        <>
          {link ? (
            <div className="dink-panel__link" data-testid="dink-link">
              <label className="field__label" htmlFor={`${id}-config`}>Dynamic Config URL</label>
              <div className="row">
                <input id={`${id}-config`} className="input dink-panel__url" type="text" readOnly value={dinkConfigUrl(link.url)} onFocus={(e) => e.currentTarget.select()} data-testid="dink-config-url" />
                <button type="button" className="btn btn--primary" aria-label="Copy config URL" disabled={!canCopy} onClick={() => flow.send({ type: 'link.copy', what: 'config' })}>
                  Copy
                </button>
              </div>
              <p data-testid="dink-config-where">
                Paste this into <strong>Dink → Advanced → Dynamic Config URL</strong>.
              </p>
              <p className="muted">{DINK_SETUP_TEXTS.turnsOn}</p>
              <p className="muted">Made {logTime(link.created_at)}. Keep it private: anyone with the link can post to it.</p>
              <label className="switch">
                <input type="checkbox" checked={link.auto_approve} disabled={!canToggle} onChange={() => flow.send({ type: 'autoApprove.toggle' })} />
                <span>Auto-approve matching posts with a screenshot</span>
              </label>
              <div className="row">
                <button type="button" className="btn" disabled={!canChange} onClick={() => rotate.send({ type: 'confirm.open' })}>
                  Rotate Link
                </button>
                <button type="button" className="btn btn--danger" disabled={!canChange} onClick={() => revoke.send({ type: 'confirm.open' })}>
                  Revoke Link
                </button>
              </div>
              <details className="dink-panel__advanced">
                <summary>Advanced: the webhook URL</summary>
                <label className="field__label" htmlFor={`${id}-url`}>Dink link</label>
                <div className="row">
                  <input id={`${id}-url`} className="input dink-panel__url" type="text" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} data-testid="dink-url" />
                  <button type="button" className="btn" disabled={!canCopy} onClick={() => flow.send({ type: 'link.copy', what: 'webhook' })}>
                    Copy
                  </button>
                </div>
                <p className="muted">{DINK_SETUP_TEXTS.webhook}</p>
              </details>
            </div>
          ) : (
            <div className="row" data-testid="dink-none">
              <p>No Dink link yet: posts from Dink are not taken for this event.</p>
              <button type="button" className="btn btn--primary" disabled={!canCreate} onClick={() => flow.send({ type: 'dink.create' })}>
                Make Dink Link
              </button>
            </div>
          )}
          {busy && BUSY_TEXT[phase] && <Spinner text={BUSY_TEXT[phase]} />}
          {message && (
            <Notice tone={message.tone} testId="dink-message">
              {message.text}
            </Notice>
          )}
        </>
      )}
      <DinkHowTo />
      <RecentPosts posts={posts} />
      <PinnedAccounts accounts={accounts} onClear={(a) => clearPin.send({ type: 'confirm.open', subject: { ignId: a.ign_id, ign: a.ign } })} />
      <ConfirmDialog actor={rotate} title={DINK_DIALOG_TEXTS.rotateTitle} confirmLabel="Make New Link" processingText="Making the new link...">
        <p>{DINK_DIALOG_TEXTS.rotateBody}</p>
      </ConfirmDialog>
      <ConfirmDialog actor={revoke} title={DINK_DIALOG_TEXTS.revokeTitle} confirmLabel="Revoke Link" processingText="Revoking the link..." danger>
        <p>{DINK_DIALOG_TEXTS.revokeBody}</p>
      </ConfirmDialog>
      <ConfirmDialog actor={clearPin} title={DINK_DIALOG_TEXTS.clearTitle} confirmLabel="Clear" processingText="Clearing the pin..." danger>
        <p>
          Clear the Dink account pinned to <strong>{clearIgn}</strong>?
        </p>
        <p>{DINK_DIALOG_TEXTS.clearBody}</p>
      </ConfirmDialog>
    </section>
  );
}

/** The short how-to of Dink's settings in RuneLite. */
function DinkHowTo() {
  return (
    <details className="dink-panel__howto">
      <summary>How to set up Dink</summary>
      <ol>
        <li>In RuneLite, install the Dink plugin from the Plugin Hub and open its settings.</li>
        <li>
          Under <strong>Advanced</strong>, paste the Dynamic Config URL into <strong>Dynamic Config URL</strong> and restart RuneLite (or turn Dink off and on): that is all.
        </li>
        <li>
          By hand instead: paste the webhook URL (Advanced above) into <strong>Primary Webhook URLs</strong>, enable the notifier types the tasks use ({DINK_TYPES.map((t) => DINK_TYPE_LABELS[t]).join(', ')}) and turn screenshots on for them: only a post with a screenshot can approve a task by itself.
        </li>
      </ol>
    </details>
  );
}

type PostsRef = ReturnType<typeof useActorRef<typeof dinkPostsMachine>>;

/** The recent posts, newest first: time, player, type, summary and outcome. */
function RecentPosts({ posts }: { posts: PostsRef }) {
  const { items, error, firstLoad, loaded, reloading } = useListView(posts);
  return (
    <section className="dink-panel__posts" aria-label="Recent Dink posts" data-testid="dink-posts">
      <div className="row">
        <h4>Recent posts</h4>
        <button type="button" className="btn btn--small" disabled={firstLoad || reloading} onClick={() => posts.send({ type: 'posts.reload' })}>
          {reloading ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      {firstLoad && <Spinner text="Loading recent posts..." />}
      {error && <Notice tone="error" testId="dink-posts-error">{error}</Notice>}
      {loaded && items.length === 0 && <p className="muted" data-testid="dink-posts-empty">No posts from Dink yet.</p>}
      {items.length > 0 && (
        <DataTable className="table dink-posts cards-sm" columns={['Time', 'Player', 'Type', 'Summary', 'Outcome']}>
          {items.map((p, i) => (
            <PostRow key={`${p.at}-${i}`} post={p} />
          ))}
        </DataTable>
      )}
    </section>
  );
}

function PostRow({ post }: { post: DinkPost }) {
  const label = (DINK_TYPE_LABELS as Record<string, string>)[post.type] ?? post.type;
  return (
    <tr data-testid="dink-post" data-outcome={post.outcome}>
      <td data-label="Time"><time dateTime={post.at}>{logTime(post.at)}</time></td>
      <td data-label="Player">{post.player_name}</td>
      <td data-label="Type">{label}</td>
      <td data-label="Summary" className="dink-posts__summary">{post.summary}</td>
      <td data-label="Outcome">
        {/* One box, so on a phone card the badge and its words wrap together beside the label. */}
        <span>
          <span className={`dink-outcome dink-outcome--${DINK_OUTCOME_TONE[post.outcome]}`} data-testid="dink-post-outcome">{post.outcome}</span>{' '}
          <span className="muted">{DINK_OUTCOME_TEXT[post.outcome]}</span>
        </span>
      </td>
    </tr>
  );
}

type AccountsRef = ReturnType<typeof useActorRef<typeof dinkAccountsMachine>>;

/** The pinned accounts, by IGN: IGN, the hash's first 8 characters, when it was pinned, posts since, and Clear. */
function PinnedAccounts({ accounts, onClear }: { accounts: AccountsRef; onClear: (account: DinkAccount) => void }) {
  const { items, error, firstLoad, loaded, reloading } = useListView(accounts);
  return (
    <section className="dink-panel__accounts" aria-label="Pinned Dink accounts" data-testid="dink-accounts">
      <div className="row">
        <h4>Pinned accounts</h4>
        <button
          type="button"
          className="btn btn--small"
          aria-label={reloading ? 'Refreshing pinned accounts...' : 'Refresh pinned accounts'}
          disabled={firstLoad || reloading}
          onClick={() => accounts.send({ type: 'accounts.reload' })}
        >
          {reloading ? 'Refreshing...' : 'Refresh'}
        </button>
      </div>
      <p className="muted">{PINNED_TEXTS.about}</p>
      {firstLoad && <Spinner text="Loading pinned accounts..." />}
      {error && <Notice tone="error" testId="dink-accounts-error">{error}</Notice>}
      {loaded && items.length === 0 && <p className="muted" data-testid="dink-accounts-empty">{PINNED_TEXTS.empty}</p>}
      {items.length > 0 && (
        <DataTable className="table dink-accounts cards-sm" columns={['IGN', 'Account', 'Pinned', 'Posts', 'Action']}>
          {items.map((a) => (
            <tr key={a.ign_id} data-testid="dink-account">
              <th scope="row">{a.ign}</th>
              <td data-label="Account"><code>{a.account_hash_prefix}</code></td>
              <td data-label="Pinned"><time dateTime={a.pinned_at}>{logTime(a.pinned_at)}</time></td>
              <td data-label="Posts">{a.posts}</td>
              <td data-label="Action">
                <button type="button" className="btn btn--small btn--danger" aria-label={`Clear the pin of ${a.ign}`} onClick={() => onClear(a)}>
                  Clear
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
