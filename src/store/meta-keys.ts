/** The keys of the `meta` table, in one place. */
export const META = {
  /** The virtual clock's offset from real time, in ms. */
  clockOffset: 'clock_offset_ms',
  /** A frozen clock's fixed base (absent: the base is real time); the offset counts from it. */
  clockFrozenAt: 'clock_frozen_at_ms',
  /** How many streams of seeded ids this database has used (`serve --seed`): a new one per outside state. */
  seedStream: 'seed_stream',
  /** The fixture file the database was last seeded from. */
  fixturesPath: 'fixtures_path',
  /** The first app of that file: what commands act on without --app. */
  defaultAppId: 'default_app_id',
} as const;
