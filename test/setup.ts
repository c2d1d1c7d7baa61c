// Loaded by mocha before every test file (see .mocharc.json): tsyringe needs the metadata polyfill first.
import 'reflect-metadata';
