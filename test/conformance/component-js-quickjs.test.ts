import { runJsConformance } from '../helpers/js-conformance.js';

// Every conformance vector against the JavaScript conformance guest on QuickJS (componentize-qjs).
runJsConformance('quickjs');
