import { useState } from 'preact/hooks';
import { FormActions } from './form-actions';
import { defaultOverlapSeconds, overlapChoiceText, overlapChoices } from './rotation-overlap';
import type { SignatureScheme } from './types';

interface Props {
  busy: boolean;
  /** The subscription's scheme now: the new key's unless switched. */
  current: SignatureScheme;
  onRotate: (overlapSeconds: number, scheme: SignatureScheme) => void;
  onCancel: () => void;
}

const schemeText: Record<SignatureScheme, string> = { 'hmac-sha256': 'HMAC-SHA256 (v1, shared secret)', ed25519: 'Ed25519 (v1a, public key)' };

/** Asks how long the old secret keeps signing beside the new one, and the new key's scheme, then rotates. */
export function RotateSecretForm({ busy, current, onRotate, onCancel }: Props) {
  const [overlap, setOverlap] = useState(defaultOverlapSeconds);
  const [scheme, setScheme] = useState<SignatureScheme>(current);
  return (
    <form
      class="rotate"
      data-testid="confirm-rotate"
      aria-labelledby="rotate-heading"
      onSubmit={(e) => {
        e.preventDefault();
        onRotate(overlap, scheme);
      }}
    >
      <h3 id="rotate-heading">Rotate the signing secret</h3>
      <p>Deliveries get a new secret. Meanwhile the old one can keep signing too (a second signature), so your receiver has time to switch.</p>
      <label>
        Old secret keeps signing for
        <select value={overlap} onChange={(e) => setOverlap(Number(e.currentTarget.value))}>
          {overlapChoices.map((s) => (
            <option key={s} value={s}>
              {overlapChoiceText(s)}
            </option>
          ))}
        </select>
      </label>
      <label>
        New key's signatures
        <select value={scheme} onChange={(e) => setScheme(e.currentTarget.value as SignatureScheme)}>
          {(['hmac-sha256', 'ed25519'] as const).map((s) => (
            <option key={s} value={s}>
              {schemeText[s]}
              {s === current ? ' (current)' : ''}
            </option>
          ))}
        </select>
        {scheme !== current && <small>Switching is a rotation: the old key keeps signing in its own scheme through the overlap.</small>}
      </label>
      <FormActions label="Rotate now" busy={busy} onCancel={onCancel} autoFocus />
    </form>
  );
}
