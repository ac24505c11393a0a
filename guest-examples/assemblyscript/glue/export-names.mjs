// asc transform: give the hook's exports the names the component model expects.
//
// AssemblyScript exports are identifiers, but a function of an exported WIT interface is exported from
// the core module as `<package>/<interface>@<version>#<func>` (and its post-return as
// `cabi_post_<that>`), which no identifier can spell. After compilation this transform renames
//   handle            → basis:hook/handler@1.0.0#handle
//   cabi_post_handle  → cabi_post_basis:hook/handler@1.0.0#handle
// Use: asc hook.ts --transform ./glue/export-names.mjs ...
import { Transform } from 'assemblyscript/transform';

const HANDLE = 'basis:hook/handler@1.0.0#handle';
const RENAMES = [
  ['handle', HANDLE],
  ['cabi_post_handle', `cabi_post_${HANDLE}`],
];

export default class ExportNames extends Transform {
  /** @param {import('binaryen').Module} module the compiled module (binaryen.js API) */
  afterCompile(module) {
    for (const [from, to] of RENAMES) {
      const ref = module.getExport(from);
      if (ref === 0) throw new Error(`export-names: the hook does not export \`${from}\``);
      const internal = this.binaryen.getExportInfo(ref).value;
      module.removeExport(from);
      module.addFunctionExport(internal, to);
    }
  }
}
