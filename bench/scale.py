"""make bench-scale: evalgate beside its peers on synthetic campaigns.

For each size it writes a paired-review campaign with `evalgate synth`
(5% model faults, seed 741), then measures on the same files each
command's wall time, CPU time (user + system, children included) and peak
RSS with GNU time, in three rounds up to 100,000 sessions (each round runs
every command once, in turn, so that a change in the machine's load
touches them alike; one round above): a command's figures are those of
its run of median CPU time, with the highest peak RSS of its runs, and
every run's CPU time is printed beside them:

  evalgate run      the whole pipeline: load, validate, account, score,
                    aggregate, the 10,000-resample intervals, every table
                    and report; then once more, not counted, with
                    --progress and the Go runtime's GC trace
                    (GODEBUG=gctrace=1, which only prints) on stderr, from
                    which each stage's peak and live heap are read (the
                    measured run is the plain command: --progress reads
                    through a counting wrapper and sizes the campaign)
  sha256sum         every input byte hashed once: the floor of reading it
  duckdb            interop/bench.mjs: the query an analyst would write
                    (read_json with its column detection over receipts,
                    adjudications and every truth file), the same task
                    medians, macro-averages and cost ratio (nothing
                    validated)
  pandas+scipy      bench/pandas_peer.py: the same, plus a 10,000-resample
                    family bootstrap

It then checks the peers agree with evalgate's scorecard.json (macro
median R per arm and the cost ratio, its exact fractions, to 1e-12), so
the comparison is of the same work, and prints the ratios against the
targets (evalgate CPU ≤ 3× sha256sum's at every size, ≤ DuckDB's at
10,000 sessions; peak RSS ≤ 256 MiB at 100,000, ≤ 1 GiB and ≤ 120 s wall
at a million; pandas + scipy ≥ 5× evalgate's) and evalgate run's heap by
stage; at a million sessions or more, one line says whether the
million-session goal was met, with evalgate run's wall, CPU and peak RSS
and the load average before and after that run. Above 100,000 sessions only evalgate and sha256sum run (the peers'
readers hold the campaign in memory: DuckDB took 13.6 GB at 100,000; the
ratios against them and the agreement check then say they were not run). After
every size it prints the figures as markdown tables the README's
performance section quotes, the load average before and after (the
machine may be shared: above its core count, wall times are inflated) and
how long the whole run took. Each campaign is removed once measured.
Exit 1 when a peer disagrees.

Usage: /usr/bin/python3 bench/scale.py EVALGATE_BINARY WORKDIR SIZE...
"""

import json
import os
from fractions import Fraction
import re
import shutil
import subprocess
import sys
import time


def timed(name, argv, stdout=subprocess.DEVNULL, env=None):
    stats = os.path.join(WORK, "time.txt")
    cmd = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", stats] + argv
    res = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True,
                         env=None if env is None else {**os.environ, **env})
    if res.returncode != 0:
        sys.stderr.write(res.stderr)
        raise SystemExit(f"bench-scale: {name} exited {res.returncode}")
    with open(stats) as f:
        wall, user, sys_, rss = f.read().split()[-4:]
    return {"name": name, "wall": float(wall), "cpu": float(user) + float(sys_), "rss_mib": int(rss) / 1024,
            "stdout": res.stdout if stdout == subprocess.PIPE else None, "stderr": res.stderr}


