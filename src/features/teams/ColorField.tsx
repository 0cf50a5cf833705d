import { HexColorInput, HexColorPicker } from 'react-colorful';
import { useId } from 'react';
import type { TeamColorPreset } from '../../../contract/team';
import { COLOR_DEBOUNCE_MS, COLOR_THROTTLE_MS, normalizeHex } from './teamForm';
import { useDebouncedCallback, useThrottledCallback } from 'use-debounce';

/**
 * A hex colour field without alpha (docs/game-rules.md §13; docs/client.md §12): a row of named preset swatches
 * (buttons, pressed when the colour is theirs), react-colorful's picker, whose drag updates are
 * throttled to one per 50 ms, and a hex text input debounced by 100 ms (flushed when it loses
 * focus, so a submit right after typing sends the typed colour).
 */
export function ColorField({
  label,
  value,
  onChange,
  presets = [],
}: {
  label: string;
  value: string;
  onChange: (hex: string) => void;
  presets?: readonly TeamColorPreset[];
}) {
  const id = useId();
  const commit = (hex: string) => {
    const clean = normalizeHex(hex);
    if (clean) onChange(clean);
  };
  const throttled = useThrottledCallback(commit, COLOR_THROTTLE_MS);
  const debounced = useDebouncedCallback(commit, COLOR_DEBOUNCE_MS);
  return (
    <div className="field color-field" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="field__label">{label}</span>
      {presets.length > 0 && (
        <div className="color-field__presets" role="group" aria-label={`${label} presets`}>
          {presets.map((p) => (
            <button
              key={p.hex}
              type="button"
              className="color-field__preset"
              style={{ background: p.hex }}
              aria-label={p.name}
              aria-pressed={normalizeHex(value) === p.hex}
              title={`${p.name} (${p.hex})`}
              onClick={() => onChange(p.hex)}
            />
          ))}
        </div>
      )}
      <div className="color-field__body">
        <HexColorPicker color={value} onChange={throttled} aria-label={`${label} picker`} />
        <div className="color-field__side">
          <span className="color-field__swatch" style={{ background: value }} aria-hidden="true" />
          <label className="field">
            <span className="field__hint">Hex</span>
            <HexColorInput
              className="input color-field__input"
              color={value}
              prefixed
              onChange={debounced}
              onBlur={() => debounced.flush()}
              aria-label={`${label} (hex)`}
            />
          </label>
        </div>
      </div>
    </div>
  );
}
