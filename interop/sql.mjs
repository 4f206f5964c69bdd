// sql.mjs runs the DuckDB queries given as a JSON array of strings on stdin
// and prints, as one JSON array on stdout, each query's rows as objects
// (DuckDB's JSON rendering: BIGINT as text, lists as arrays, NULL as
// null). evalgate's test stages/report/interop_shapes_test.go asserts on
// them.
//
// Usage: echo '["SELECT 1 AS x"]' | node interop/sql.mjs
import { DuckDBInstance } from '@duckdb/node-api';

const queries = JSON.parse(await new Promise((resolve) => {
  let data = '';
  process.stdin.on('data', (c) => { data += c; });
  process.stdin.on('end', () => resolve(data));
}));
const conn = await (await DuckDBInstance.create(':memory:')).connect();
const out = [];
for (const sql of queries) {
  out.push((await conn.runAndReadAll(sql)).getRowObjectsJson());
}
process.stdout.write(JSON.stringify(out));
