/**
 * The one import of the chart path generator (docs/architecture.md §6):
 * @xstate/graph 3.0.4, the package the product owner named. Switching to `xstate/graph` is this line.
 */
export * from '@xstate/graph';