def median_run(runs):
    """The run of median CPU time among runs (an odd number), with the
    highest peak RSS of them all and every run's CPU time listed."""
    row = dict(sorted(runs, key=lambda r: r["cpu"])[len(runs) // 2])
    row["rss_mib"] = max(r["rss_mib"] for r in runs)
    row["cpus"] = [r["cpu"] for r in runs]
    return row


GC_LINE = re.compile(r"^gc \d+ @.*?: .*?, (\d+)->(\d+)->(\d+) MB, (\d+) MB goal, ")
STAGE_LINE = re.compile(r"^evalgate: (\w+) · ")


def heap_by_stage(stderr):
    """Each stage's peak heap and largest live heap in MiB, from the Go
    runtime's GC trace (GODEBUG=gctrace=1: one line per collection, "heap
    at its start->at its end->live MB, goal MB") interleaved on stderr
    with --progress's stage lines: every collection belongs to the stage
    whose line precedes it. A stage that ran no collection has no live
    figure, and its heap stayed under the goal the last collection set:
    that goal is its peak, marked as a bound."""
    stages, stage, goal = {}, None, 0
    for line in stderr.splitlines():
        m = STAGE_LINE.match(line)
        if m and m.group(1) != "done":
            stage = m.group(1)
            stages.setdefault(stage, {"peak": goal, "live": None})
            continue
        m = GC_LINE.match(line)
        if m and stage is not None:
            start, end, live, goal = map(int, m.groups())
            st = stages[stage]
            if st["live"] is None:  # the first collection of the stage
                st["peak"], st["live"] = 0, 0
            st["peak"], st["live"] = max(st["peak"], start, end), max(st["live"], live)
    return stages


def heap_cell(st, sep):
    if st["live"] is None:
        return f"≤{st['peak']:,}{sep}–"
    return f"{st['peak']:,}{sep}{st['live']:,}"


def heap_line(stages, rss_mib):
    if not any(v["live"] is not None for v in stages.values()):
        return ("evalgate run heap by stage: no collection recognised in the second run's stderr "
                "(GODEBUG=gctrace=1 and --progress lines expected)")
    parts = [f"{s} {heap_cell(v, '/')}" for s, v in stages.items()]
    peak = max((v["peak"] for v in stages.values() if v["live"] is not None), default=0)
    return (f"evalgate run heap by stage, MiB peak/live after a collection (Go GC trace of a second run; ≤: no "
            f"collection, under the last goal): {', '.join(parts)}; peak heap {peak:,} MiB, "
            f"that run's peak RSS {rss_mib:,.0f} MiB")


REPEATS = 3  # runs of each tool per size up to PEERS_UP_TO; the median counts (one run above)
PEERS_UP_TO = 100_000  # DuckDB's and pandas' readers hold the campaign in memory
NOT_RUN = f"DuckDB and pandas+scipy not run at this size (run only up to {PEERS_UP_TO:,} sessions)"


def ratios_line(ev, ratios):
    """The ratios against the targets; a ratio whose peer was not run at
    this size (None) says so instead of a figure."""
    def against(what, v, target, missing):
        return f"{what}: not measured, {missing}" if v is None else f"{what} {v:.2f}× ({target})"
    return (against("evalgate CPU ÷ DuckDB's", ratios["duckdb"], "target ≤ 1 at 10,000 sessions", NOT_RUN) +
            f", ÷ sha256sum's {ratios['sha256']:.2f}× (target ≤ 3); " +
            against("pandas+scipy CPU ÷ evalgate's", ratios["pandas"], "target ≥ 5", "pandas+scipy not run at this size") +
            f"; evalgate wall {ev['wall']:.1f} s (target ≤ 120 at a million), peak RSS {ev['rss_mib']:.0f} MiB "
            f"(target ≤ 256 at 100,000, ≤ 1,024 at a million)")


def million_line(ev, load_run):
    """The million-session goal, met or not: wall ≤ 120 s and peak RSS ≤
    1 GiB on the 2-core machine, with the CPU time beside the wall (on
    cores shared with other work the wall time is inflated: CPU ÷ cores is
    what a quiet machine would need at best) and the load average around
    the measured run."""
    cores = os.cpu_count() or 1
    wall_ok = "met" if ev["wall"] <= 120 else "not met"
    rss_ok = "met" if ev["rss_mib"] <= 1024 else "not met"
    return (f"a million sessions: evalgate run {ev['wall']:.1f} s wall (goal ≤ 120: {wall_ok}), {ev['cpu']:.1f} s CPU "
            f"({ev['cpu'] / cores:.1f} s of it per core on {cores} cores, {ev['cpu'] / max(ev['wall'], 0.01):.2f} cores busy "
            f"on average), peak RSS {ev['rss_mib']:,.0f} MiB (goal ≤ 1,024: {rss_ok}); load average {load_run} "
            f"(1/5/15 min; above {cores} the wall time is inflated)")


def campaign_size(d):
    files, size = 0, 0
    for root, _, names in os.walk(d):
        for n in names:
            files += 1
            size += os.path.getsize(os.path.join(root, n))
    return files, size


def close(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))


def exact(figure):
    """A scorecard figure as a float from its exact fraction."""
    return float(Fraction(figure["exact"]))


def agree(card, peer):
    ours = {a["arm"]: exact(a["macro_median_r"]) for a in card["evidence_and_plan"]["arms"]}
    ratio = exact(next(r for r in card["cost_and_time"]["ratios"] if r["arm"] == "B")["cost"]["ratio"])
    problems = []
    for arm, v in ours.items():
        if not close(v, peer["macro_median_r"].get(arm, float("nan"))):
            problems.append(f"macro median R of {arm}: evalgate {v}, {peer['tool']} {peer['macro_median_r'].get(arm)}")
    if not close(ratio, peer["cost_ratio"]):
        problems.append(f"cost ratio: evalgate {ratio}, {peer['tool']} {peer['cost_ratio']}")
    return ours, ratio, problems


def bench(evalgate, n):
    d = os.path.join(WORK, f"c{n}")
    out = os.path.join(WORK, f"o{n}")
    synth = timed("evalgate synth", [evalgate, "synth", "--kind", "paired-review", "--sessions", str(n),
                                     "--faults", "0.05", "--seed", "741", "--out", d], stdout=subprocess.PIPE)
    files, size = campaign_size(d)
    print(f"\n## {synth['stdout'].strip()}")
    print(f"{files:,} files, {size / 2**20:,.0f} MiB; written in {synth['wall']:.1f} s, peak RSS {synth['rss_mib']:.0f} MiB")
    here = os.path.dirname(os.path.abspath(__file__))
    peers = n <= PEERS_UP_TO
    listing = os.path.join(WORK, "files.txt")
    with open(listing, "w") as f:
        subprocess.run(["find", d, "-type", "f", "-print0"], stdout=f, check=True)
    tools = [("evalgate run", [evalgate, "run", d, "--out", out], subprocess.DEVNULL),
             ("sha256sum", ["sh", "-c", f"xargs -0 sha256sum < '{listing}'"], subprocess.DEVNULL)]
    if peers:
        tools += [("duckdb", ["node", os.path.join(here, "..", "interop", "bench.mjs"), d], subprocess.PIPE),
                  ("pandas+scipy", ["/usr/bin/python3", os.path.join(here, "pandas_peer.py"), d], subprocess.PIPE)]
    rounds = REPEATS if peers else 1
    load_run = load()
    runs = {name: [] for name, _, _ in tools}
    for _ in range(rounds):  # round by round, so that a change of load touches every tool alike
        for name, argv, stdout in tools:
            if name == "evalgate run" and os.path.exists(out):
                shutil.rmtree(out)
            runs[name].append(timed(name, argv, stdout=stdout))
    load_run += f" before, {load()} after"
    rows = [median_run(runs[name]) for name, _, _ in tools]
    godebug = ",".join(filter(None, [os.environ.get("GODEBUG"), "gctrace=1"]))
    traced = timed("evalgate run, traced", [evalgate, "run", d, "--out", out + "-traced", "--progress"],
                   env={"GODEBUG": godebug})
    shutil.rmtree(out + "-traced")
    heap = heap_by_stage(traced["stderr"])
    shutil.rmtree(d)  # measured: the next size needs the disk
    ev = rows[0]
    print(f"{'':14} {'wall s':>8} {'CPU s':>8} {'peak RSS MiB':>13} {'evalgate wall ÷ this':>21} {'evalgate CPU ÷ this':>20}"
          f"  CPU s of each run")
    for r in rows:
        print(f"{r['name']:14} {r['wall']:8.2f} {r['cpu']:8.2f} {r['rss_mib']:13.0f} "
              f"{ev['wall'] / max(r['wall'], 0.01):20.2f}× {ev['cpu'] / max(r['cpu'], 0.01):19.2f}×  "
              + ", ".join(f"{c:.2f}" for c in r["cpus"]))
    with open(os.path.join(out, "scorecard.json")) as f:
        card = json.load(f)
    shutil.rmtree(out)
    by = {r["name"]: r for r in rows}
    per = lambda a, b: a / max(b, 0.01)  # GNU time counts CPU in hundredths of a second
    ratios = {  # None: the peer was not run at this size
        "duckdb": per(ev["cpu"], by["duckdb"]["cpu"]) if peers else None,
        "sha256": per(ev["cpu"], by["sha256sum"]["cpu"]),
        "pandas": per(by["pandas+scipy"]["cpu"], ev["cpu"]) if peers else None,
    }
    print(ratios_line(ev, ratios))
    if n >= 1_000_000:
        print(million_line(ev, load_run))
    print(heap_line(heap, traced["rss_mib"]))
    if not peers:
        print(f"peers agree with evalgate: {NOT_RUN}, so not checked")
    failed = False
    agreed = []
    for r in rows[2:]:
        peer = json.loads(r["stdout"])
        ours, ratio, problems = agree(card, peer)
        extra = ""
        if "bootstrap_b_minus_a_95" in peer:
            lo, hi = peer["bootstrap_b_minus_a_95"]
            extra = f"; its bootstrap 95% B−A: [{lo:.4f}, {hi:.4f}]"
        if problems:
            failed = True
            print(f"{peer['tool']} DISAGREES: " + "; ".join(problems))
        else:
            agreed.append(peer["tool"])
            print(f"{peer['tool']} agrees with evalgate: macro median R " +
                  ", ".join(f"{a} {v:.6f}" for a, v in sorted(ours.items())) +
                  f", cost ratio B/A {ratio:.6f} over {peer['runs']:,} runs{extra}")
    RESULTS.append({"sessions": synth["stdout"].split(": ", 1)[1].split(" sessions")[0], "files": files,
                    "mib": size / 2**20, "rows": rows, "ratios": ratios, "agreed": agreed, "peers": peers,
                    "heap": heap})
    return failed


def markdown():
    """The figures of every size as the README's two tables."""
    print("\n| sessions | campaign | tool | wall s | CPU s | peak RSS MiB | CPU s of each run |")
    print("|---:|---|---|---:|---:|---:|---|")
    for res in RESULTS:
        for r in res["rows"]:
            print(f"| {int(res['sessions']):,} | {res['files']:,} files, {res['mib']:,.0f} MiB | {r['name']} | "
                  f"{r['wall']:.2f} | {r['cpu']:.2f} | {r['rss_mib']:,.0f} | {', '.join(f'{c:.2f}' for c in r['cpus'])} |")
    print("\n| sessions | evalgate CPU ÷ DuckDB (target ≤ 1 at 10k) | evalgate CPU ÷ sha256sum (target ≤ 3) | "
          "pandas+scipy CPU ÷ evalgate (target ≥ 5) | peers agree with evalgate |")
    print("|---:|---:|---:|---:|---|")
    for res in RESULTS:
        q = res["ratios"]
        x = lambda v, tool: f"{tool} not run at this size" if v is None else f"{v:.2f}×"
        agreed = (', '.join(res['agreed']) or 'none') if res["peers"] else NOT_RUN
        print(f"| {int(res['sessions']):,} | {x(q['duckdb'], 'DuckDB')} | {x(q['sha256'], 'sha256sum')} | "
              f"{x(q['pandas'], 'pandas+scipy')} | {agreed} |")
    names = list(dict.fromkeys(s for res in RESULTS for s in res["heap"]))
    print("\n| sessions | " + " | ".join(names) + " |\n|---:|" + "---:|" * len(names))
    for res in RESULTS:
        cells = [heap_cell(v, " / ") if (v := res["heap"].get(s)) else "" for s in names]
        print(f"| {int(res['sessions']):,} | " + " | ".join(cells) + " |")
    print("(evalgate run's heap by stage, MiB: peak / live after a collection, from the Go GC trace; "
          "≤: no collection in the stage, its heap stayed under the last collection's goal)")


def load():
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


RESULTS = []


if __name__ == "__main__":
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(2)
    WORK = sys.argv[2]
    os.makedirs(WORK, exist_ok=True)
    began, load_before = time.monotonic(), load()
    print(f"bench-scale on {os.cpu_count()} cores, load average {load_before} (1/5/15 min) at start")
    failed = False
    for size in sys.argv[3:]:
        failed |= bench(sys.argv[1], int(size))
    markdown()
    took = time.monotonic() - began
    print(f"\nbench-scale of {' and '.join(sys.argv[3:])} sessions took {int(took // 60)} min {took % 60:.0f} s "
          f"(campaigns written and every tool run); load average {load_before} at start, {load()} at the end "
          f"on {os.cpu_count()} cores (above {os.cpu_count()}, the machine was shared and wall times are inflated)")
    sys.exit(1 if failed else 0)
