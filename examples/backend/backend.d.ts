/** The example backend's surface, for its TypeScript tests. */
export interface CompletedScan {
  member: string;
  occurredAt: string;
  /** YYYY-MM of occurred_at: the month the scan is billed in (BILL-4). */
  month: string;
}

export interface Backend {
  url: string;
  webhookUrl: string;
  state: {
    completedScans: Map<string, CompletedScan>;
    results: Map<string, Array<{ scanId: string; result: unknown }>>;
    handledEvents: Set<string>;
    /** Deliveries refused for their signature. */
    rejected: number;
    /** Set to make the webhook receiver answer 503, as during an outage. */
    failing: boolean;
  };
  billableMembers(month: string): number;
  close(): Promise<void>;
}

/** Where the webhook handler writes completed scans (default: `state.completedScans`). */
export interface ScanStore {
  saveCompletedScan(scanId: string, scan: CompletedScan): void | Promise<void>;
}

export interface BackendOptions {
  serviceUrl: string;
  secretKey: string;
  webhookSecret: string;
  port?: number;
  /** Replaces the default store: a test injects one that fails to make the handler itself fail. */
  store?: ScanStore;
}

export function startBackend(options: BackendOptions): Promise<Backend>;
