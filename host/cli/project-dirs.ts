/**
 * The agents' project-directory variables in a path our CLI is given: `$CLAUDE_PROJECT_DIR/hooks.json`
 * (or `${GEMINI_PROJECT_DIR}/…`, any `…_PROJECT_DIR`) is expanded from the environment the agent
 * sets for its hooks. A shell would do it too — but not inside single quotes, nor where an agent
 * runs a hook without a shell (Claude Code's exec-form `args`), and a committed setting must work in
 * both. Only these variables are expanded: a path is not a template.
 */
const PROJECT_DIR_VAR = /\$(?:\{([A-Z][A-Z0-9_]*_PROJECT_DIR)\}|([A-Z][A-Z0-9_]*_PROJECT_DIR)(?![A-Za-z0-9_]))/g;

/** The path with its project-directory variables expanded, or the first one that is not set. */
export function expandProjectDirs(value: string, env: NodeJS.ProcessEnv = process.env): { readonly path: string } | { readonly unset: string } {
  let unset: string | undefined;
  const path = value.replace(PROJECT_DIR_VAR, (match, braced: string | undefined, bare: string | undefined) => {
    const name = (braced ?? bare) as string;
    const found = env[name];
    if (found === undefined || found === '') {
      unset ??= name;
      return match;
    }
    return found;
  });
  return unset === undefined ? { path } : { unset };
}
