// `@stagelink/venue/testing`: `pnpm start`'s setup as one call, for the browser tests.
export { startDemo } from './start-demo.mjs';
