// mocha's configuration (`npm test`). A .cjs file rather than JSON for one computed entry: with
// TZIDX_TEST_SKIP_BACKEND_FREE=1 the files that never open a test database are left out (test/support/suiteFiles.ts).
const skip = process.env.TZIDX_TEST_SKIP_BACKEND_FREE === '1';

module.exports = {
  spec: ['dist/test/**/*.test.js', 'dist/plugins/**/*.test.js', 'dist/framework/**/*.test.js'],
  ignore: skip ? require('./dist/test/support/suiteFiles').backendFreeFiles(__dirname) : [],
  require: ['dist/test/setup.js'],
  timeout: 180000,
  exit: true,
  forbidOnly: true,
  parallel: true,
  jobs: 2,
};
