import { getMetricsFromIterator, type PromHistogramData, type PromMetric, type PromMetrics } from 'prom2javascript';

type Sample = PromMetric['data'][number];

/** A scrape of a `/metrics` endpoint, parsed by a Prometheus text-format parser. */
export class Scrape {
  private constructor(readonly families: PromMetrics) {}

  static async parse(text: string): Promise<Scrape> {
    // The parser refuses NaN samples, which Prometheus takes (prom-client's event-loop gauges
    // before their first sample); having no count to compare, they are left out.
    const lines = text.split('\n').filter((line) => !/ nan$/i.test(line));
    return new Scrape(await getMetricsFromIterator(lines[Symbol.iterator]()));
  }

  /** The family's type as its `# TYPE` line gives it (counter, gauge, histogram …). */
  type(name: string): string | undefined {
    return this.families[name]?.type;
  }

  /** The samples of a family whose labels include `labels`. */
  samples(name: string, labels: Record<string, string> = {}): Sample[] {
    const data: Sample[] = this.families[name]?.data ?? [];
    return data.filter((m) => Object.entries(labels).every(([k, v]) => m.labels[k] === v));
  }

  /** A counter's or gauge's value, or a histogram's count, summed over the matching samples; 0 when none. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.samples(name, labels).reduce((sum, m) => sum + ('value' in m ? m.value : (m as PromHistogramData).count ?? 0), 0);
  }

  /** Every label set of every family whose name starts with `prefix`. */
  labelSets(prefix: string): Record<string, string>[] {
    return Object.entries(this.families)
      .filter(([name]) => name.startsWith(prefix))
      .flatMap(([, f]) => (f.data as Sample[]).map((m) => m.labels));
  }

  /** Every label value in the scrape. */
  labelValues(): string[] {
    return this.labelSets('').flatMap((l) => Object.values(l));
  }
}

/** Scrapes `url` (with a bearer token if given) and parses it. */
export async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return Scrape.parse(await res.text());
}

/** What moved between two scrapes: `after − before` for the matching series. */
export function delta(before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}): number {
  return after.value(name, labels) - before.value(name, labels);
}
