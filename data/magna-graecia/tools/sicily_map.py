#!/usr/bin/env python3
"""Writes data/magna-graecia/maps/sicily.toml from the compact table below.

Positions come from the ancient sites' longitude and latitude, projected to kilometres.
The road leaving each battle map toward a neighbour is put on the table edge that faces
that neighbour, skipping edges that are sea. Edit the table, run this, and commit both.
"""
import math, os

LON0, LAT0 = 12.30, 38.35
KX, KY = 88.0, 111.0  # km per degree of longitude (at 37.5 N) and latitude

# id, name, lon, lat, coastal, south_coast, city_commands (0 = unfortified), settlement kind,
# settlement area, coast edges, rivers [(name, from, to, fords)], features [(kind, area, size, name)]
N = [
 (0, "Motya", 12.47, 37.87, True, True, 2, "city", "west", ["west"],
   [], [("marsh", "north-west", "medium", "the salt lagoon"), ("olive-groves", "east", "small", "")]),
 (1, "Lilybaeum", 12.44, 37.80, True, True, 2, "city", "south-west", ["west", "south"],
   [], [("marsh", "north-west", "small", "coastal salt pans"), ("hill", "north-east", "small", "")]),
 (2, "Drepanum", 12.51, 38.02, True, False, 1, "city", "north-west", ["north", "west"],
   [], [("steep-hill", "east", "large", "Mount Eryx"), ("marsh", "south-west", "small", "salt pans")]),
 (3, "Segesta", 12.83, 37.94, False, False, 2, "city", "centre", [],
   [("Crimisus", "north", "south", 2)], [("steep-hill", "north-west", "medium", "Mount Barbaro"), ("hill", "south-east", "medium", ""), ("wood", "north-east", "small", "")]),
 (4, "Panormus", 13.36, 38.12, True, False, 3, "city", "north", ["north"],
   [("Oreto", "south", "sea", 2)], [("steep-hill", "north-west", "medium", "Mount Heircte"), ("olive-groves", "south-east", "medium", ""), ("hill", "south-west", "small", "")]),
 (5, "Mazara", 12.59, 37.65, True, True, 1, "city", "south-west", ["south"],
   [("Mazaros", "north", "sea", 1)], [("marsh", "south-east", "small", ""), ("olive-groves", "north-west", "small", "")]),
 (6, "Selinus", 12.83, 37.58, True, True, 2, "city", "south", ["south"],
   [("Hypsas", "north", "sea", 2), ("Selinus", "north", "sea", 1)], [("hill", "north-east", "medium", "Manuzza"), ("marsh", "south-west", "small", "")]),
 (7, "Entella", 13.12, 37.78, False, False, 1, "city", "centre", [],
   [("Hypsas", "north", "south", 2)], [("steep-hill", "centre", "large", "the rock of Entella"), ("rough", "north-east", "medium", ""), ("hill", "south-west", "small", "")]),
 (8, "Himera", 13.82, 37.97, True, False, 2, "city", "north-west", ["north"],
   [("Himeras", "south", "sea", 2)], [("hill", "west", "medium", "the upper city"), ("hill", "south-east", "small", ""), ("olive-groves", "south-west", "small", "")]),
 (9, "Cephaloedium", 14.02, 38.04, True, False, 1, "city", "north", ["north"],
   [], [("steep-hill", "north-east", "medium", "the Rocca"), ("wood", "south", "large", "Nebrodi forest"), ("hill", "west", "small", "")]),
 (10, "Petra", 14.10, 37.80, False, False, 0, "town", "centre", [],
   [("Himeras", "south", "north", 2)], [("steep-hill", "north-east", "large", "the Madonie"), ("wood", "north-west", "medium", ""), ("hill", "south", "medium", "")]),
 (11, "Camicus", 13.55, 37.48, False, False, 1, "city", "north-east", [],
   [("Halycus", "north", "south", 2)], [("steep-hill", "north-east", "small", "the citadel rock"), ("hill", "west", "medium", ""), ("rough", "south-east", "small", "")]),
 (12, "Heraclea Minoa", 13.28, 37.40, True, True, 1, "city", "south-west", ["south"],
   [("Halycus", "north", "sea", 2)], [("hill", "west", "medium", "Capo Bianco"), ("olive-groves", "north-east", "small", "")]),
 (13, "Acragas", 13.58, 37.29, True, True, 3, "city", "centre", ["south"],
   [("Acragas", "north", "sea", 2), ("Hypsas", "west", "sea", 1)], [("steep-hill", "north", "medium", "the acropolis"), ("hill", "east", "small", "the temple ridge"), ("olive-groves", "west", "medium", "")]),
 (14, "Enna", 14.28, 37.57, False, False, 2, "city", "centre", [],
   [], [("steep-hill", "centre", "large", "the Enna plateau"), ("marsh", "south", "small", "Lake Pergusa"), ("wood", "north-west", "medium", ""), ("hill", "east", "medium", "")]),
 (15, "Halaesa", 14.25, 37.99, True, False, 1, "city", "north-east", ["north"],
   [("Halaesus", "south", "sea", 1)], [("hill", "east", "medium", ""), ("wood", "south-west", "large", "Nebrodi forest")]),
 (16, "Gela", 14.25, 37.07, True, True, 2, "city", "south", ["south"],
   [("Gelas", "north", "sea", 2)], [("hill", "south-west", "small", "the city ridge"), ("olive-groves", "north", "medium", ""), ("marsh", "south-east", "small", "")]),
 (17, "Centuripa", 14.74, 37.62, False, False, 1, "city", "centre", [],
   [("Symaethus", "north", "south", 2), ("Cyamosorus", "west", "south", 1)], [("steep-hill", "centre", "medium", "the Centuripa ridge"), ("rough", "north-east", "medium", "the lava of Aetna"), ("hill", "west", "small", "")]),
 (18, "Morgantina", 14.48, 37.43, False, False, 1, "city", "north-east", [],
   [("Gornalunga", "west", "east", 2)], [("hill", "north-east", "medium", "Serra Orlando"), ("wood", "south-west", "medium", ""), ("hill", "south", "small", "")]),
 (19, "Hybla Heraea", 14.73, 36.93, False, False, 1, "city", "east", [],
   [("Hyrminus", "north", "south", 2)], [("steep-hill", "east", "medium", "the Hyblaean ridge"), ("rough", "north-west", "medium", ""), ("olive-groves", "south", "small", "")]),
 (20, "Camarina", 14.45, 36.87, True, True, 1, "city", "south", ["south"],
   [("Hipparis", "north", "sea", 1), ("Oanis", "east", "sea", 1)], [("marsh", "south-west", "medium", "the Camarina marsh"), ("hill", "north-east", "small", "")]),
 (21, "Acrae", 14.90, 37.05, False, False, 1, "city", "centre", [],
   [("Anapus", "north", "east", 2)], [("steep-hill", "centre", "medium", "the Acrae hill"), ("rough", "south", "medium", ""), ("wood", "west", "small", "")]),
 (22, "Paliki", 14.73, 37.35, False, False, 1, "city", "north", [],
   [("Margi", "west", "east", 2)], [("steep-hill", "north", "small", "the Rocchicella"), ("marsh", "centre", "small", "the sacred lakes"), ("hill", "south", "medium", "")]),
 (23, "Leontini", 15.00, 37.29, False, False, 2, "city", "south-west", [],
   [("Terias", "west", "east", 2), ("Lissos", "south", "north", 1)], [("hill", "south-west", "medium", "the twin hills"), ("marsh", "north-east", "small", "Lake Lentini")]),
 (24, "Catana", 15.09, 37.50, True, False, 2, "city", "east", ["east"],
   [("Symaethus", "west", "sea", 2), ("Amenanus", "north", "sea", 1)], [("rough", "north-west", "large", "the lava of Aetna"), ("olive-groves", "south-west", "medium", "")]),
 (25, "Megara Hyblaea", 15.18, 37.20, True, False, 1, "city", "east", ["east"],
   [("Alabon", "west", "sea", 1), ("Cantera", "north", "sea", 1)], [("hill", "west", "medium", ""), ("olive-groves", "south", "small", "")]),
 (26, "Naxos", 15.27, 37.82, True, False, 1, "city", "east", ["east"],
   [("Acesines", "west", "sea", 2)], [("steep-hill", "north", "medium", "Mount Taurus"), ("rough", "south-west", "medium", "the lava of Aetna")]),
 (27, "Tyndaris", 15.04, 38.14, True, False, 1, "city", "north", ["north"],
   [("Helicon", "south", "sea", 1)], [("steep-hill", "north-east", "small", "the Tyndaris headland"), ("wood", "south", "large", "Nebrodi forest"), ("hill", "west", "small", "")]),
 (28, "Messena", 15.55, 38.19, True, False, 2, "city", "east", ["east", "north"],
   [], [("steep-hill", "west", "large", "the Peloritani"), ("hill", "south", "small", "")]),
 (29, "Mylae", 15.24, 38.22, True, False, 1, "city", "north", ["north"],
   [("Longanus", "south", "sea", 2)], [("hill", "north-east", "small", "the Mylae peninsula"), ("steep-hill", "south-east", "medium", "the Peloritani")]),
 (30, "Helorus", 15.11, 36.84, True, True, 1, "city", "east", ["east"],
   [("Helorus", "west", "sea", 2)], [("marsh", "south-east", "medium", ""), ("hill", "north-west", "small", "")]),
 (31, "Syracuse", 15.29, 37.07, True, False, 3, "city", "east", ["east"],
   [("Anapus", "west", "sea", 2)], [("steep-hill", "north", "large", "Epipolae"), ("marsh", "south", "medium", "the Lysimeleia marsh"), ("hill", "west", "small", "the Olympieion")]),
]

