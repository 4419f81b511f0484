import { afterAll } from 'vitest';
import { removeTempDirs } from './helpers/temp.js';

// Registered first, so it runs after the file's own afterAll hooks have stopped its servers.
afterAll(() => removeTempDirs());
