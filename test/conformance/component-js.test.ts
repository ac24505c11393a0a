import { runJsConformance } from '../helpers/js-conformance.js';

// Every conformance vector against the JavaScript conformance guest on SpiderMonkey (componentize-js).
runJsConformance('spidermonkey');
