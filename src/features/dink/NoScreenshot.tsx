import type { Submission } from '../../../contract/submission';
import { PROOF_VIEW_TEXTS } from '../../../contract/proofView';
import { isWomRuleType } from '../../../contract/dink';
import { DINK_TYPE_LABELS } from './dinkTexts';

/**
 * What shows in place of a proof's image when there is none to show: a Dink post sent without a
 * screenshot (docs/server.md §13; its stored image is a plain stand-in), 'No screenshot was sent';
 * a task approved from a Wise Old Man total (docs/server.md §17; evidence of type XP, KC, EHB or
 * EHP, image_url null), 'Checked with Wise Old Man: no screenshot'. Then the evidence (type and
 * summary, as text), or 'no evidence'.
 */
export function NoScreenshot({ evidence, testId }: { evidence: Submission['evidence']; testId: string }) {
  return (
    <div className="proof-thumb proof-none" data-testid={testId}>
      <strong className="proof-none__title">{evidence && isWomRuleType(evidence.type) ? PROOF_VIEW_TEXTS.womNoImage : PROOF_VIEW_TEXTS.noScreenshot}</strong>
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

/**
 * Whether a submission has a screenshot to show: not when the server says none was sent
 * (`screenshot: false`) nor when it has no image at all (`image_url` null, a Wise Old Man total).
 * Narrows the image paths to strings for the lightbox.
 */
export const hasScreenshot = <S extends Pick<Submission, 'screenshot' | 'image_url' | 'thumb_url'>>(s: S): s is S & { image_url: string; thumb_url: string } =>
  s.screenshot !== false && s.image_url !== null && s.thumb_url !== null;
