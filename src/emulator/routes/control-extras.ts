import { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** Control plane extras (issue 6): faults, chaos, state export/import/reset, request log stream. */
export function controlExtraRoutes(ctx: EmulatorContext) {
  void ctx;
  return new Hono<AppEnv>();
}
