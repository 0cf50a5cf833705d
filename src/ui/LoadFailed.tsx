import { Notice } from './Notice';

/** A failed load: its error text and the Retry button (docs/client.md §11). */
export function LoadFailed({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  return (
    <div className="row">
      <Notice tone="error">{error}</Notice>
      <button type="button" className="btn" onClick={onRetry}>
        Retry
      </button>
    </div>
  );
}
