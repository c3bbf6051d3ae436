// A one-package npm registry on loopback, run as its own process (the installs under test block the test's event
// loop). The first `STALL` answers send their headers and half the body, then hang: the fault that failed installs.
//   node stalling-registry.mjs <tarball> <stall count>   prints the registry's URL, then serves until killed
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';

const [tarballPath = '', stallArg = '0'] = process.argv.slice(2);
const tarball = readFileSync(tarballPath);
const [, name = '', version = ''] = /^(.+)-(\d+\.\d+\.\d+)\.tgz$/.exec(basename(tarballPath)) ?? [];
let stallsLeft = Number(stallArg);

const server = createServer((request, response) => {
  const url = `http://127.0.0.1:${server.address().port}`;
  const body =
    request.url === `/${name}`
      ? Buffer.from(
          JSON.stringify({
            name,
            'dist-tags': { latest: version },
            versions: {
              [version]: {
                name,
                version,
                dist: { tarball: `${url}/${name}/-/${name}-${version}.tgz`, integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}` },
              },
            },
          }),
        )
      : request.url === `/${name}/-/${name}-${version}.tgz`
        ? tarball
        : undefined;
  if (!body) return response.writeHead(404).end();
  response.writeHead(200, { 'content-length': body.length, 'content-type': request.url.endsWith('.tgz') ? 'application/octet-stream' : 'application/json' });
  if (stallsLeft-- > 0) return response.write(body.subarray(0, body.length >> 1));
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}/`));
