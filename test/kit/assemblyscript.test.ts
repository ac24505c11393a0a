import { endToEnd } from './end-to-end.js';

// AssemblyScript compiles in-process with the npm package (a devDependency here): never skipped.
endToEnd({ lang: 'assemblyscript', event: 'post_tool_use', files: ['hook.ts', 'glue/hook.ts', 'glue/export-names.mjs'] });
