/**
 * The slice of autocannon 9 (which ships no types) that bench/persistence.ts uses. The Client and
 * Request shapes follow autocannon's README ("Client API", `requests`).
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request | null | undefined | false;
      onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
    }
    interface Client {
      setRequests(requests: Request[]): void;
    }
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p2_5: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      duration?: number;
      amount?: number;
      maxConnectionRequests?: number;
      timeout?: number;
      requests?: Request[];
      setupClient?: (client: Client) => void;
    }
    interface Result {
      latency: Histogram;
      requests: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