PATHS = [
 (0,1),(0,2),(0,3),(1,5),(2,3),(2,4),(3,4),(3,7),(3,5),(4,7),(4,8),(5,6),(6,7),(6,12),
 (7,11),(8,9),(8,10),
 (9,10),(10,11),(11,12),
 (9,15),(10,14),(10,15),(11,13),(11,14),(12,13),
 (13,16),(14,15),(14,17),(14,18),(16,18),(16,19),(16,20),(15,27),
 (17,18),(18,19),(19,20),(17,27),
 (17,22),(17,24),(18,22),(19,21),(20,30),(21,22),(21,30),(22,23),(22,24),(22,30),
 (23,24),(23,25),(23,31),(24,25),(24,26),(25,31),(26,28),(27,29),(28,29),(30,31),
]

OUTLINE = [  # lon, lat of the coast, clockwise from Cape Lilybaeum
 (12.42,37.80),(12.45,37.95),(12.50,38.04),(12.62,38.12),(12.75,38.18),(12.90,38.05),(13.05,38.10),
 (13.20,38.20),(13.36,38.13),(13.55,38.10),(13.75,37.98),(14.02,38.05),(14.35,38.02),(14.65,38.08),
 (15.00,38.16),(15.24,38.25),(15.55,38.30),(15.66,38.25),(15.55,38.15),(15.40,37.95),(15.28,37.82),
 (15.15,37.60),(15.09,37.48),(15.20,37.30),(15.18,37.18),(15.32,37.05),(15.20,36.90),(15.12,36.70),
 (15.00,36.68),(14.70,36.75),(14.48,36.80),(14.25,37.05),(14.00,37.10),(13.80,37.15),(13.55,37.27),
 (13.30,37.38),(13.05,37.50),(12.85,37.57),(12.60,37.63),(12.47,37.70),
]

