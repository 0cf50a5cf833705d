import type SharpModule from 'sharp';

/** sharp's default export: the function that opens an image (`sharp(bytes)`), with its settings. */
export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | undefined;

/**
 * sharp, loaded on first use and set up once for the whole process (docs/server.md §9): a proof,
 * a Dink post or a board picture is the first to need it, so a process that never draws one
 * (most test servers, a process that only serves the live game) never pays the ~0.1 s of CPU
 * its native module costs to load.
 *
 * libvips keeps recent operations and their pixels in a cache (up to 50 MB and 100 operations)
 * that helps only when the same image is processed again; a proof never is, so it is off and a
 * decoded image's memory is given back once it is encoded. One libvips thread per image: two
 * images decoded at once take at most two threads, with fewer per-thread buffers, and the event
 * loop keeps its share of the CPU (docs/server.md §8).
 */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loading;
}
