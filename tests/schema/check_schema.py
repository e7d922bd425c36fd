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
rejections = 0
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
    """A broken copy of the tutorial preset must fail validation, both by the
    schema and by `landform validate` (exit 2)."""
    global failures, rejections
    preset = copy.deepcopy(base)
    edit(preset)
    ok = True
    if validator.is_valid(preset):
        print(f"schema accepts a preset with {what}")
        ok = False
    # ...and landform validate agrees (exit 2), so the schema is not stricter
    # or looser than the tool on these.
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(preset, f)
    run = subprocess.run([cli, "validate", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if run.returncode != 2:
        print(f"landform validate exits {run.returncode} on a preset with {what}")
        ok = False
    failures += not ok
    rejections += ok


rejected("an unknown top-level key", lambda p: p.update({"sede": 3}))
rejected("a size of 0", lambda p: p.update({"size": 0}))
rejected("a world without size", lambda p: p.update({"world": {"origin": [0, 0]}}))
rejected("a misspelt stage parameter", lambda p: p["stages"][0].update({"feature_sise": 3}))
rejected("an unknown stage type", lambda p: p["stages"][0].update({"type": "opensimplx"}))
rejected("octaves out of range", lambda p: p["stages"][0].update({"octaves": 99}))
rejected("an output format the kind has not", lambda p: p.update({"outputs": [{"map": "height", "format": "jpeg"}]}))
rejected("an unknown output option", lambda p: p.update({"outputs": [{"map": "normal", "strenght": 2}]}))

# From the CLI's error tests (tests/cli/test_cli_errors.cpp, test_cli_target.cpp)
# and the hostile-preset tests (tests/unit/test_hostile_presets.cpp).
rejected("a misspelt key at the top level", lambda p: p.update({"sead": 7}))
rejected("a stage parameter of the wrong type", lambda p: p["stages"][1].update({"magnitude": "big"}))
rejected("a stage parameter below its minimum", lambda p: p["stages"][1].update({"magnitude": -3}))
rejected("octaves of 0", lambda p: p["stages"][0].update({"octaves": 0}))
rejected("a stage without a type", lambda p: p["stages"][0].pop("type"))
rejected("no stages", lambda p: p.pop("stages"))
rejected("a size that is a word", lambda p: p.update({"size": "abc"}))
rejected("a size of three numbers", lambda p: p.update({"size": [8, 8, 8]}))
rejected("a size beyond the maximum side", lambda p: p.update({"size": [1 << 30, 1]}))
rejected("a seed that is not an integer", lambda p: p.update({"seed": 1.5}))
rejected("a seed beyond the signed 64-bit range", lambda p: p.update({"seed": 1 << 64}))
rejected("an origin below the 64-bit-safe minimum", lambda p: p.update({"origin": [-(1 << 63), 0]}))
rejected("a world origin above the maximum", lambda p: p.update({"world": {"origin": [(1 << 63) - 1, 0], "size": 16}}))
rejected("a cell_size of 0", lambda p: p.update({"cell_size": 0}))
rejected("a cell_size of 1e-19", lambda p: p.update({"cell_size": 1e-19}))
rejected("a height_scale of 1e13", lambda p: p.update({"height_scale": 1e13}))
rejected("a format version other than 1", lambda p: p.update({"landform": 2}))
rejected("an unknown engine target", lambda p: p.update({"target": "unty"}))
rejected("a stage enabled by a string", lambda p: p["stages"][0].update({"enabled": "yes"}))
rejected("an unknown blend mode", lambda p: p["stages"][0].update({"blend": "overlay"}))
rejected("an unknown sampling choice", lambda p: p["stages"][1].update({"sampling": "cubic"}))
rejected("outputs that are not a list", lambda p: p.update({"outputs": {"map": "height"}}))
rejected("an output without a map in a format height has not", lambda p: p.update({"outputs": [{"format": "rgb8"}]}))
rejected("an output file with a control character",
         lambda p: p.update({"outputs": [{"map": "height", "format": "png16", "file": "a\x01b.png"}]}))
rejected("an output file name longer than 200 bytes",
         lambda p: p.update({"outputs": [{"map": "height", "format": "png16", "file": "n" * 230 + ".png"}]}))
rejected("an empty output file name", lambda p: p.update({"outputs": [{"map": "height", "file": ""}]}))
rejected("a normal map in a height format", lambda p: p.update({"outputs": [{"map": "normal", "format": "png16"}]}))

# An output without "map" is a height map (the CLI's default), not an error.
if not validator.is_valid({"stages": [{"type": "constant"}], "outputs": [{"format": "r32"}]}):
    print("schema rejects an output without map, which landform reads as a height map")
    failures += 1

print(f"{len(presets)} presets checked, {rejections} invalid presets rejected by both, {failures} failures")
assert rejections >= 20, rejections
sys.exit(1 if failures else 0)
