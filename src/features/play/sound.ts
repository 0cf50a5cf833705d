/**
 * The optional sound of the roll moment: short WebAudio tones, off by default; the
 * choice is kept in localStorage under SOUND_KEY ('on' or absent).
 */
const SOUND_KEY = 'csl.rollSound';

/** True when the viewer turned the roll sound on (never throws: storage may be unavailable). */
export function isSoundOn(): boolean {
  try {
    return window.localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

/** Turns the roll sound on or off and remembers it (ignored when storage is unavailable). */
export function setSoundOn(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(SOUND_KEY, 'on');
    else window.localStorage.removeItem(SOUND_KEY);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}

let audio: AudioContext | null = null;

/** Pitch (Hz) and length (ms) of each sound. */
const TONES = { tick: [660, 25], land: [880, 120], step: [440, 40] } as const;

/**
 * Plays one short tone of the roll moment ('tick' as the die tumbles, 'land' when it shows its
 * value, 'step' per square walked), only when the sound is on and WebAudio exists.
 */
export function playRollSound(kind: keyof typeof TONES): void {
  if (!isSoundOn() || typeof window.AudioContext !== 'function') return;
  try {
    audio ??= new window.AudioContext();
    const [hz, ms] = TONES[kind];
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = kind === 'land' ? 'triangle' : 'square';
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.06, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + ms / 1000);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + ms / 1000);
  } catch {
    /* no sound: never break the game screen */
  }
}
