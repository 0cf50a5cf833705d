/** The part of parse-prometheus-text-format (no types of its own) that the metrics tests use. */
declare module 'parse-prometheus-text-format' {
  /** One sample: a value (counter, gauge, untyped) or buckets, count and sum (histogram), with its labels. */
  interface PrometheusSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family as prom2json shows it. */
  interface PrometheusFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: PrometheusSample[];
  }
  /** Parses Prometheus text exposition; throws on a line that is not valid. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
