/** A form's submit button (busy while its request runs) and its Cancel button. */
export function FormActions({ label, busy, onCancel, autoFocus = false }: { label: string; busy: boolean; onCancel: () => void; autoFocus?: boolean }) {
  return (
    <div class="actions">
      <button type="submit" aria-busy={busy} disabled={busy} autoFocus={autoFocus}>
        {label}
      </button>
      <button type="button" class="secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
