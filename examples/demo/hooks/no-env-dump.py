#!/usr/bin/env python3
"""post_tool_use guard, in Python: a dump of the whole environment (`env`, `printenv`, `set`) is
withheld from the model entirely. Redacting it piecemeal would still leak whatever no pattern knows,
so this hook denies: the model sees the reason, marked as an error, instead of the output."""
import json
import re
import sys

request = json.load(sys.stdin)
if request.get("hook_schema") != 1:
    print(f"no-env-dump: unsupported hook_schema {request.get('hook_schema')!r}", file=sys.stderr)
    sys.exit(3)

tool_input = request.get("input")
command = tool_input.get("command") if isinstance(tool_input, dict) else tool_input
if isinstance(command, str) and re.fullmatch(r"\s*(env|printenv|set|export -p)\s*", command):
    answer = {"decision": "deny", "reason": "environment dumps are withheld: they carry credentials no redactor knows"}
else:
    answer = {"decision": "allow"}
print(json.dumps(answer))
