#!/usr/bin/env python3
"""Prices the default armies in data/magna-graecia/armies/*.toml with
data/magna-graecia/tables/elements.toml.

For every army it prints the cost, the share of the scenario's army points, and each
command with its general, rank, element count, movement points and cost. It exits 1 if
anything is wrong:

  * an army outside 95-100 % of its side's `army_points` in data/magna-graecia/scenarios/<id>.toml;
  * an element string that does not read as "4 Reg Sp(O)" (or "Reg Cv(O)" for a general);
  * a type, class or grade the points table does not price;
  * an army without exactly one c-in-c, or a rank that is not c-in-c/sub-general/ally-general;
  * a command under 4 or over 20 elements (the general's included), or two commands with
    one name;
  * an army for a side the scenario does not have, or a side without an army.

It also warns (without failing) when no army of a scenario has a fast command (only
mounted and/or psiloi elements, so 2 movement points on the campaign map).

Usage: python3 data/magna-graecia/tools/army_points.py [magna-graecia-dir]
  (a data folder's `magna-graecia` folder; default: the folder above this script)
"""
import os
import re
import sys
import tomllib

LOW, HIGH = 0.95, 1.00
MIN_ELEMENTS, MAX_ELEMENTS = 4, 20
RANKS = {"c-in-c": "c_in_c", "sub-general": "sub_general", "ally-general": "ally_general"}
MOBILITIES = {"mounted", "foot", "psiloi", "elephant", "expendable", "artillery"}
GRADES = {"S", "O", "I", "F", "X"}
FAST = {"mounted", "psiloi"}

SPEC = re.compile(r"^(Reg|Irr) ([A-Za-z]+)\(([SOIFX])\)$")
GROUP = re.compile(r"^([1-9][0-9]*) (.+)$")


def load(path):
    with open(path, "rb") as f:
        return tomllib.load(f)


def read_table(path, errors):
    raw = load(path)
    if raw.get("version") != 1:
        errors.append(f"{path}: version must be 1")
    gen = raw.get("generals", {})
    for key in RANKS.values():
        if not isinstance(gen.get(key), int):
            errors.append(f"{path}: [generals] lacks {key}")
    costs, mobility = {}, {}
    for t in raw.get("element", []):
        code = t["code"]
        if code in mobility:
            errors.append(f"{path}: element type {code} is defined twice")
        if t.get("mobility") not in MOBILITIES:
            errors.append(f"{path}: {code} has mobility {t.get('mobility')!r}")
        mobility[code] = t.get("mobility")
        for c in t.get("costs", []):
            g = c.get("grade")
            if g not in GRADES:
                errors.append(f"{path}: {code} has grade {g!r}")
            if "reg" not in c and "irr" not in c:
                errors.append(f"{path}: {code}({g}) has neither reg nor irr")
            for cls, key in (("Reg", "reg"), ("Irr", "irr")):
                if key in c:
                    if (cls, code, g) in costs:
                        errors.append(f"{path}: {cls} {code}({g}) is priced twice")
                    costs[(cls, code, g)] = c[key]
    return costs, mobility, gen


def parse_spec(text):
    m = SPEC.match(text)
    return (m.group(1), m.group(2), m.group(3)) if m else None


def parse_group(text):
    m = GROUP.match(text)
    if not m:
        return None
    spec = parse_spec(m.group(2))
    return (int(m.group(1)), spec) if spec else None


def fmt(spec):
    return f"{spec[0]} {spec[1]}({spec[2]})"


