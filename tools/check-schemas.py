#!/usr/bin/env python3
"""check-schemas.py [CAMPAIGN_DIR | TEMPLATE.yaml]... — validates the shipped examples against
schemas/: every campaigns/*/scenario.yaml against scenario.schema.json and
<rules>-scenario.schema.json, every order file against <rules>-orders.schema.json
(umpire-orders for player umpire), the campaign.yaml of each CAMPAIGN_DIR given (e.g. an
initialised demo) against campaign.schema.json, its close files (journal/*.close.yaml)
against close.schema.json and its maps (reports/**/*.svg and .umpire/outbox/*/*/map.svg):
well-formed XML whose root is an <svg> with a viewBox of integers, at most 4 MiB
(SVG_MAX_BYTES), with no number that is not an integer; and each TEMPLATE.yaml (an order
template from a report) against the schema its first line names (`# yaml-language-server:
$schema=ID`, ID a schema's `$id`). Every schema's `$id` must be ID_BASE + its file name,
where `make install` puts it.
Uses Debian's python3-yaml and python3-jsonschema. Exit 1 on the first invalid file set."""
import glob, json, os, re, sys
import xml.etree.ElementTree as ET
import yaml
import jsonschema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

def schema(name):
    with open(os.path.join(ROOT, "schemas", name)) as f:
        return json.load(f)

def check(path, sch):
    with open(path) as f:
        doc = yaml.safe_load(f)
    errs = sorted(jsonschema.Draft202012Validator(sch).iter_errors(doc), key=lambda e: list(e.path))
    for e in errs:
        print(f"{path}: {'/'.join(map(str, e.path)) or '(root)'}: {e.message}")
    return not errs

ID_BASE = "file:///usr/local/share/umpire/schemas/"

SVG_MAX_BYTES = 4 * 1024 * 1024
NUMBER_ATTRS = ("x", "y", "width", "height", "cx", "cy", "r", "stroke-width", "font-size")

def check_svg(path):
    size = os.path.getsize(path)
    if size > SVG_MAX_BYTES:
        print(f"{path}: {size} bytes, more than {SVG_MAX_BYTES}")
        return False
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        print(f"{path}: not well-formed XML: {e}")
        return False
    if root.tag != "{http://www.w3.org/2000/svg}svg" or not re.fullmatch(r"0 0 \d+ \d+", root.get("viewBox", "")):
        print(f"{path}: not an <svg> with an integer viewBox")
        return False
    for el in root.iter():
        for name in NUMBER_ATTRS:
            v = el.get(name)
            if v is not None and not re.fullmatch(r"-?\d+", v):
                print(f"{path}: {el.tag.split('}')[-1]} {name}=\"{v}\" is not an integer")
                return False
        d = el.get("d")
        if d is not None and not re.fullmatch(r"M-?\d+ -?\d+([MLHVAZmlhvaz]|-?\d+| |\n)*", d):
            print(f"{path}: path d=\"{d[:60]}\" is not integer path data")
            return False
        pts = el.get("points")
        if pts is not None and not re.fullmatch(r"-?\d+,-?\d+( -?\d+,-?\d+)*", pts):
            print(f"{path}: {el.tag.split('}')[-1]} points=\"{pts}\" are not integer pairs")
            return False
    return True

ok = True
count = 0
by_id = {}
for path in sorted(glob.glob(os.path.join(ROOT, "schemas", "*.schema.json"))):
    sid = schema(os.path.basename(path)).get("$id")
    if sid != ID_BASE + os.path.basename(path):
        print(f"{path}: $id {sid!r}, not {ID_BASE + os.path.basename(path)!r}")
        ok = False
    by_id[sid] = os.path.basename(path)
for scen in sorted(glob.glob(os.path.join(ROOT, "campaigns", "*", "scenario.yaml"))):
    with open(scen) as f:
        rules = yaml.safe_load(f)["rules"]
    ok &= check(scen, schema("scenario.schema.json")); count += 1
    ok &= check(scen, schema(f"{rules}-scenario.schema.json")); count += 1
    for order in sorted(glob.glob(os.path.join(os.path.dirname(scen), "orders", "*", "*.yaml"))):
        name = "umpire-orders.schema.json" if os.path.basename(order) == "umpire.yaml" else f"{rules}-orders.schema.json"
        ok &= check(order, schema(name)); count += 1
templates = [a for a in sys.argv[1:] if a.endswith(".yaml")]
for tpl in templates:
    with open(tpl) as f:
        first = f.readline().rstrip("\n")
    prefix = "# yaml-language-server: $schema="
    if not first.startswith(prefix) or first[len(prefix):] not in by_id:
        print(f"{tpl}: first line {first!r} names no schema of schemas/")
        ok = False
        continue
    ok &= check(tpl, schema(by_id[first[len(prefix):]])); count += 1
for camp in [a for a in sys.argv[1:] if a not in templates]:
    ok &= check(os.path.join(camp, "campaign.yaml"), schema("campaign.schema.json")); count += 1
    for close in sorted(glob.glob(os.path.join(camp, "journal", "*.close.yaml"))):
        ok &= check(close, schema("close.schema.json")); count += 1
    maps = glob.glob(os.path.join(camp, "reports", "**", "*.svg"), recursive=True)
    maps += glob.glob(os.path.join(camp, ".umpire", "outbox", "*", "*", "map.svg"))
    for svg in sorted(maps):
        ok &= check_svg(svg); count += 1
print(f"check-schemas: {count} files {'valid' if ok else 'NOT valid'}")
sys.exit(0 if ok else 1)
