// check.mjs reads Parquet files with DuckDB and prints, as one JSON array on
// stdout, what a real engine sees in each file: DESCRIBE, parquet_schema(),
// parquet_kv_metadata(), parquet_file_metadata().created_by and the row
// count. evalgate's interop test (stages/report/interop_test.go) asserts on
// it (SPEC T3).
//
// Usage: node interop/check.mjs FILE.parquet...
// Install once: npm ci --prefix interop
import { DuckDBInstance } from '@duckdb/node-api';

const SAMPLE_ROWS = 5;

function literal(s) {
  return "'" + s.replaceAll("'", "''") + "'";
}

async function inspect(conn, file) {
  const f = literal(file);
  const rows = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
  return {
    file,
    describe: await rows(`DESCRIBE SELECT * FROM read_parquet(${f})`),
    schema: await rows(
      `SELECT name, type, repetition_type, logical_type, converted_type, scale, precision
       FROM parquet_schema(${f})`),
    kv_metadata: await rows(
      `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata(${f}) ORDER BY 1`),
    created_by: (await rows(`SELECT created_by FROM parquet_file_metadata(${f})`))[0]?.created_by ?? null,
    row_count: Number((await rows(`SELECT count(*) AS n FROM read_parquet(${f})`))[0].n),
    // Values as DuckDB renders them (VARCHAR casts: exact decimals, ISO timestamps), first rows only.
    sample: await rows(`SELECT COLUMNS(*)::VARCHAR FROM read_parquet(${f}) LIMIT ${SAMPLE_ROWS}`),
  };
}

async function main(files) {
  if (files.length === 0) {
    process.stderr.write('usage: node check.mjs FILE.parquet...\n');
    process.exit(2);
  }
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const out = [];
  for (const file of files) {
    out.push(await inspect(conn, file));
  }
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`check.mjs: ${err?.message ?? err}\n`);
  process.exit(1);
});
