import { useActorRef } from '@xstate/react';
import { useId, useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { discordLinkMachine } from '../../../machines/discordLink.machine';
import * as sel from '../../../machines/discordLink.selectors';
import { selectIsReady, selectManagedClans } from '../../../machines/session.selectors';
import { linkDiscordGuild } from '../../api/discordLink';
import { SessionContext } from '../../base/session';
import { useSelectors } from '../../base/useSelectors';
import { clanManagePath } from '../../base/paths';
import { DialogButtons, Modal } from '../../ui/Modal';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';

/** The call of the page (docs/server.md §19); tests give a fake. */
export interface DiscordLinkEffects {
  linkGuild: typeof linkDiscordGuild;
}

const liveEffects: DiscordLinkEffects = { linkGuild: linkDiscordGuild };

/**
 * /discord/link/{code}, the page `/snl link` answers in Discord (docs/server.md §19 "Slash
 * commands"), in the logged-in layout: the manager picks one of the clans they manage (Owner or
 * Admin), presses 'Link to Discord' and confirms; the Discord server that ran the command is then
 * linked to that clan (replacing either side's old link). Without a managed clan, or with a code
 * that expired or was used, the page says so. The flow is the discordLink chart; `effects` is the call.
 */
export function DiscordLinkPage({ effects = liveEffects }: { effects?: DiscordLinkEffects }) {
  const { code = '' } = useParams();
  const clans = SessionContext.useSelector(selectManagedClans);
  const ready = SessionContext.useSelector(selectIsReady);
  if (!ready) return <Spinner text="Checking your session..." />;
  const key = `${code}:${clans.map((c) => c.clan_id).join(',')}`;
  return <DiscordLinkFlow key={key} code={code} clans={clans.map((c) => ({ clan_id: c.clan_id, name: c.name }))} effects={effects} />;
}

function DiscordLinkFlow({ code, clans, effects }: { code: string; clans: { clan_id: number; name: string }[]; effects: DiscordLinkEffects }) {
  const id = useId();
  const logic = useMemo(
    () => discordLinkMachine.provide({ actors: { linkGuild: fromPromise(({ input }) => effects.linkGuild(input.code, input.clanId)) } }),
    [effects],
  );
  const flow = useActorRef(logic, { input: { code, clans } });
  const { phase, options, picked, link, error, dialogOpen, busy, canRequest } = useSelectors(flow, {
    phase: sel.selectLinkPhase,
    options: sel.selectLinkClans,
    picked: sel.selectPickedClan,
    link: sel.selectMadeLink,
    error: sel.selectLinkError,
    dialogOpen: sel.isLinkDialogOpen,
    busy: sel.isLinkBusy,
    canRequest: sel.canRequestLink,
  });
  const pickedName = options.find((c) => c.clan_id === picked)?.name ?? '';
  const linkedName = options.find((c) => c.clan_id === link?.clan_id)?.name ?? '';

  return (
    <section className="panel panel--narrow" aria-labelledby={`${id}-title`} data-testid="discord-link-page" data-phase={phase}>
      <h1 id={`${id}-title`}>Link a Discord server</h1>
      {phase === 'noClans' && (
        <Notice tone="error" testId="discord-link-no-clans">
          Only an Owner or Admin of a clan can link it to a Discord server, and you manage no clan.
        </Notice>
      )}
      {phase === 'unavailable' && (
        <>
          <Notice tone="error" testId="discord-link-unavailable">{error}</Notice>
          <Link className="btn" to="/dashboard">Go to Dashboard</Link>
        </>
      )}
      {(phase === 'choosing' || phase === 'confirming' || phase === 'linking') && (
        <>
          <p>The Discord server where /snl link was run will post /snl status and take /snl roll for the clan you pick.</p>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              flow.send({ type: 'link.request' });
            }}
          >
            <fieldset className="choices">
              <legend className="field__label">Clan</legend>
              {options.map((c) => (
                <label key={c.clan_id} className="checkbox">
                  <input type="radio" name={`${id}-clan`} checked={picked === c.clan_id} onChange={() => flow.send({ type: 'clan.pick', clanId: c.clan_id })} /> {c.name}
                </label>
              ))}
            </fieldset>
            <div className="row">
              <button type="submit" className="btn btn--primary" disabled={!canRequest}>
                Link to Discord
              </button>
            </div>
            {error && <Notice tone="error" testId="discord-link-error">{error}</Notice>}
          </form>
        </>
      )}
      {phase === 'linked' && link && (
        <>
          <Notice tone="success" testId="discord-link-done">
            {linkedName} is linked to the Discord server. Try /snl status there.
          </Notice>
          <Link className="btn btn--primary" to={clanManagePath(link.clan_id)}>Open {linkedName}</Link>
        </>
      )}
      <Modal open={dialogOpen} onClose={() => !busy && flow.send({ type: 'link.cancel' })} title="Link this Discord server?" testId="discord-link-confirm">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            flow.send({ type: 'link.confirm' });
          }}
        >
          <p>Link the Discord server to {pickedName}? A link it or {pickedName} had before is replaced.</p>
          {busy && <Spinner text="Linking..." />}
          <DialogButtons onCancel={() => flow.send({ type: 'link.cancel' })} cancelDisabled={busy} submitLabel="Link" submitDisabled={busy} />
        </form>
      </Modal>
    </section>
  );
}
