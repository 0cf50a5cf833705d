import { useState, type FocusEvent } from 'react';

/**
 * Whether a form's fields were touched, so its rule message waits for the person instead of
 * greeting them in red on an empty form. A field is touched when it changes, or
 * when focus leaves it for another field (leaving it for a button does not count: a message
 * appearing then would move the button under the pointer). The submit buttons of these forms are
 * disabled while the rule fails, so no submit can be tried before. Spread `handlers` on the
 * fields' wrapper (change and blur events bubble to it); call `touch` for a change no DOM change
 * event reports (a colour swatch or picker). The state ends with the dialog.
 */
export function useTouched(): { touched: boolean; touch: () => void; handlers: { onChange: () => void; onBlur: (e: FocusEvent) => void } } {
  const [touched, setTouched] = useState(false);
  const touch = () => setTouched(true);
  return {
    touched,
    touch,
    handlers: {
      onChange: touch,
      onBlur: (e) => {
        if (e.relatedTarget instanceof Element && e.relatedTarget.matches('input, select, textarea')) touch();
      },
    },
  };
}
