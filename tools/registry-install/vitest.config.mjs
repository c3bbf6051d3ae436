import { defineConfig } from 'vitest/config';

// Each test runs npm against a registry on loopback, several seconds on a busy machine.
export default defineConfig({ test: { testTimeout: 60_000 } });
