import type { Submission } from '../../../contract/submission';
import { PROOF_VIEW_TEXTS } from '../../../contract/proofView';
import { DINK_TYPE_LABELS } from './dinkTexts';

/**
 * What shows in place of a proof's image when its Dink post sent no screenshot (docs/server.md
 * §13; the submission's `screenshot: false`, whose stored image is a plain stand-in): 'No
 * screenshot was sent' and the post's evidence (type and summary, as text), or 'no evidence'.
 */
export function NoScreenshot({ evidence, testId }: { evidence: Submission['evidence']; testId: string }) {
  return (
    <div className="proof-thumb proof-none" data-testid={testId}>
      <strong className="proof-none__title">{PROOF_VIEW_TEXTS.noScreenshot}</strong>
      {evidence ? (
        <span className="proof-none__evidence" data-testid="proof-none-evidence">
          {DINK_TYPE_LABELS[evidence.type]}: {evidence.summary}
        </span>
      ) : (
        <span className="muted">no evidence</span>
      )}
    </div>
  );
}

/** Whether a submission has a screenshot to show (false only when the server says none was sent). */
export const hasScreenshot = (s: Pick<Submission, 'screenshot'>): boolean => s.screenshot !== false;
