// bench.mjs is the DuckDB peer of `make bench-scale`: it loads a
// paired-review campaign's receipts, adjudications and truth files and
// computes what evalgate's gates compute from them — each run's R
// (answerable obligations rated addressed / answerable obligations, 0 for a
// run without a rated answer), task medians over repetitions per arm, the
// macro-average of the task medians per arm, and the cost ratio
// Σ task-median workflow cost (B) / Σ task-median workflow cost (A), a
// workflow being the shared draft plus the arm's review, priced from the
// openai.responses usage at the synthetic rate card (US$4, US$0.40 cached,
// US$20 per million tokens). It validates nothing. It prints one JSON
// object on stdout.
//
// Usage: node interop/bench.mjs CAMPAIGN_DIR
import { DuckDBInstance } from '@duckdb/node-api';

function literal(s) {
  return "'" + s.replaceAll("'", "''") + "'";
}

async function main(dir) {
  if (!dir) {
    process.stderr.write('usage: node bench.mjs CAMPAIGN_DIR\n');
    process.exit(2);
  }
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const run = (sql) => conn.run(sql);
  const rows = async (sql) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
  const file = (p) => literal(dir + '/' + p);
  await run(`CREATE TABLE rec AS SELECT * FROM read_json(${file('receipts.jsonl')}, format = 'newline_delimited',
    maximum_object_size = 1048576, columns = {
      session_id: 'VARCHAR', task_id: 'VARCHAR', repetition: 'BIGINT', role: 'VARCHAR', arm: 'VARCHAR',
      inputs: 'STRUCT(draft_session_id VARCHAR)',
      meter: 'STRUCT(usage STRUCT(input_tokens BIGINT, input_tokens_details STRUCT(cached_tokens BIGINT), output_tokens BIGINT))'})`);
  await run(`CREATE TABLE adj AS SELECT * FROM read_json(${file('adjudications.jsonl')}, format = 'newline_delimited',
    maximum_object_size = 1048576, columns = {
      session_id: 'VARCHAR', rater: 'VARCHAR', rater_role: 'VARCHAR',
      obligations: 'STRUCT(obligation_id VARCHAR, outcome VARCHAR)[]'})`);
  await run(`CREATE TABLE truth AS SELECT * FROM read_json(${file('tasks/*/truth.json')},
    columns = {task_id: 'VARCHAR', obligations: 'STRUCT(id VARCHAR, answerable BOOLEAN)[]'})`);
  await run(`CREATE TABLE cost AS SELECT session_id, task_id, repetition, role, arm,
      inputs.draft_session_id AS draft,
      coalesce((meter.usage.input_tokens - meter.usage.input_tokens_details.cached_tokens) * 4000000::HUGEINT
        + meter.usage.input_tokens_details.cached_tokens * 400000::HUGEINT
        + meter.usage.output_tokens * 20000000::HUGEINT, 0) AS pico
    FROM rec`);
  await run(`CREATE TABLE runs AS SELECT r.session_id, r.task_id, r.repetition, r.arm, r.pico + d.pico AS workflow_pico
    FROM cost r JOIN cost d ON d.session_id = r.draft WHERE r.role = 'review'`);
  await run(`CREATE TABLE answerable AS SELECT task_id, o.id AS obligation_id
    FROM (SELECT task_id, unnest(obligations) AS o FROM truth) WHERE o.answerable`);
  // The settled rating: the adjudicator's when there is one, else the first primary's.
  await run(`CREATE TABLE settled AS SELECT session_id, obligations FROM adj
    QUALIFY row_number() OVER (PARTITION BY session_id ORDER BY rater_role = 'adjudicator' DESC, rater) = 1`);
  await run(`CREATE TABLE addressed AS SELECT s.session_id, count(*) AS n
    FROM (SELECT session_id, unnest(obligations) AS ob FROM settled) s
    JOIN runs r ON r.session_id = s.session_id
    JOIN answerable a ON a.task_id = r.task_id AND a.obligation_id = s.ob.obligation_id
    WHERE s.ob.outcome = 'addressed' GROUP BY 1`);
  await run(`CREATE TABLE run_r AS SELECT r.*, coalesce(ad.n, 0)::DOUBLE / den.n AS r
    FROM runs r LEFT JOIN addressed ad USING (session_id)
    JOIN (SELECT task_id, count(*) AS n FROM answerable GROUP BY 1) den USING (task_id)`);
  await run(`CREATE TABLE task_medians AS SELECT task_id, arm, median(r) AS median_r,
      median(workflow_pico::DOUBLE) AS median_cost
    FROM run_r GROUP BY ALL`);
  const arms = await rows(`SELECT arm, count(*) AS tasks, avg(median_r) AS macro_r, sum(median_cost) AS cost
    FROM task_medians GROUP BY arm ORDER BY arm`);
  const runsN = await rows(`SELECT count(*) AS n FROM runs`);
  const out = { tool: 'duckdb', runs: Number(runsN[0].n), macro_median_r: {}, tasks: {} };
  const cost = {};
  for (const a of arms) {
    out.macro_median_r[a.arm] = Number(a.macro_r);
    out.tasks[a.arm] = Number(a.tasks);
    cost[a.arm] = Number(a.cost);
  }
  out.cost_ratio = cost.B / cost.A;
  process.stdout.write(JSON.stringify(out) + '\n');
}

main(process.argv[2]).catch((err) => {
  process.stderr.write(`bench.mjs: ${err?.message ?? err}\n`);
  process.exit(1);
});
