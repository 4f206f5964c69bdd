// bench.mjs is the DuckDB peer of `make bench-scale`: the query an analyst
// would write over a paired-review campaign, with DuckDB's defaults. It
// reads receipts.jsonl and adjudications.jsonl with read_json (columns
// auto-detected; maximum_object_size 1 MiB, the receipts' cap) and every
// tasks/*/truth.json with one glob, and computes what evalgate's gates
// compute from them: the settled rating of each review (the adjudicator's
// when there is one, else the first primary's), each run's R (answerable
// obligations rated addressed / answerable obligations, 0 for a run
// without a rating), task medians over repetitions per arm, the
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
  const file = (p) => literal(dir + '/' + p);
  const sql = `
WITH rec AS (
  SELECT * FROM read_json(${file('receipts.jsonl')}, maximum_object_size = 1048576)
), adj AS (
  SELECT * FROM read_json(${file('adjudications.jsonl')}, maximum_object_size = 1048576)
), truth AS (
  SELECT * FROM read_json(${file('tasks/*/truth.json')})
), cost AS (
  SELECT session_id, task_id, repetition, role, arm, inputs.draft_session_id AS draft,
    coalesce((meter.usage.input_tokens - meter.usage.input_tokens_details.cached_tokens) * 4000000::HUGEINT
      + meter.usage.input_tokens_details.cached_tokens * 400000::HUGEINT
      + meter.usage.output_tokens * 20000000::HUGEINT, 0) AS pico
  FROM rec
), runs AS (
  SELECT r.session_id, r.task_id, r.arm, r.pico + d.pico AS workflow_pico
  FROM cost r JOIN cost d ON d.session_id = r.draft WHERE r.role = 'review'
), answerable AS (
  SELECT task_id, o.id AS obligation_id
  FROM (SELECT task_id, unnest(obligations) AS o FROM truth) WHERE o.answerable
), settled AS (
  SELECT session_id, obligations FROM adj
  QUALIFY row_number() OVER (PARTITION BY session_id ORDER BY rater_role = 'adjudicator' DESC, rater) = 1
), rated AS MATERIALIZED (
  -- each review's settled outcomes beside its task; left to the planner,
  -- DuckDB joins the outcomes to the truth by obligation ID alone first,
  -- across tasks, which costs it four times as much
  SELECT r.session_id, r.task_id, unnest(s.obligations) AS ob
  FROM settled s JOIN runs r USING (session_id)
), addressed AS (
  SELECT s.session_id, count(*) AS n
  FROM rated s JOIN answerable a ON a.task_id = s.task_id AND a.obligation_id = s.ob.obligation_id
  WHERE s.ob.outcome = 'addressed' GROUP BY 1
), run_r AS (
  SELECT r.*, coalesce(ad.n, 0)::DOUBLE / den.n AS r
  FROM runs r LEFT JOIN addressed ad USING (session_id)
  JOIN (SELECT task_id, count(*) AS n FROM answerable GROUP BY 1) den USING (task_id)
), task_medians AS (
  SELECT task_id, arm, median(r) AS median_r, median(workflow_pico::DOUBLE) AS median_cost
  FROM run_r GROUP BY ALL
)
SELECT arm, count(*) AS tasks, avg(median_r) AS macro_r, sum(median_cost) AS cost,
  (SELECT count(*) FROM runs) AS runs
FROM task_medians GROUP BY arm ORDER BY arm`;
  const arms = (await conn.runAndReadAll(sql)).getRowObjectsJson();
  const out = { tool: 'duckdb', runs: 0, macro_median_r: {}, tasks: {} };
  const cost = {};
  for (const a of arms) {
    out.runs = Number(a.runs);
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
