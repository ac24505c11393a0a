#!/bin/sh
# pre_tool_use guard, in plain POSIX sh with no jq: deny `git push --force` and `git push -f`.
# The request is one line of compact JSON on stdin; grep is enough to recognise the command in it.
# `--force-with-lease` is allowed: it refuses to overwrite work it has not seen.
request=$(cat)

# First check that the request is a shape this script understands (the wire format's version).
case $request in
  *'"hook_schema":1,'*) ;;
  *) echo "no-force-push: unsupported hook_schema in request" >&2; exit 3 ;;
esac

# Within one JSON string ([^"]*), `git push` followed later by a lone --force or -f.
if printf '%s' "$request" | grep -Eq 'git[[:space:]]+push[^"]*[[:space:]](--force|-f)([[:space:]"]|$)'; then
  printf '%s\n' '{"decision":"deny","reason":"force-push is not allowed in this workspace; push normally, or use --force-with-lease"}'
else
  printf '%s\n' '{"decision":"allow"}'
fi
