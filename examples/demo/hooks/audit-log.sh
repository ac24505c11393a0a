#!/bin/sh
# pre_tool_use audit hook for web fetches that ships each request to a (slow) audit endpoint. In
# the demo the endpoint hangs; the hook's timeout_ms cuts it off, and because its on_failure is
# "allow", a missing audit record does not block the agent (fail open).
cat >/dev/null
sleep 5
printf '%s\n' '{"decision":"allow"}'
