import { Hono } from 'hono';
import type { AppEnv, EmulatorContext } from '../context.js';

/** Control plane for the device side (issue 3): installations, scans, usage. */
export function controlDeviceRoutes(ctx: EmulatorContext) {
  void ctx;
  return new Hono<AppEnv>();
}
