#!/usr/bin/env python3
"""pre_tool_use gate for deployments, in Python, that reads its policy from deploy-policy.json next
to the config. In this demo the policy file is missing, so the hook crashes (exit 1) — and because
its on_failure is "deny", a broken gate fails closed: the deployment does not run."""
import json
import os
import sys

request = json.load(sys.stdin)
policy_path = os.path.join(os.environ["BASIS_HOOKS_CONFIG_DIR"], "deploy-policy.json")
with open(policy_path, encoding="utf-8") as f:  # raises FileNotFoundError in the demo
    policy = json.load(f)

target = (request.get("input") or {}).get("environment")
if target in policy.get("frozen", []):
    print(json.dumps({"decision": "deny", "reason": f"{target} is in a change freeze"}))
else:
    print(json.dumps({"decision": "allow"}))
