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

export function startBackend(options: { serviceUrl: string; secretKey: string; webhookSecret: string; port?: number }): Promise<Backend>;
