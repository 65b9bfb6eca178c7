import { useEffect, useMemo, useState } from 'preact/hooks';
import { outcome, portalClient } from './api';
import { AlertsPanel } from './alerts-panel';
import { formatTime } from './format';
import { forgetSessionToken, takeSessionToken } from './session-token';
import { SubscriptionsPage } from './subscriptions-page';
import type { TemporalUi } from './temporal-links';
import type { PortalSessionInfo } from './types';

type View =
  | { kind: 'loading' }
  | { kind: 'no-token' }
  | { kind: 'invalid' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; session: PortalSessionInfo };

/** The portal: checks the session first, then shows the owner's subscriptions (and alerts for an admin). */
export function App() {
  const source = useMemo(takeSessionToken, []);
  const [view, setView] = useState<View>(source.kind === 'token' ? { kind: 'loading' } : source.kind === 'missing' ? { kind: 'no-token' } : { kind: 'invalid' });
  const client = useMemo(
    () =>
      source.kind === 'token'
        ? portalClient(source.token, () => {
            forgetSessionToken();
            setView({ kind: 'invalid' });
          })
        : undefined,
    [source],
  );

  useEffect(() => {
    if (!client) return;
    void outcome(client.GET('/api/webhooks/v1/portal-sessions/current')).then((r) => {
      if (r.ok) setView({ kind: 'ready', session: r.data });
      else if (r.status !== 401) setView({ kind: 'error', message: r.message });
    });
  }, [client]);

  return (
    <>
      <header class="container">
        <nav>
          <ul>
            <li>
              <strong>Webhooks portal</strong>
            </li>
          </ul>
          {view.kind === 'ready' && (
            <ul>
              <li data-testid="session-owner">
                <small>
                  Owner <strong>{view.session.owner_id}</strong>
                  {view.session.admin ? ' (administrator)' : ''} · session ends {formatTime(view.session.expires_at)}
                </small>
              </li>
            </ul>
          )}
        </nav>
      </header>
      <main class="container">
        <Body view={view} client={client} />
      </main>
    </>
  );
}

function Body({ view, client }: { view: View; client: ReturnType<typeof portalClient> | undefined }) {
  switch (view.kind) {
    case 'loading':
      return <p aria-busy="true">Checking your portal link…</p>;
    case 'no-token':
      return <SessionProblem title="No portal link" text="Open this page with the link you were given: it carries your access in its address." />;
    case 'invalid':
      return <SessionProblem title="Link expired or not valid" text="This portal link has expired or is not valid — ask for a new link." />;
    case 'error':
      return <SessionProblem title="The portal could not start" text={view.message} />;
    case 'ready': {
      const s = view.session;
      const temporal: TemporalUi | undefined = s.admin && s.temporal_ui_url ? { url: s.temporal_ui_url, namespace: s.temporal_namespace ?? 'default' } : undefined;
      return (
        <>
          <SubscriptionsPage client={client!} session={s} temporal={temporal} />
          {s.grants.includes('alerts:read') && <AlertsPanel client={client!} temporal={temporal} />}
        </>
      );
    }
  }
}

function SessionProblem({ title, text }: { title: string; text: string }) {
  return (
    <article data-testid="session-problem">
      <div role="alert">
        <h1>{title}</h1>
        <p>{text}</p>
      </div>
    </article>
  );
}
