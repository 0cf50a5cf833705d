import { useEffect, useState } from 'react';

/** The current time (ms), again every `everyMs` (the ticking 'on square 41 for 2 h 14 min', a draft's countdown). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
