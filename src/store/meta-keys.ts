/** The keys of the `meta` table, in one place. */
export const META = {
  /** The virtual clock's offset from real time, in ms. */
  clockOffset: 'clock_offset_ms',
  /** The fixture file the database was last seeded from. */
  fixturesPath: 'fixtures_path',
  /** The first app of that file: what commands act on without --app. */
  defaultAppId: 'default_app_id',
} as const;
