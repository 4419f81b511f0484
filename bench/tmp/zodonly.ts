import { z } from 'zod'; export const x = z;
