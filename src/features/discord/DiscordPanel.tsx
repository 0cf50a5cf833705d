import { useActorRef, useSelector } from '@xstate/react';
import { useId, type FormEvent } from 'react';
import { ANNOUNCE_KINDS, ANNOUNCE_LABELS, WEBHOOK_STATE_TEXT, type WebhookState } from '../../../contract/discord';
import { discordSettingsMachine, type SaveDiscordInput } from '../../../machines/discordSettings.machine';
import * as sel from '../../../machines/discordSettings.selectors';
import * as discordApi from '../../api/discord';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { latestCall, useLatest } from '../game/latest';

/** The Discord calls of the panel (docs/server.md §10), replaceable in tests. */
export interface DiscordEffects {
  fetchDiscordSettings: typeof discordApi.fetchDiscordSettings;
  saveDiscordSettings: typeof discordApi.saveDiscordSettings;
  testDiscordWebhook: typeof discordApi.testDiscordWebhook;
  deleteDiscordSettings: typeof discordApi.deleteDiscordSettings;
}

/** The real Discord calls. */
export const liveDiscordEffects: DiscordEffects = {
  fetchDiscordSettings: discordApi.fetchDiscordSettings,
  saveDiscordSettings: discordApi.saveDiscordSettings,
  testDiscordWebhook: discordApi.testDiscordWebhook,
  deleteDiscordSettings: discordApi.deleteDiscordSettings,
};

const STATE_TONE: Record<WebhookState, 'success' | 'warning' | 'error'> = { active: 'success', failing: 'warning', disabled: 'error' };
const BUSY_TEXT: Partial<Record<sel.DiscordPhase, string>> = { saving: 'Saving...', testing: 'Sending test message...', deleting: 'Removing webhook...' };

/**
 * The 'Discord' panel of an event (docs/server.md §10): the saved webhook URL
 * (masked: the server never sends the token whole), its state (active, failing, disabled) and
 * last error (both break anywhere: a long URL never widens a phone's page); a URL field, the four announce switches and the
 * 'Ping teams' switch (docs/server.md §19 "Team pings") with Save; Send Test Message, Remove
 * Webhook and Refresh. The flow is the discordSettings chart; `effects` replaces the calls in
 * tests. All server texts are rendered as text.
 */
export function DiscordPanel({ clanId, eventId, effects = liveDiscordEffects }: { clanId: number; eventId: number; effects?: DiscordEffects }) {
  const id = useId();
  // The actor lives as long as the panel; its implementations read the current props through this ref.
  const latest = useLatest({ clanId, eventId, effects });
  const flow = useActorRef(
    discordSettingsMachine.provide({
      actors: {
        loadSettings: latestCall(latest, (fx, clan, event) => fx.fetchDiscordSettings(clan, event)),
        saveSettings: latestCall(latest, (fx, clan, event, input: SaveDiscordInput) => fx.saveDiscordSettings(clan, event, input.webhookUrl, input.announce, input.pingTeams)),
        testWebhook: latestCall(latest, (fx, clan, event) => fx.testDiscordWebhook(clan, event)),
        deleteSettings: latestCall(latest, (fx, clan, event) => fx.deleteDiscordSettings(clan, event)),
      },
    }),
  );
  const phase = useSelector(flow, sel.selectDiscordPhase);
  const busy = useSelector(flow, sel.isDiscordBusy);
  const saved = useSelector(flow, sel.selectSavedDiscord);
  const draftUrl = useSelector(flow, sel.selectDraftUrl);
  const announce = useSelector(flow, sel.selectAnnounce);
  const pingTeams = useSelector(flow, sel.selectPingTeams);
  const urlProblem = useSelector(flow, sel.selectUrlProblem);
  const message = useSelector(flow, sel.selectDiscordMessage);
  const loadError = useSelector(flow, sel.selectDiscordLoadError);
  const canTest = useSelector(flow, sel.canTestDiscord);
  const canDelete = useSelector(flow, sel.canDeleteDiscord);
  const canSave = useSelector(flow, sel.canSaveDiscord);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    flow.send({ type: 'discord.save' });
  };

  return (
    <section className="game-area" aria-labelledby={`${id}-title`} data-testid="discord-panel" data-phase={phase}>
      <h3 id={`${id}-title`}>Discord</h3>
      {phase === 'loading' && <Spinner text="Loading Discord settings..." />}
      {phase === 'failed' && <LoadFailed error={loadError} onRetry={() => flow.send({ type: 'discord.reload' })} />}
      {phase !== 'loading' && phase !== 'failed' && (
        <>
          {saved ? (
            <div className="discord-panel__saved" data-testid="discord-saved">
              <p>
                Webhook: <code data-testid="discord-masked-url">{saved.webhook_url_masked}</code>
              </p>
              <Notice tone={STATE_TONE[saved.state]} testId="discord-state">
                {WEBHOOK_STATE_TEXT[saved.state]}
              </Notice>
              {saved.last_error && <p data-testid="discord-last-error">Last error: {saved.last_error}</p>}
            </div>
          ) : (
            <p data-testid="discord-none">No webhook is set: nothing is announced on Discord.</p>
          )}
          <form onSubmit={submit} noValidate>
            <div className="field">
            <label className="field__label" htmlFor={`${id}-url`}>Webhook URL</label>
            <input
              className="input"
              id={`${id}-url`}
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={draftUrl}
              placeholder={saved ? 'Leave empty to keep the saved webhook' : 'https://discord.com/api/webhooks/...'}
              aria-invalid={urlProblem !== null}
              aria-describedby={urlProblem ? `${id}-url-problem` : undefined}
              onChange={(e) => flow.send({ type: 'url.change', url: e.target.value })}
            />
            {urlProblem && (
              <p id={`${id}-url-problem`} className="field__error" role="alert" data-testid="discord-url-problem">
                {urlProblem}
              </p>
            )}
            </div>
            <fieldset className="discord-panel__kinds">
              <legend className="field__label">Announce</legend>
              {ANNOUNCE_KINDS.map((kind) => (
                <label key={kind} className="checkbox">
                  <input type="checkbox" checked={announce[kind]} onChange={() => flow.send({ type: 'announce.toggle', kind })} />{' '}
                  {ANNOUNCE_LABELS[kind]}
                </label>
              ))}
            </fieldset>
            <div className="field">
              <label className="checkbox">
                <input
                  type="checkbox"
                  role="switch"
                  checked={pingTeams}
                  aria-describedby={`${id}-ping-help`}
                  onChange={() => flow.send({ type: 'pingTeams.toggle' })}
                />{' '}
                Ping teams
              </label>
              <p id={`${id}-ping-help`} className="field__hint">
                Proof reviews and new tasks about a team mention its Discord role (set under Manage Teams).
              </p>
            </div>
            <div className="row">
              <button type="submit" className="btn btn--primary" disabled={!canSave}>
                Save
              </button>
              <button type="button" className="btn" disabled={!canTest} onClick={() => flow.send({ type: 'discord.test' })}>
                Send Test Message
              </button>
              <button type="button" className="btn btn--danger" disabled={!canDelete} onClick={() => flow.send({ type: 'discord.delete' })}>
                Remove Webhook
              </button>
              <button type="button" className="btn" disabled={busy} onClick={() => flow.send({ type: 'discord.reload' })}>
                Refresh
              </button>
            </div>
          </form>
          {busy && BUSY_TEXT[phase] && <Spinner text={BUSY_TEXT[phase]} />}
          {message && (
            <Notice tone={message.tone} testId="discord-message">
              {message.text}
            </Notice>
          )}
        </>
      )}
    </section>
  );
}
