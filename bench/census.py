#!/usr/bin/env python3
"""bench/census.py — the tool_use census of a folder of Claude Code transcripts, in plain Python
3.11 (stdlib only): the baseline that bench/run.mjs times against omg-evidence.

    python3 bench/census.py DIR > census.tsv

Walks DIR recursively for *.jsonl, json.loads every non-blank line, and counts the tool_use blocks
of top-level "assistant" lines per (sessionId, tool name), de-duplicated by block id within a
session. progress lines (agent_progress mirrors) are never counted; sub-agent files carry the
parent's sessionId, so their calls count in the parent session. Prints
`session_id<TAB>tool<TAB>count` sorted, no header (the format of the generator's expected.tsv).
"""
import json
import os
import sys


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: python3 bench/census.py DIR")
    seen: dict[str, set] = {}
    counts: dict[tuple[str, str], int] = {}
    for dirpath, dirnames, filenames in os.walk(sys.argv[1]):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(dirpath, name), "rb") as f:
                for line in f:
                    if not line.strip():
                        continue
                    rec = json.loads(line)
                    if not isinstance(rec, dict) or rec.get("type") != "assistant":
                        continue
                    content = (rec.get("message") or {}).get("content")
                    if not isinstance(content, list):
                        continue
                    sid = rec.get("sessionId")
                    ids = seen.setdefault(sid, set())
                    for block in content:
                        if isinstance(block, dict) and block.get("type") == "tool_use":
                            bid = block.get("id")
                            if bid in ids:
                                continue
                            ids.add(bid)
                            key = (sid, block.get("name"))
                            counts[key] = counts.get(key, 0) + 1
    sys.stdout.write("".join(f"{s}\t{t}\t{n}\n" for (s, t), n in sorted(counts.items())))


if __name__ == "__main__":
    main()