EDGES = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}

def km(lon, lat):
    return round((lon - LON0) * KX, 1), round((LAT0 - lat) * KY, 1)

pos = {n[0]: km(n[2], n[3]) for n in N}
adj = {n[0]: [] for n in N}
for a, b in PATHS:
    adj[a].append(b); adj[b].append(a)

def road_edge(a, b, coast):
    ax, ay = pos[a]; bx, by = pos[b]
    dx, dy = bx - ax, by - ay
    d = math.hypot(dx, dy)
    ranked = sorted(EDGES, key=lambda e: -(EDGES[e][0] * dx + EDGES[e][1] * dy) / d)
    return next(e for e in ranked if e not in coast)

out = ["# Node map of Sicily for the Magna Graecia campaign.",
       "# Written by data/magna-graecia/tools/sicily_map.py: edit the table there and run it again.",
       "version = 1", 'id = "sicily"', 'name = "Sicily"', "reconstructed = true",
       'note = "The printed node map is not in the rules text; this one places 32 ancient sites where they stood and joins them by the roads and coast routes of the period. The fixed points (00 Motya, 01 Lilybaeum, 08 Himera, 22 Paliki, 24 Catana, 26 Naxos, 28 Messena, 31 Syracuse) and the scenario lines follow the rules."',
       "width_km = 300.0", "height_km = 190.0",
       "outline = [" + ", ".join(f"[{x}, {y}]" for x, y in (km(*p) for p in OUTLINE)) + "]"]
pairs = [f"[{a}, {b}]" for a, b in PATHS]
out.append("# Movement paths between nodes.")
out.append("paths = [")
for k in range(0, len(pairs), 10):
    out.append("  " + ", ".join(pairs[k:k+10]) + ",")
out += ["]", ""]
for (i, name, lon, lat, coastal, south, cmds, skind, sarea, coast, rivers, feats) in N:
    x, y = pos[i]
    out += ["[[node]]", f"id = {i}", f'name = "{name}"', f"x_km = {x}", f"y_km = {y}"]
    if coastal: out.append("coastal = true")
    if south: out.append("south_coast = true")
    if cmds: out.append(f"city_commands = {cmds}")
    if name == "Syracuse": out.append("siege_modifier = -4")
    out += ["", "[node.battlefield]", "coast = [" + ", ".join(f'"{c}"' for c in coast) + "]",
            f'settlement = {{ kind = "{skind}", area = "{sarea}" }}']
    if rivers:
        out.append("river = [")
        out += [f'  {{ name = "{rn}", from = "{rf}", to = "{rt}", fords = {fo} }},' for rn, rf, rt, fo in rivers]
        out.append("]")
    out.append("feature = [")
    out += [f'  {{ kind = "{k}", area = "{a}", size = "{s}", name = "{fn}" }},' for k, a, s, fn in feats]
    out.append("]")
    out.append("road = [")
    out += [f'  {{ to = {b}, edge = "{road_edge(i, b, coast)}" }},' for b in sorted(adj[i])]
    out += ["]", ""]
here = os.path.dirname(os.path.abspath(__file__))
open(os.path.join(here, "..", "maps", "sicily.toml"), "w").write("\n".join(out) + "\n")
