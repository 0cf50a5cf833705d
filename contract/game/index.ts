/** Pure game rules shared by client and server: no I/O, runs in the browser and in Node. */
export * from './tiers';
export * from './split';
export * from './board';
export * from './settings';
export * from './random';
export * from './boardShape';
export * from './generate';
export * from './validate';
export * from './moves';
export * from './status';
export * from './standings';
