/**
 * A file's text, imported with a `?raw` suffix: the page's script and styles and uPlot's are put into the bundle as
 * text at build time (tsdown.config.ts's plugin; vitest reads the suffix itself), so the package reads nothing
 * from node_modules at run time.
 */
declare module '*?raw' {
  const text: string;
  export default text;
}
