import { cedarFixture } from './policies.js';
import { runTransportSuite } from './suite.js';

runTransportSuite('Cedar policy set (@cedar-policy/cedar-wasm)', cedarFixture());
