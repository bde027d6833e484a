// Opens .dd2vtt files with Foundry's Universal Battlemap Importer's own parsing code and reports what it read.
//
//   node packaging/vtt_import_check.js PATH/TO/ddimport.js DIR
//
// ddimport.js is the importer's module file (moo-man/FVTT-DD-Import, not part of this project), run
// unchanged; its few Foundry calls (Hooks, game.settings, Scene.getDimensions, WallDocument,
// AmbientLightDocument) are stubbed with Foundry's defaults. For each DIR/*.dd2vtt (written with its
// .facts.json by packaging/vtt_import_check.py) it prints the walls, doors, windows and lights the
// importer made, and the rooms a token can walk to from the way in: across any square edge that no
// movement-blocking wall crosses, opening doors (door 1) but not windows or walls.
"use strict";
const fs = require("fs");
const vm = require("vm");
const path = require("path");

const SENSE = { NONE: 0, LIMITED: 10, NORMAL: 20, PROXIMITY: 30, DISTANCE: 40 };
class Doc {
  constructor(data) { this.data = Object.assign({}, this.constructor.defaults(), data); }
  static defaults() { return {}; }
  toObject() { return this.data; }
}
class WallDocument extends Doc {
  // Foundry's defaults: a wall blocks movement, sight, light and sound; door 0 (none), ds 0 (closed)
  static defaults() { return { door: 0, ds: 0, move: SENSE.NORMAL, sight: SENSE.NORMAL, light: SENSE.NORMAL, sound: SENSE.NORMAL }; }
}
class AmbientLightDocument extends Doc {}
class Scene {
  constructor(data) { this.data = data; }
  getDimensions() {
    // Foundry: the padding is rounded up to whole grid squares on each side.
    const size = this.data.grid.size, pad = this.data.padding || 0;
    return { sceneX: Math.ceil((this.data.width * pad) / size) * size, sceneY: Math.ceil((this.data.height * pad) / size) * size };
  }
}
const sandbox = {
  console, Math, JSON, atob: (s) => Buffer.from(s, "base64").toString("binary"),
  Hooks: { on: () => {} },
  CONST: { WALL_SENSE_TYPES: SENSE },
  game: { settings: { get: (mod, key) => (key === "openableWindows" ? false : {}) }, system: { grid: { distance: 5 } }, world: { id: "w" } },
  foundry: { applications: { api: { ApplicationV2: class {}, HandlebarsApplicationMixin: (B) => class extends B {} } }, utils: { deepClone: (o) => JSON.parse(JSON.stringify(o)), randomID: () => "x" } },
  WallDocument, AmbientLightDocument, Scene,
};
vm.createContext(sandbox);
const src = fs.readFileSync(process.argv[2], "utf8");
vm.runInContext(src + "\n;globalThis.DDImporter = DDImporter;", sandbox, { filename: "ddimport.js" });
const DDImporter = sandbox.DDImporter;

function cross(ax, ay, bx, by, cx, cy) { return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax); }
function intersects(p, q, w) {
  const [x1, y1, x2, y2] = w.c;
  const d1 = cross(x1, y1, x2, y2, p[0], p[1]), d2 = cross(x1, y1, x2, y2, q[0], q[1]);
  const d3 = cross(p[0], p[1], q[0], q[1], x1, y1), d4 = cross(p[0], p[1], q[0], q[1], x2, y2);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (ax, ay, bx, by, px, py, d) => d === 0 && Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
  return on(x1, y1, x2, y2, p[0], p[1], d1) || on(x1, y1, x2, y2, q[0], q[1], d2) || on(p[0], p[1], q[0], q[1], x1, y1, d3) || on(p[0], p[1], q[0], q[1], x2, y2, d4);
}

