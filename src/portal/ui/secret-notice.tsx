import { useEffect, useRef, useState } from 'preact/hooks';
import { formatTime } from './format';
import { overlapLabel } from './rotation-overlap';
import type { SignatureScheme } from './types';

/** A signing secret to show once: after create, or after a rotation with its overlap. */
export interface ShownSecret {
  subscriptionId: string;
  secret: string;
  kind: 'created' | 'rotated';
  /** Until when the previous secret keeps signing (rotations). */
  previousExpiresAt?: string;
  /** The overlap chosen for the rotation, in seconds (0: the previous secret stopped at once). */
  overlapSeconds?: number;
  /** `ed25519`: `secret` is the public key, which is not secret and stays on the subscription. */
  scheme?: SignatureScheme;
}

/** Shows a new signing secret once (or a new public key), with a copy button; focus moves to it so it is not missed. */
export function SecretNotice({ shown, onDismiss }: { shown: ShownSecret; onDismiss: () => void }) {
  const ed25519 = shown.scheme === 'ed25519';
  const what = ed25519 ? 'public key' : 'secret';
  const [copied, setCopied] = useState<string | undefined>();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [shown]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying is not allowed here: select the secret and copy it by hand.');
    }
  };

  return (
    <article class="secret" data-testid="secret-notice" aria-labelledby="secret-heading">
      <h2 id="secret-heading" tabIndex={-1} ref={heading}>
        {ed25519 ? (shown.kind === 'created' ? 'Your public key' : 'Your new public key') : shown.kind === 'created' ? 'Your signing secret' : 'Your new signing secret'}
      </h2>
      {ed25519 ? (
        <p>
          Your receiver verifies each delivery's Ed25519 (<code>v1a</code>) signature with it. It is not secret and stays shown on the subscription; the
          private key never leaves the service.
        </p>
      ) : (
        <p>
          <strong>Copy it now: you will not see it again.</strong> Your receiver uses it to verify each delivery's signature.
        </p>
      )}
      <label>
        {ed25519 ? 'Public key' : 'Signing secret'}
        <input type="text" readOnly value={shown.secret} data-testid="secret-value" onFocus={(e) => e.currentTarget.select()} />
      </label>
      {shown.kind === 'rotated' && shown.previousExpiresAt && (
        <p data-testid="rotation-overlap" data-expires-at={shown.previousExpiresAt}>
          {shown.overlapSeconds === 0 ? (
            <>The previous {what} no longer signs: switch your receiver to the new one now.</>
          ) : (
            <>
              The previous {what} keeps signing each delivery too (a second signature)
              {shown.overlapSeconds !== undefined && ` for ${overlapLabel(shown.overlapSeconds)}`}, until {formatTime(shown.previousExpiresAt)}: switch your
              receiver to the new one before then.
            </>
          )}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          {ed25519 ? 'Copy public key' : 'Copy secret'}
        </button>
        <button type="button" class="secondary" onClick={onDismiss}>
          {ed25519 ? 'Done' : 'I have stored it'}
        </button>
      </div>
      <p role="status">{copied}</p>
    </article>
  );
}
