/**
 * `make` remembered per key: the first call with a key makes its value and keeps it, later calls
 * answer the kept value. At most `limit` values are kept; past it the oldest made goes (first in,
 * first out). For values made from a game's stored text on every roll (a dice seed's key, a
 * board's snakes and ladders): a live game's key comes back every few seconds. Whatever `make`
 * throws is thrown on and nothing is kept.
 */
export function boundedMemo<V>(limit: number, make: (key: string) => V): (key: string) => V {
  const kept = new Map<string, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      kept.set(key, value);
      if (kept.size > limit) kept.delete(kept.keys().next().value as string);
    }
    return value;
  };
}
