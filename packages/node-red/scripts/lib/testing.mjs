// `@stagelink/node-red/testing`: a real Node-RED with these nodes in it, for the venue launcher (`pnpm start`), the
// benchmarks, the hardening suite and the Node 24 lane. Not published (scripts/ is not in the package's files): it
// needs the dev dependencies.
export { addDependency, installPackage } from './install-package.mjs';
export { NODE_RED_4_RED_JS, startNodeRed, writeSettings } from './node-red-process.mjs';
export { smokeTest } from './smoke-test.mjs';
