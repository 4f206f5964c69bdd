// quantile.mjs asks DuckDB for quantile_cont (type 7) and median of the
// vectors given as JSON on stdin ([{"values": [..], "p": 0.25}, ...]) and
// prints [{"quantile": q, "median": m}, ...]. evalgate's test
// stages/report/interop_quantile_test.go compares them with its own
// stats.Quantile7 and stats.MedianRat.
import { DuckDBInstance } from '@duckdb/node-api';

const input = JSON.parse(await new Promise((resolve) => {
  let data = '';
  process.stdin.on('data', (c) => { data += c; });
  process.stdin.on('end', () => resolve(data));
}));
const conn = await (await DuckDBInstance.create(':memory:')).connect();
const out = [];
for (const { values, p } of input) {
  const list = '[' + values.map((v) => `${v}::DOUBLE`).join(',') + ']';
  const sql = `SELECT quantile_cont(x, ${p}::DOUBLE) AS q, median(x) AS m FROM (SELECT unnest(${list}) AS x)`;
  const row = (await conn.runAndReadAll(sql)).getRowObjectsJson()[0];
  out.push({ quantile: Number(row.q), median: Number(row.m) });
}
process.stdout.write(JSON.stringify(out));
