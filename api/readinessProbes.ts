/**
 * Readiness checks of the services a server process depends on beside its database (README "Running at
 * scale" → "Conversion queue, health and shutdown"): the S3 bucket of the revisions (STORAGE=s3) and Redis
 * (REALTIME=redis). GET /api/ready (api/routes/health.ts) asks them on every call; a load balancer asks
 * often, so each answer is reused for a few seconds and a probe that does not answer in time counts as
 * failed. Services that are not configured have no probe and count as ready.
 */

/** The services with a readiness probe. */
export type ProbeName = 'storage' | 'realtime';

/** How long a probe's answer is reused, ms. */
export const PROBE_CACHE_MS = 5000;
/** How long a probe may take before it counts as failed, ms. */
export const PROBE_TIMEOUT_MS = 2000;

/** A probe: resolves when the service answers, rejects (or takes too long) when it does not. */
export type Probe = () => Promise<unknown>;

interface Entry {
  probe: Probe;
  /** The last answer and when it was got (ms since the epoch); none yet: at 0. */
  ok: boolean;
  at: number;
  /** The probe under way, shared by the calls that come meanwhile. */
  running: Promise<boolean> | null;
}

/** The readiness probes of one server process. */
export class ReadinessProbes {
  private readonly entries = new Map<ProbeName, Entry>();

  constructor(
    private readonly cacheMs = PROBE_CACHE_MS,
    private readonly timeoutMs = PROBE_TIMEOUT_MS,
  ) {}

  /** Sets the probe of `name` (replacing one set before); returns its removal (the service is closed). */
  add(name: ProbeName, probe: Probe): () => void {
    const entry: Entry = { probe, ok: false, at: 0, running: null };
    this.entries.set(name, entry);
    return () => {
      if (this.entries.get(name) === entry) this.entries.delete(name);
    };
  }

  /**
   * Whether each service answers: true for one without a probe; else its probe's answer, reused for
   * `cacheMs` and false when the probe rejected or took more than `timeoutMs`. Never rejects.
   */
  async results(): Promise<Record<ProbeName, boolean>> {
    const [storage, realtime] = await Promise.all([this.result('storage'), this.result('realtime')]);
    return { storage, realtime };
  }

  private result(name: ProbeName): Promise<boolean> {
    const entry = this.entries.get(name);
    if (!entry) return Promise.resolve(true);
    if (entry.at > 0 && Date.now() - entry.at < this.cacheMs) return Promise.resolve(entry.ok);
    entry.running ??= this.ask(entry.probe).then((ok) => {
      entry.ok = ok;
      entry.at = Date.now();
      entry.running = null;
      return ok;
    });
    return entry.running;
  }

  /** Runs `probe` once: true when it resolved within the time-out. */
  private async ask(probe: Probe): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.timeoutMs);
    });
    try {
      return await Promise.race([
        Promise.resolve()
          .then(probe)
          .then(
            () => true,
            () => false,
          ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
