#!/usr/bin/env python3
"""The JSON Schema from `landform schema` against the presets it describes.

Every preset in presets/ and tests/golden/cases/ must validate; presets with
a misspelt key, a wrong type or an out-of-range value (each also an error of
`landform validate`) must not. Run by CTest as the `schema` test:
    check_schema.py path/to/landform path/to/source
"""
import copy
import glob
import json
import os
import subprocess
import sys
import tempfile

import jsonschema

cli, source = sys.argv[1], sys.argv[2]
schema = json.loads(subprocess.run([cli, "schema"], check=True, capture_output=True, text=True).stdout)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failures = 0
presets = sorted(glob.glob(os.path.join(source, "presets", "*.json")) +
                 glob.glob(os.path.join(source, "tests", "golden", "cases", "*.json")))
assert len(presets) > 20, presets
for path in presets:
    with open(path) as f:
        preset = json.load(f)
    errors = list(validator.iter_errors(preset))
    for e in errors[:3]:
        print(f"{os.path.relpath(path, source)}: {'/'.join(map(str, e.absolute_path))}: {e.message[:200]}")
    failures += bool(errors)

with open(os.path.join(source, "presets", "tutorial.json")) as f:
    base = json.load(f)


def rejected(what, edit):
    """A broken copy of the tutorial preset must fail validation."""
    global failures
    preset = copy.deepcopy(base)
    edit(preset)
    if validator.is_valid(preset):
        print(f"schema accepts a preset with {what}")
        failures += 1
    # ...and landform validate agrees (exit 2), so the schema is not stricter
    # or looser than the tool on these.
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(preset, f)
    run = subprocess.run([cli, "validate", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if run.returncode != 2:
        print(f"landform validate exits {run.returncode} on a preset with {what}")
        failures += 1


rejected("an unknown top-level key", lambda p: p.update({"sede": 3}))
rejected("a size of 0", lambda p: p.update({"size": 0}))
rejected("a world without size", lambda p: p.update({"world": {"origin": [0, 0]}}))
rejected("a misspelt stage parameter", lambda p: p["stages"][0].update({"feature_sise": 3}))
rejected("an unknown stage type", lambda p: p["stages"][0].update({"type": "opensimplx"}))
rejected("octaves out of range", lambda p: p["stages"][0].update({"octaves": 99}))
rejected("an output format the kind has not", lambda p: p.update({"outputs": [{"map": "height", "format": "jpeg"}]}))
rejected("an unknown output option", lambda p: p.update({"outputs": [{"map": "normal", "strenght": 2}]}))

print(f"{len(presets)} presets checked, {failures} failures")
sys.exit(1 if failures else 0)
