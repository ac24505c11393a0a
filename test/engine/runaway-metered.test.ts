import { runawaySuite } from './runaways.js';

// Issue 8's runaways on the caller's thread: each holds it until its deadline, no longer.
runawaySuite('metered');
