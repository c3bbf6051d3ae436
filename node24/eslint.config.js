// The repository's eslint config; the lane's installed runtimes (.runtime/) are not ours.
import root from '../eslint.config.js';

export default [{ ignores: ['.runtime/**'] }, ...root];
