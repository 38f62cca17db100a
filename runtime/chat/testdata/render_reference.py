#!/usr/bin/python3
"""Renders chat test cases with an official Jinja chat template, the way Hugging Face
transformers does (sandboxed Jinja2, trim_blocks, lstrip_blocks, json.dumps tojson).

Usage: render_reference.py TEMPLATE {harmony|qwen3|qwen3coder} CASES.json [--write-goldens DIR]
Prints {case name: {"text": rendering} or {"error": message}} as JSON, or writes
DIR/<name>.txt per rendered case. Needs Debian's python3-jinja2 (/usr/bin/python3).
"""
import json
import sys

from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent,
                      separators=separators, sort_keys=sort_keys)


def raise_exception(message):
    raise ValueError(message)


def template_messages(case, family):
    """Maps our message model onto what each template reads (see docs/CHAT.md)."""
    out = []
    for m in case["messages"]:
        t = {"role": m["role"], "content": m.get("content") or ""}
        reasoning = m.get("reasoning") or ""
        if reasoning:
            t["thinking" if family == "harmony" else "reasoning_content"] = reasoning
        calls = m.get("tool_calls") or []
        if calls:
            t["tool_calls"] = []
            for c in calls:
                args = c["arguments"]
                if not isinstance(args, str):
                    args = json.dumps(args, ensure_ascii=False)
                # gpt-oss prints arguments|tojson, Qwen3-Coder iterates arguments|items:
                # both want an object.
                if family in ("harmony", "qwen3coder"):
                    try:
                        args = json.loads(args)
                    except ValueError:
                        pass
                t["tool_calls"].append({"id": c.get("id", ""), "type": "function",
                                        "function": {"name": c["name"], "arguments": args}})
        for key in ("tool_call_id", "name"):
            if m.get(key):
                t[key] = m[key]
        out.append(t)
    return out


def render(template, family, case):
    date = case.get("date", "2025-01-01")
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: date  # cases use "%Y-%m-%d" dates only
    return env.from_string(template).render(
        messages=template_messages(case, family),
        tools=case.get("tools") or None,
        add_generation_prompt=case.get("add_generation_prompt", True),
        reasoning_effort=case.get("reasoning_effort", "medium"),
        enable_thinking=case.get("enable_thinking", True))


def main():
    template = open(sys.argv[1], encoding="utf-8").read()
    family = sys.argv[2]
    cases = json.load(open(sys.argv[3], encoding="utf-8"))
    results = {}
    for case in cases:
        try:
            results[case["name"]] = {"text": render(template, family, case)}
        except Exception as e:  # the template's raise_exception and Jinja errors
            results[case["name"]] = {"error": str(e)}
    if len(sys.argv) > 5 and sys.argv[4] == "--write-goldens":
        for name, r in results.items():
            if "text" in r:
                with open(f"{sys.argv[5]}/{name}.txt", "w", encoding="utf-8") as f:
                    f.write(r["text"])
    else:
        json.dump(results, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
