// Read by companion-module-build: the licence goes into the package Companion imports, beside its manifest.
module.exports = {
  extraFiles: ['LICENSE'],
};
