/**
 * The one import of the chart path generator (house-style "Tests generated from the charts"):
 * @xstate/graph 3.0.4, the package the product owner named. Switching to `xstate/graph` is this line.
 */
export * from '@xstate/graph';
