import type { TestProject } from 'vitest/node';
import { installNode24 } from '../src/node24.js';

/** Installs Node 24 once for every test file of the lane. */
export default function setup(project: TestProject): void {
  project.provide('node24', installNode24());
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The path of the Node 24 binary. */
    node24: string;
  }
}
