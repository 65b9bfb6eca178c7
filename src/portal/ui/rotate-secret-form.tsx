import { useState } from 'preact/hooks';
import { FormActions } from './form-actions';
import { defaultOverlapSeconds, overlapChoiceText, overlapChoices } from './rotation-overlap';

interface Props {
  busy: boolean;
  onRotate: (overlapSeconds: number) => void;
  onCancel: () => void;
}

/** Asks how long the old secret keeps signing beside the new one, then rotates. */
export function RotateSecretForm({ busy, onRotate, onCancel }: Props) {
  const [overlap, setOverlap] = useState(defaultOverlapSeconds);
  return (
    <form
      class="rotate"
      data-testid="confirm-rotate"
      aria-labelledby="rotate-heading"
      onSubmit={(e) => {
        e.preventDefault();
        onRotate(overlap);
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
      <FormActions label="Rotate now" busy={busy} onCancel={onCancel} autoFocus />
    </form>
  );
}
