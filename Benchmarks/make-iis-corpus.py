#!/usr/bin/env python3
"""Writes a synthetic IIS corpus: COUNT group schedules made from the real fixtures by renaming
their groups (151004 and 010101, alternately), so an import has real lessons at scale.
    make-iis-corpus.py FIXTURES_DIR OUT_DIR [COUNT]"""
import json
import sys
from pathlib import Path

fixtures, out = Path(sys.argv[1]), Path(sys.argv[2])
count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
out.mkdir(parents=True, exist_ok=True)
sources = [json.loads((fixtures / f"{name}.json").read_text()) for name in ("151004", "010101")]
lessons = 0
for index in range(count):
    schedule = json.loads(json.dumps(sources[index % 2]))
    old = schedule["studentGroupDto"]["name"]
    new = f"9{index:05d}"
    schedule["studentGroupDto"]["name"] = new
    schedule["studentGroupDto"]["id"] = 900000 + index
    for day in (schedule.get("schedules") or {}).values():
        for lesson in day:
            lessons += 1
            for group in lesson.get("studentGroups") or []:
                if group["name"] == old:
                    group["name"] = new
    (out / f"{new}.json").write_text(json.dumps(schedule, ensure_ascii=False))
print(f"{count} schedules, {lessons} lessons in {out}")
