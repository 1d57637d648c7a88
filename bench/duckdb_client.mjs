// duckdb_client.mjs -- EX with BIRD's semantics as DuckDB's own client
// computes it, for bench/agree_duckdb.py: each item's gold and prediction
// run through @duckdb/node-api (installed by the caller in a temporary
// folder: never committed) on the item's database file, the answers
// compared as sets of row tuples, each value compared as DuckDB's Python
// client's values compare (1 == 1.0 == True, a Decimal equal to a number
// only when exactly equal, dates only dates, text and bytes apart).
//
// usage: node duckdb_client.mjs [--gold-per-file] NODE_MODULES DB_PATTERN GOLD PRED...
//   DB_PATTERN: a path with {db_id}; GOLD: SQL<TAB>db_id lines; PRED: one
//   SQL a line. Writes one JSON line per prediction file and item:
//   {"file", "index", "ex": 1|0|null (null: the gold fails or no database)}
// and on stderr the seconds it took. The gold runs once an item; with
// --gold-per-file once an item and file, as BIRD's evaluator scores each
// file on its own.
import { createRequire } from 'module';
import fs from 'fs';
import path from 'path';

const args = process.argv.slice(2);
const perFile = args[0] === '--gold-per-file';
if (perFile) args.shift();
const [nodeModules, pattern, goldFile, ...predFiles] = args;
const require = createRequire(path.join(path.resolve(nodeModules), 'x.js'));
const duck = require('@duckdb/node-api');

const MIN_EXACT = -(2n ** 53n), MAX_EXACT = 2n ** 53n;

// A value's key: equal keys for values Python finds equal.
function numKey(bigNumerator, scale) { // the exact number bigNumerator / 10^scale
  const d = 10n ** BigInt(scale);
  if (bigNumerator % d === 0n) return 'n:' + (bigNumerator / d).toString();
  const x = Number(bigNumerator) / Number(d);
  // exactly a double? then it equals that float
  const asDec = exactDecimal(x);
  if (asDec && asDec.num * d === bigNumerator * asDec.den) return 'n:' + x.toString();
  return 'd:' + bigNumerator.toString() + 'e-' + scale;
}
function exactDecimal(x) { // x as num/den, den a power of 10 (null: not a finite decimal)
  if (!isFinite(x)) return null;
  const s = x.toExponential(20);
  const m = /^(-?)(\d)\.(\d+)e([+-]\d+)$/.exec(s);
  if (!m) return null;
  let digits = BigInt(m[2] + m[3]), exp = parseInt(m[4]) - m[3].length;
  if (m[1]) digits = -digits;
  if (exp >= 0) return { num: digits * 10n ** BigInt(exp), den: 1n };
  return { num: digits, den: 10n ** BigInt(-exp) };
}
function key(v) {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return 'n:' + (v ? 1 : 0);
  if (typeof v === 'bigint') return 'n:' + v.toString();
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'nan:' + Math.random(); // NaN equals nothing
    if (Number.isInteger(v) && v >= Number(MIN_EXACT) && v <= Number(MAX_EXACT)) return 'n:' + BigInt(v).toString();
    if (Number.isInteger(v)) return 'n:' + BigInt(v).toString();
    return 'n:' + v.toString();
  }
  if (typeof v === 'string') return 's:' + v;
  if (v instanceof duck.DuckDBDecimalValue) return numKey(v.value, v.scale);
  if (v instanceof duck.DuckDBBlobValue) return 'b:' + Buffer.from(v.bytes).toString('hex');
  if (v instanceof duck.DuckDBDateValue) return 'date:' + v.toString();
  if (v instanceof duck.DuckDBTimestampTZValue) return 'tstz:' + v.micros.toString();
  if (v instanceof duck.DuckDBTimestampValue) return 'ts:' + v.micros.toString();
  if (v instanceof duck.DuckDBTimestampSecondsValue) return 'ts:' + (BigInt(v.seconds) * 1000000n).toString();
  if (v instanceof duck.DuckDBTimestampMillisecondsValue) return 'ts:' + (BigInt(v.millis) * 1000n).toString();
  if (v instanceof duck.DuckDBTimeValue) return 'time:' + v.micros.toString();
  if (v instanceof duck.DuckDBIntervalValue)
    return 'td:' + ((BigInt(v.months) * 30n + BigInt(v.days)) * 86400000000n + BigInt(v.micros)).toString();
  return 's:' + String(v); // lists, structs ...: their text (Python could not hash them)
}

const instances = new Map();
async function connect(dbId) {
  const file = pattern.replaceAll('{db_id}', dbId);
  if (!fs.existsSync(file)) return null;
  if (!instances.has(file)) {
    const inst = await duck.DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1' });
    instances.set(file, await inst.connect());
  }
  return instances.get(file);
}

async function answer(con, sql) { // a Set of row keys, or null when it fails
  try {
    const r = await con.runAndReadAll(sql);
    const rows = new Set();
    for (const row of r.getRows()) rows.add(JSON.stringify(row.map(key)));
    return rows;
  } catch (e) {
    return null;
  }
}

const t0 = Date.now();
const gold = fs.readFileSync(goldFile, 'utf8').split('\n').filter(l => l.length).map(l => l.split('\t'));
const goldAnswers = [];
for (const [sql, dbId] of gold) {
  const con = await connect(dbId);
  goldAnswers.push(con ? await answer(con, sql) : null);
}
const out = [];
for (const f of predFiles) {
  const preds = fs.readFileSync(f, 'utf8').split(/\r?\n/);
  for (let i = 0; i < gold.length; i++) {
    let g = goldAnswers[i];
    if (perFile && g) g = await answer(await connect(gold[i][1]), gold[i][0]);
    let ex = null;
    if (g) {
      const con = await connect(gold[i][1]);
      const p = await answer(con, (preds[i] || '').trim());
      ex = p && p.size === g.size && [...p].every(x => g.has(x)) ? 1 : 0;
    }
    out.push(JSON.stringify({ file: path.basename(f), index: i, ex }));
  }
}
fs.writeSync(1, out.join('\n') + '\n');
process.stderr.write(`${(Date.now() - t0) / 1000}\n`);
