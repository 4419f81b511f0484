/**
 * The environment contract: the variables a backend's test suite reads to reach the emulator, in any
 * language. `scanctl exec` gives them to its command, `serve --json` prints them in its ready line
 * (`env`), the container image documents them and the CI action writes them to $GITHUB_ENV.
 * docs/environment.md lists them; test/unit/contract/environment.test.ts checks that it lists exactly these.
 */
export const ENVIRONMENT = {
  SCANCTL_BASE_URL: "the emulator's base URL (every scanctl command reads it too)",
  SCANCTL_APP_ID: "the fixtures' first app",
  SCANCTL_SECRET_KEY: 'its test secret key',
  SCANCTL_PUBLISHABLE_KEY: 'its test publishable key',
  SCANCTL_WEBHOOK_SECRET: 'its whsec_ webhook signing secret',
} as const;
export type EnvironmentName = keyof typeof ENVIRONMENT;

/** What the variables are filled from: the default app's test credentials (null without an app). */
export interface EnvironmentCredentials {
  appId: string;
  secretKey: string | null;
  publishableKey: string | null;
  webhookSecret: string | null;
}

/** The contract's values; a value that is not known is left out. */
export function environmentOf(baseUrl: string, credentials: EnvironmentCredentials | null): Partial<Record<EnvironmentName, string>> {
  const values: Record<EnvironmentName, string | null | undefined> = {
    SCANCTL_BASE_URL: baseUrl,
    SCANCTL_APP_ID: credentials?.appId,
    SCANCTL_SECRET_KEY: credentials?.secretKey,
    SCANCTL_PUBLISHABLE_KEY: credentials?.publishableKey,
    SCANCTL_WEBHOOK_SECRET: credentials?.webhookSecret,
  };
  return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string'));
}