def check_army(where, army, points, costs, mobility, gen, errors):
    """Prints one army; returns whether it has a fast (2 MP) command."""
    total = 0
    lines = []
    chiefs = 0
    names = set()
    has_fast = False
    for cmd in army.get("command", []):
        name = cmd.get("name", "")
        here = f"{where}, command {name!r}"
        if not name.strip():
            errors.append(f"{where}: a command has no name")
        elif name in names:
            errors.append(f"{where}: two commands are called {name!r}")
        names.add(name)
        rank = cmd.get("rank")
        if rank not in RANKS:
            errors.append(f"{here}: rank {rank!r} is not c-in-c, sub-general or ally-general")
            surcharge = 0
        else:
            surcharge = gen.get(RANKS[rank], 0)
        chiefs += rank == "c-in-c"
        specs = []  # (count, spec)
        g = parse_spec(cmd.get("general", ""))
        if g is None:
            errors.append(f"{here}: general {cmd.get('general')!r} does not read like \"Reg Cv(O)\"")
        else:
            specs.append((1, g))
        for e in cmd.get("elements", []):
            grp = parse_group(e)
            if grp is None:
                errors.append(f"{here}: {e!r} does not read like \"4 Reg Sp(O)\"")
            else:
                specs.append(grp)
        cost = surcharge
        count = 0
        fast = True
        for n, spec in specs:
            count += n
            if spec[1] not in mobility:
                errors.append(f"{here}: {spec[1]} is not an element type of the table")
                fast = False
                continue
            if spec not in costs:
                errors.append(f"{here}: {fmt(spec)} has no cost in the table")
            cost += n * costs.get(spec, 0)
            fast &= mobility[spec[1]] in FAST
        if not MIN_ELEMENTS <= count <= MAX_ELEMENTS:
            errors.append(f"{here}: {count} elements; a command has {MIN_ELEMENTS} to {MAX_ELEMENTS}")
        has_fast |= fast
        total += cost
        body = ", ".join(e for e in cmd.get("elements", []))
        lines.append(f"    {name} ({rank}, {cmd.get('general')}): {count} el, {2 if fast else 1} MP, {cost} pts -- {body}")
    if chiefs != 1:
        errors.append(f"{where}: {chiefs} c-in-c; an army has exactly one")
    share = total / points if points else 0
    ok = LOW * points <= total <= HIGH * points
    if not ok:
        errors.append(f"{where}: costs {total}, outside {LOW:.0%}-{HIGH:.0%} of {points} "
                      f"({int(-(-LOW * points // 1))}-{int(HIGH * points)})")
    print(f"  {army.get('side')}: {total}/{points} pts ({share:.1%}){'' if ok else '  <-- OUT OF RANGE'}")
    print(f"    list: {army.get('list')}")
    for line in lines:
        print(line)
    return has_fast


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    errors, warnings = [], []
    costs, mobility, gen = read_table(os.path.join(root, "tables", "elements.toml"), errors)
    print(f"generals: c-in-c +{gen.get('c_in_c')}, sub-general +{gen.get('sub_general')}, "
          f"ally-general +{gen.get('ally_general')}")
    army_dir = os.path.join(root, "armies")
    for file in sorted(f for f in os.listdir(army_dir) if f.endswith(".toml")):
        path = os.path.join(army_dir, file)
        raw = load(path)
        if raw.get("version") != 1:
            errors.append(f"{file}: version must be 1")
        sid = raw.get("scenario")
        spath = os.path.join(root, "scenarios", f"{sid}.toml")
        if not os.path.exists(spath):
            errors.append(f"{file}: scenario {sid!r} has no file {spath}")
            continue
        scen = load(spath)
        sides = {s["id"]: s["army_points"] for s in scen["side"]}
        print(f"\n{scen['name']} ({file})")
        seen = set()
        any_fast = False
        for army in raw.get("army", []):
            side = army.get("side")
            if side in seen:
                errors.append(f"{file}: side {side!r} has two armies")
            seen.add(side)
            if side not in sides:
                errors.append(f"{file}: scenario {sid} has no side {side!r}")
                continue
            any_fast |= check_army(f"{file}, {side}", army, sides[side], costs, mobility, gen, errors)
        for side in sides:
            if side not in seen:
                errors.append(f"{file}: side {side!r} has no army")
        if not any_fast:
            warnings.append(f"{file}: no army has a command of only mounted and/or psiloi elements")
    for w in warnings:
        print(f"warning: {w}")
    if errors:
        print(f"\n{len(errors)} problem(s):", file=sys.stderr)
        for e in errors:
            print(f"  {e}", file=sys.stderr)
        return 1
    print("\nall armies within 95-100% of their points; every element priced")
    return 0


if __name__ == "__main__":
    sys.exit(main())
