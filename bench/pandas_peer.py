"""pandas + scipy peer of `make bench-scale`.

Loads a paired-review campaign's receipts, adjudications and truth files
with pandas and computes what evalgate's gates compute from them: each
run's R (answerable obligations rated addressed / answerable obligations,
0 for a run without a rated answer), task medians over repetitions per
arm, the macro-average of the task medians per arm and the cost ratio
sum of task-median workflow cost (B) / (A), a workflow being the shared
draft plus the arm's review priced at the synthetic rate card; then a
10,000-resample family bootstrap (scipy.stats.bootstrap, percentile) of
the B - A macro-average difference. It validates nothing. Prints one JSON
object on stdout.

Usage: /usr/bin/python3 bench/pandas_peer.py CAMPAIGN_DIR
"""

import glob
import json
import os
import sys

import numpy as np
import pandas as pd
from scipy import stats


def main(d):
    rec = pd.read_json(os.path.join(d, "receipts.jsonl"), lines=True, dtype=False)
    adj = pd.read_json(os.path.join(d, "adjudications.jsonl"), lines=True, dtype=False)
    truths = []
    for p in sorted(glob.glob(os.path.join(d, "tasks", "*", "truth.json"))):
        with open(p, encoding="utf-8") as f:
            t = json.load(f)
        truths += [(t["task_id"], o["id"]) for o in t["obligations"] if o["answerable"]]
    answerable = pd.DataFrame(truths, columns=["task_id", "obligation_id"])
    den = answerable.groupby("task_id").size().rename("den")

    def pico(m):
        if not isinstance(m, dict):
            return 0
        u = m["usage"]
        cached = u["input_tokens_details"]["cached_tokens"]
        return (u["input_tokens"] - cached) * 4_000_000 + cached * 400_000 + u["output_tokens"] * 20_000_000

    rec["pico"] = rec["meter"].map(pico)
    rec["draft"] = rec["inputs"].map(lambda i: i["draft_session_id"])
    drafts = rec.loc[rec["role"] == "draft", ["session_id", "pico"]].rename(
        columns={"session_id": "draft", "pico": "draft_pico"})
    runs = rec.loc[rec["role"] == "review", ["session_id", "task_id", "repetition", "arm", "draft", "pico"]]
    runs = runs.merge(drafts, on="draft")
    runs["workflow_pico"] = (runs["pico"] + runs["draft_pico"]).astype(float)

    # The settled rating: the adjudicator's when there is one, else the first primary's.
    adj["adjudicator"] = adj["rater_role"] == "adjudicator"
    settled = adj.sort_values(["session_id", "adjudicator", "rater"], ascending=[True, False, True])
    settled = settled.drop_duplicates("session_id")
    obs = settled[["session_id", "obligations"]].explode("obligations").dropna()
    obs["obligation_id"] = obs["obligations"].map(lambda o: o["obligation_id"])
    obs["outcome"] = obs["obligations"].map(lambda o: o["outcome"])
    obs = obs.merge(runs[["session_id", "task_id"]], on="session_id")
    obs = obs.merge(answerable, on=["task_id", "obligation_id"])
    addressed = obs[obs["outcome"] == "addressed"].groupby("session_id").size().rename("n")
    runs = runs.merge(addressed, left_on="session_id", right_index=True, how="left").fillna({"n": 0})
    runs = runs.merge(den, left_on="task_id", right_index=True)
    runs["r"] = runs["n"] / runs["den"]

    med = runs.groupby(["task_id", "arm"]).agg(median_r=("r", "median"), median_cost=("workflow_pico", "median"))
    med = med.reset_index()
    macro = med.groupby("arm")["median_r"].mean()
    cost = med.groupby("arm")["median_cost"].sum()

    # Family bootstrap: one family per task in a synthetic campaign.
    wide = med.pivot(index="task_id", columns="arm", values="median_r")
    diff = (wide["B"] - wide["A"]).to_numpy()
    boot = stats.bootstrap((diff,), np.mean, n_resamples=10_000, method="percentile",
                           random_state=np.random.default_rng(741), vectorized=True)
    out = {
        "tool": "pandas+scipy",
        "runs": int(len(runs)),
        "macro_median_r": {a: float(v) for a, v in macro.items()},
        "tasks": {a: int(v) for a, v in med.groupby("arm").size().items()},
        "cost_ratio": float(cost["B"] / cost["A"]),
        "bootstrap_b_minus_a_95": [float(boot.confidence_interval.low), float(boot.confidence_interval.high)],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: pandas_peer.py CAMPAIGN_DIR", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
