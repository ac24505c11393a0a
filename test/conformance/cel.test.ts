import { celFixture } from './policies.js';
import { runTransportSuite } from './suite.js';

runTransportSuite('CEL rules (@marcbachmann/cel-js)', celFixture());
