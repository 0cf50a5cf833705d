import { Breadcrumb } from './Breadcrumb';
import { Notice } from './Notice';

/**
 * A page whose address names nothing it can show (a bad or unknown game id): its breadcrumb back to
 * `previous`, and `message` as one error notice (docs/client.md §1; the texts are the
 * callers', e.g. 'Game not found.'). `className` is the page's own frame class, `testId` the notice's.
 */
export function NotFoundPage({ className, previous, current, message, testId }: { className: string; previous: { to: string; label: string }; current: string; message: string; testId: string }) {
  return (
    <div className={className}>
      <Breadcrumb previous={previous} current={current} />
      <section className="panel panel--narrow">
        <Notice tone="error" testId={testId}>
          {message}
        </Notice>
      </section>
    </div>
  );
}
