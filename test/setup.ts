// Loaded by mocha before every test file (see .mocharc.cjs): tsyringe needs the metadata polyfill first.
import 'reflect-metadata';