function importFile(file, factsFile) {
  const content = JSON.parse(fs.readFileSync(file, "utf8"));
  const facts = JSON.parse(fs.readFileSync(factsFile, "utf8"));
  const ppg = content.resolution.pixels_per_grid;
  const fidelity = 3, offset = 0.0, padding = 0.25; // the importer's defaults
  const scene = new Scene({ grid: { size: ppg }, padding, width: ppg * content.resolution.map_size.x, height: ppg * content.resolution.map_size.y });
  // as _addLevelData does
  const walls = DDImporter.GetWalls(content, scene, 6 - fidelity, offset, ppg).concat(DDImporter.GetDoors(content, scene, offset, ppg)).map((i) => i.toObject());
  const lights = DDImporter.GetLights(content, scene, ppg).map((i) => i.toObject());
  const { sceneX, sceneY } = scene.getDimensions();
  const plain = walls.filter((w) => w.door === 0);
  const doors = walls.filter((w) => w.door === 1);
  const windows = plain.filter((w) => w.sight === SENSE.PROXIMITY);
  // A token moves from square to square unless a wall that blocks movement stands between them; a
  // door (door 1) opens. Squares are the file's grid, from its origin.
  const W = content.resolution.map_size.x, H = content.resolution.map_size.y;
  const ox = content.resolution.map_origin.x, oy = content.resolution.map_origin.y;
  const centre = (x, y) => [(x + 0.5 - ox) * ppg + sceneX, (y + 0.5 - oy) * ppg + sceneY];
  const blocking = plain.filter((w) => w.move !== SENSE.NONE);
  const buckets = new Map(); // walls by the grid squares their box touches
  for (const w of blocking) {
    const xs = [w.c[0], w.c[2]].map((v) => (v - sceneX) / ppg + ox), ys = [w.c[1], w.c[3]].map((v) => (v - sceneY) / ppg + oy);
    for (let x = Math.floor(Math.min(...xs)) - 1; x <= Math.ceil(Math.max(...xs)); x++)
      for (let y = Math.floor(Math.min(...ys)) - 1; y <= Math.ceil(Math.max(...ys)); y++) {
        const k = x + "," + y; if (!buckets.has(k)) buckets.set(k, []); buckets.get(k).push(w);
      }
  }
  const blocked = (a, b) => {
    const p = centre(...a), q = centre(...b);
    const near = new Set([...(buckets.get(a[0] + "," + a[1]) || []), ...(buckets.get(b[0] + "," + b[1]) || [])]);
    for (const w of near) if (intersects(p, q, w)) return true;
    return false;
  };
  const floorOf = new Map();
  for (const [id, tiles] of Object.entries(facts.rooms)) for (const [x, y] of tiles) floorOf.set(x + "," + y, Number(id));
  const start = facts.rooms[String(facts.starts[0])][0];
  const seen = new Set([start[0] + "," + start[1]]);
  const todo = [start];
  while (todo.length) {
    const [x, y] = todo.pop();
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const n = [x + dx, y + dy], k = n[0] + "," + n[1];
      if (n[0] < ox || n[1] < oy || n[0] >= ox + W || n[1] >= oy + H || seen.has(k)) continue;
      if (blocked([x, y], n)) continue;
      seen.add(k); todo.push(n);
    }
  }
  const floor = new Set(facts.floor.map(([x, y]) => x + "," + y));
  const rock_reached = [...seen].filter((k) => !floor.has(k)).length;
  const reached = new Set([...seen].filter((k) => floorOf.has(k)).map((k) => floorOf.get(k)));
  const player = file.includes("-player");
  const expected = player ? facts.open_rooms.length : Object.keys(facts.rooms).length;
  return {
    file: path.basename(file),
    map: `${W}x${H} squares at ${ppg} px`,
    walls: plain.length, doors: doors.length, windows: windows.length, lights: lights.length,
    squares_reached: seen.size, rock_squares_reached: rock_reached, floor_squares: floor.size,
    rooms_reached: reached.size, rooms: Object.keys(facts.rooms).length, expected,
    facts: { doors: facts.doors, archways: facts.archways, secret: facts.secret, lit: facts.lit, open_rooms: facts.open_rooms.length },
  };
}

const dir = process.argv[3];
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".dd2vtt")).sort()) {
  const facts = path.join(dir, f.replace(/-(gm|player)\.dd2vtt$/, ".facts.json"));
  console.log(JSON.stringify(importFile(path.join(dir, f), facts)));
}
