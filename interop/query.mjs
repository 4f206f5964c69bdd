// query.mjs runs SQL queries with DuckDB and prints their results, so that
// the recipes of docs/analysis.md are executed by a real engine
// (cmd/evalgate's TestAnalysisRecipes extracts them from the document).
//
// Usage: node interop/query.mjs < queries.json
// where queries.json is [{"name": ..., "sql": ...}, ...]; relative paths
// in the SQL resolve against the working directory. Prints one JSON array
// of {name, columns, rows}; every value is DuckDB's own VARCHAR rendering
// (exact decimals, full-precision doubles) or null.
// Install once: npm ci --prefix interop
import { DuckDBInstance } from '@duckdb/node-api';

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

async function main() {
  const queries = JSON.parse(await readStdin());
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const out = [];
  for (const { name, sql } of queries) {
    let reader;
    try {
      reader = await conn.runAndReadAll(sql);
    } catch (err) {
      throw new Error(`query ${name}: ${err?.message ?? err}`);
    }
    const columns = reader.columnNames();
    const rows = reader.getRows().map((row) => row.map((v) => (v === null ? null : String(v))));
    out.push({ name, columns, rows });
  }
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

main().catch((err) => {
  process.stderr.write(`query.mjs: ${err?.message ?? err}\n`);
  process.exit(1);
});
