package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/evalgate/evalgate/fixtures"
	"github.com/evalgate/evalgate/internal/interop"
	"github.com/evalgate/evalgate/tables"
)

// recipeResult is what interop/query.mjs prints for one query: every value
// as DuckDB renders it as text, or null.
type recipeResult struct {
	Name    string      `json:"name"`
	Columns []string    `json:"columns"`
	Rows    [][]*string `json:"rows"`
}

// recipeCheck checks one recipe's result against values the test computes
// from the rows on its own; dir is the working directory the SQL ran in.
type recipeCheck func(t *testing.T, dir string, got recipeResult)

// TestAnalysisRecipes runs every SQL recipe of docs/analysis.md with DuckDB
// against the example's tables and checks each result against an
// independent computation from the Parquet rows (medians, means and exact
// money sums done here in Go), the example's manifest and the README's
// statement of the examples' decisions. A recipe without a check, or a
// check without a recipe, fails.
func TestAnalysisRecipes(t *testing.T) {
	script := interop.Script(t, "query.mjs")
	doc, err := os.ReadFile("../../docs/analysis.md")
	if err != nil {
		t.Fatal(err)
	}
	recipes := extractRecipes(t, string(doc))

	dir := t.TempDir()
	for _, args := range [][]string{
		{"run", "--no-intervals", "--out", filepath.Join(dir, "out")},
		{"run", "--no-intervals", "--example", "paired-review-green", "--out", filepath.Join(dir, "outputs", "paired-review-green")},
	} {
		if code, _, stderr := evalgate(t, args...); code != 0 {
			t.Fatalf("evalgate %v: exit %d: %s", args, code, stderr)
		}
	}
	copyOutputs(t, filepath.Join(dir, "out"), filepath.Join(dir, "outputs", "paired-review")) // the default example's
	checks := map[string]recipeCheck{
		"runs_per_task":        checkRunsPerTask,
		"r_by_arm":             checkRByArm,
		"task_splits":          checkTaskSplits,
		"cost_ratio_per_task":  checkCostRatioPerTask,
		"cost_ratio_campaign":  checkCostRatioCampaign,
		"failing_gates":        checkFailingGates,
		"failing_tasks":        checkFailingTasks,
		"decisions_of_outputs": checkDecisionsOfOutputs,
		"r_by_arm_of_outputs":  checkRByArmOfOutputs,
		"manifests_of_outputs": checkManifestsOfOutputs,
	}
	var queries []map[string]string
	for _, r := range recipes {
		if checks[r[0]] == nil {
			t.Errorf("docs/analysis.md recipe %q has no check in this test", r[0])
		}
		queries = append(queries, map[string]string{"name": r[0], "sql": r[1]})
	}
	for name := range checks {
		if !slices.ContainsFunc(recipes, func(r [2]string) bool { return r[0] == name }) {
			t.Errorf("check %q has no recipe in docs/analysis.md", name)
		}
	}
	for _, got := range runQueries(t, script, dir, queries) {
		if check := checks[got.Name]; check != nil {
			t.Run(got.Name, func(t *testing.T) { check(t, dir, got) })
		}
	}
	// As written, on every example: each recipe runs (query.mjs fails on
	// any SQL error) on each embedded example's tables, in a directory
	// laid out as the document says.
	for _, example := range fixtures.Examples() {
		t.Run("every_example/"+example, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"run", "--no-intervals", "--example", example, "--out", filepath.Join(dir, "out")}
			if code, _, stderr := evalgate(t, args...); code != 0 {
				t.Fatalf("evalgate %v: exit %d: %s", args, code, stderr)
			}
			copyOutputs(t, filepath.Join(dir, "out"), filepath.Join(dir, "outputs", example))
			got := runQueries(t, script, dir, queries)
			if len(got) != len(queries) {
				t.Errorf("%d results for %d recipes", len(got), len(queries))
			}
		})
	}
}

// extractRecipes returns every (name, SQL) of the document: a SQL block is
// a recipe only when a "<!-- recipe: NAME -->" line precedes it, and every
// SQL block must be one.
func extractRecipes(t *testing.T, doc string) [][2]string {
	t.Helper()
	re := regexp.MustCompile("(?s)<!-- recipe: ([a-z_]+) -->\n```sql\n(.*?)```")
	var out [][2]string
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		out = append(out, [2]string{m[1], m[2]})
	}
	if n := strings.Count(doc, "```sql\n"); n != len(out) || n == 0 {
		t.Fatalf("docs/analysis.md has %d SQL blocks and %d named recipes: name every block", n, len(out))
	}
	return out
}

// copyOutputs copies the output set in src to dst: what a second run of
// the same campaign with --out dst writes (a run's outputs do not depend
// on where they go), without running the pipeline again.
func copyOutputs(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

func runQueries(t *testing.T, script, dir string, queries []map[string]string) []recipeResult {
	t.Helper()
	var got []recipeResult
	interop.Node(t, dir, queries, &got, script)
	if len(got) != len(queries) {
		t.Fatalf("query.mjs returned %d results for %d queries", len(got), len(queries))
	}
	return got
}

// --- independent computations from the Parquet rows ---

type taskArm struct{ task, arm string }

// runGroups groups the runs of an output directory by (task, arm), in
// task then arm order.
func runGroups(t *testing.T, out string) ([]taskArm, map[taskArm][]tables.Run) {
	groups := map[taskArm][]tables.Run{}
	var keys []taskArm
	for _, r := range rcReadTable[tables.Run](t, out, "runs.parquet") {
		k := taskArm{r.TaskID, r.Arm}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], r)
	}
	slices.SortFunc(keys, func(a, b taskArm) int {
		return strings.Compare(a.task+"\x00"+a.arm, b.task+"\x00"+b.arm)
	})
	return keys, groups
}

// exactR is a run's R as the exact fraction r_num/r_den; nil when the run
// has no R.
func exactR(r tables.Run) *big.Rat {
	if r.R == nil || r.RDen == 0 {
		return nil
	}
	return big.NewRat(r.RNum, r.RDen)
}

func meanRat(xs []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, x)
	}
	return sum.Quo(sum, big.NewRat(int64(len(xs)), 1))
}

// runRs are the exact Rs of runs that have one.
func runRs(runs []tables.Run) []*big.Rat {
	var rs []*big.Rat
	for _, r := range runs {
		if x := exactR(r); x != nil {
			rs = append(rs, x)
		}
	}
	return rs
}

// medianMoney is the median of the runs' workflow costs (nil when any is
// unknown); an even count's half pico-unit rounds half to even.
func medianMoney(runs []tables.Run) *big.Rat {
	var xs []*big.Rat
	for _, r := range runs {
		if r.WorkflowCost == nil {
			return nil
		}
		xs = append(xs, big.NewRat(int64(*r.WorkflowCost), 1))
	}
	m := rcMedian(xs)
	return roundHalfEven(m)
}

func medianNS(runs []tables.Run) *big.Rat {
	var xs []*big.Rat
	for _, r := range runs {
		xs = append(xs, big.NewRat(r.WorkflowNS, 1))
	}
	return roundHalfEven(rcMedian(xs))
}

// roundHalfEven rounds a non-negative rational to an integer, halves to even.
func roundHalfEven(x *big.Rat) *big.Rat {
	q, rem := new(big.Int).QuoRem(x.Num(), x.Denom(), new(big.Int))
	twice := new(big.Int).Mul(rem, big.NewInt(2))
	if c := twice.Cmp(x.Denom()); c > 0 || c == 0 && q.Bit(0) == 1 {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetInt(q)
}

// picoMoney is a pico-unit amount as DuckDB's DECIMAL(18,12) text.
func picoMoney(x *big.Rat) string {
	return x.Quo(x, big.NewRat(1_000_000_000_000, 1)).FloatString(12)
}

// --- assertions on DuckDB's text ---

func cell(t *testing.T, got recipeResult, row int, col string) *string {
	t.Helper()
	i := slices.Index(got.Columns, col)
	if i < 0 {
		t.Fatalf("no column %q in %v", col, got.Columns)
	}
	return got.Rows[row][i]
}

func wantText(t *testing.T, got recipeResult, row int, col, want string) {
	t.Helper()
	if v := cell(t, got, row, col); v == nil || *v != want {
		t.Errorf("row %d %s = %v, want %q", row, col, deref(v), want)
	}
}

// wantNear checks a DOUBLE against an exact value to 1e-12 relative.
func wantNear(t *testing.T, got recipeResult, row int, col string, want *big.Rat) {
	t.Helper()
	v := cell(t, got, row, col)
	f, err := strconv.ParseFloat(deref(v), 64)
	w, _ := want.Float64()
	if v == nil || err != nil || math.Abs(f-w) > 1e-12*math.Max(1, math.Abs(w)) {
		t.Errorf("row %d %s = %v, want %s (%s)", row, col, deref(v), want.FloatString(15), want.RatString())
	}
}

func wantRows(t *testing.T, got recipeResult, n int) {
	t.Helper()
	if len(got.Rows) != n {
		t.Fatalf("%d rows, want %d: %v", len(got.Rows), n, got.Rows)
	}
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// --- one check per recipe ---

func checkRunsPerTask(t *testing.T, dir string, got recipeResult) {
	out := filepath.Join(dir, "out")
	keys, groups := runGroups(t, out)
	category := map[string]string{}
	for _, tk := range rcReadTable[tables.Task](t, out, "tasks.parquet") {
		category[tk.TaskID] = tk.Category
	}
	wantRows(t, got, len(keys))
	for i, k := range keys {
		runs := groups[k]
		scored := 0
		for _, r := range runs {
			if r.Scored {
				scored++
			}
		}
		wantText(t, got, i, "task_id", k.task)
		wantText(t, got, i, "arm", k.arm)
		wantText(t, got, i, "category", category[k.task])
		wantText(t, got, i, "runs", strconv.Itoa(len(runs)))
		wantText(t, got, i, "scored_runs", strconv.Itoa(scored))
		wantNear(t, got, i, "mean_r", meanRat(runRs(runs)))
		// The task's exact median R, as a reduced fraction of two
		// integer columns, is the median of its runs' Rs.
		num, okN := new(big.Int).SetString(deref(cell(t, got, i, "median_r_num")), 10)
		den, okD := new(big.Int).SetString(deref(cell(t, got, i, "median_r_den")), 10)
		want := rcMedian(runRs(runs))
		if !okN || !okD || den.Sign() <= 0 || new(big.Rat).SetFrac(num, den).Cmp(want) != 0 || new(big.Int).GCD(nil, nil, num, den).Cmp(big.NewInt(1)) != 0 {
			t.Errorf("row %d median_r %v/%v, want %s reduced", i, deref(cell(t, got, i, "median_r_num")), deref(cell(t, got, i, "median_r_den")), want.RatString())
		}
	}
}

func checkRByArm(t *testing.T, dir string, got recipeResult) {
	keys, groups := runGroups(t, filepath.Join(dir, "out"))
	medians := map[string][]*big.Rat{}
	var arms []string
	for _, k := range keys {
		if !slices.Contains(arms, k.arm) {
			arms = append(arms, k.arm)
		}
		medians[k.arm] = append(medians[k.arm], rcMedian(runRs(groups[k])))
	}
	slices.Sort(arms)
	wantRows(t, got, len(arms))
	for i, arm := range arms {
		ms := medians[arm]
		lowest := slices.MinFunc(ms, func(a, b *big.Rat) int { return a.Cmp(b) })
		wantText(t, got, i, "arm", arm)
		wantText(t, got, i, "tasks", strconv.Itoa(len(ms)))
		wantNear(t, got, i, "macro_median_r", meanRat(ms))
		wantNear(t, got, i, "lowest_task_median_r", lowest)
	}
	// By hand from the example: A's task medians average to 123/160.
	wantNear(t, got, 0, "macro_median_r", big.NewRat(123, 160))
}

func checkTaskSplits(t *testing.T, _ string, got recipeResult) {
	src, _ := fixtures.Example(fixtures.DefaultExample)
	data, err := fs.ReadFile(src, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Design struct {
			Tasks []struct {
				ID    string `json:"id"`
				Split string `json:"split"`
			} `json:"tasks"`
		} `json:"design"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	ts := m.Design.Tasks
	slices.SortFunc(ts, func(a, b struct {
		ID    string `json:"id"`
		Split string `json:"split"`
	}) int {
		return strings.Compare(a.ID, b.ID)
	})
	wantRows(t, got, len(ts))
	for i, tk := range ts {
		wantText(t, got, i, "task_id", tk.ID)
		wantText(t, got, i, "split", tk.Split)
	}
}

func checkCostRatioPerTask(t *testing.T, dir string, got recipeResult) {
	keys, groups := runGroups(t, filepath.Join(dir, "out"))
	var tasks []string
	for _, k := range keys {
		if !slices.Contains(tasks, k.task) {
			tasks = append(tasks, k.task)
		}
	}
	wantRows(t, got, len(tasks))
	for i, task := range tasks {
		a, b := groups[taskArm{task, "A"}], groups[taskArm{task, "B"}]
		costA, costB := medianMoney(a), medianMoney(b)
		nsA, nsB := medianNS(a), medianNS(b)
		wantText(t, got, i, "task_id", task)
		wantText(t, got, i, "cost_a", picoMoney(new(big.Rat).Set(costA)))
		wantText(t, got, i, "cost_b", picoMoney(new(big.Rat).Set(costB)))
		wantNear(t, got, i, "cost_ratio", new(big.Rat).Quo(costB, costA))
		wantNear(t, got, i, "time_ratio", new(big.Rat).Quo(nsB, nsA))
		wantNear(t, got, i, "median_seconds_b", new(big.Rat).Quo(nsB, big.NewRat(1e9, 1)))
	}
}

func checkCostRatioCampaign(t *testing.T, dir string, got recipeResult) {
	out := filepath.Join(dir, "out")
	keys, groups := runGroups(t, out)
	sum := map[string]*big.Rat{"A": new(big.Rat), "B": new(big.Rat)}
	for _, k := range keys {
		sum[k.arm].Add(sum[k.arm], medianMoney(groups[k]))
	}
	wantRows(t, got, 1)
	wantText(t, got, 0, "sum_a", picoMoney(new(big.Rat).Set(sum["A"])))
	wantText(t, got, 0, "sum_b", picoMoney(new(big.Rat).Set(sum["B"])))
	ratio := new(big.Rat).Quo(sum["B"], sum["A"])
	wantNear(t, got, 0, "cost_ratio", ratio)
	// It is the g5_cost_aggregate gate's observation, exactly.
	for _, g := range rcReadTable[tables.Gate](t, out, "gates.parquet") {
		if g.Gate == "g5_cost_aggregate" {
			frac, _, _ := strings.Cut(g.Observed, " ")
			if obs, ok := new(big.Rat).SetString(frac); !ok || obs.Cmp(ratio) != 0 {
				t.Errorf("g5_cost_aggregate observed %q, the recipe's sums give %s", g.Observed, ratio.RatString())
			}
		}
	}
}

// failingGateRows are the gates.parquet rows that fail, by gate name.
func failingGateRows(t *testing.T, out string) []tables.Gate {
	var rows []tables.Gate
	for _, g := range rcReadTable[tables.Gate](t, out, "gates.parquet") {
		if !g.Pass {
			rows = append(rows, g)
		}
	}
	slices.SortFunc(rows, func(a, b tables.Gate) int { return strings.Compare(string(a.Gate), string(b.Gate)) })
	return rows
}

func checkFailingGates(t *testing.T, dir string, got recipeResult) {
	out := filepath.Join(dir, "out")
	rows := failingGateRows(t, out)
	wantRows(t, got, len(rows))
	// Two observations recomputed from the runs: B's lowest task-median R
	// (g2_task_floor) and Σ B task-median cost / Σ A's (g5_cost_aggregate).
	keys, groups := runGroups(t, out)
	var lowestB *big.Rat
	sum := map[string]*big.Rat{"A": new(big.Rat), "B": new(big.Rat)}
	for _, k := range keys {
		sum[k.arm].Add(sum[k.arm], medianMoney(groups[k]))
		if m := rcMedian(runRs(groups[k])); k.arm == "B" && (lowestB == nil || m.Cmp(lowestB) < 0) {
			lowestB = m
		}
	}
	recomputed := map[string]*big.Rat{"g2_task_floor": lowestB, "g5_cost_aggregate": new(big.Rat).Quo(sum["B"], sum["A"])}
	for i, g := range rows {
		wantText(t, got, i, "gate", string(g.Gate))
		wantText(t, got, i, "arm", g.Arm)
		wantText(t, got, i, "failing_count", strconv.Itoa(len(g.Failing)))
		num, den := deref(cell(t, got, i, "observed_num")), deref(cell(t, got, i, "observed_den"))
		exact, ok := new(big.Rat).SetString(num + "/" + den)
		if !ok {
			t.Errorf("row %d observed %s/%s is not a fraction", i, num, den)
			continue
		}
		wantNear(t, got, i, "observed_value", exact)
		// The fraction is the display text's exact part.
		if frac, _, _ := strings.Cut(g.Observed, " "); !rcEqual(exact, rcObserved(frac)) {
			t.Errorf("row %d %s: observed %s/%s, display %q", i, g.Gate, num, den, g.Observed)
		}
		if want := recomputed[string(g.Gate)]; want != nil && exact.Cmp(want) != 0 {
			t.Errorf("%s observed %s, recomputed from the runs %s", g.Gate, exact.RatString(), want.RatString())
		}
		// The threshold text is "<cmp> <decimal>".
		cmp, thr, _ := strings.Cut(g.Threshold, " ")
		wantText(t, got, i, "comparison", cmp)
		want, _ := new(big.Rat).SetString(thr)
		wantNear(t, got, i, "threshold_value", want)
	}
	for name := range recomputed {
		if !slices.ContainsFunc(rows, func(g tables.Gate) bool { return string(g.Gate) == name }) {
			t.Errorf("%s no longer fails in the example: the recomputation checks nothing", name)
		}
	}
}

func checkFailingTasks(t *testing.T, dir string, got recipeResult) {
	var want [][2]string
	for _, g := range failingGateRows(t, filepath.Join(dir, "out")) {
		for _, f := range g.Failing {
			want = append(want, [2]string{f, string(g.Gate)})
		}
	}
	slices.SortFunc(want, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	wantRows(t, got, len(want))
	for i, w := range want {
		wantText(t, got, i, "task_or_run", w[0])
		wantText(t, got, i, "gate", w[1])
	}
}

func checkDecisionsOfOutputs(t *testing.T, _ string, got recipeResult) {
	// README: the paired-review example fails gates, its green copy
	// passes every one; both judge arm B.
	want := [][3]string{{"paired-review", "do_not_advance", "B"}, {"paired-review-green", "advance", "B"}}
	wantRows(t, got, len(want))
	for i, w := range want {
		wantText(t, got, i, "output", w[0])
		wantText(t, got, i, "decision", w[1])
		wantText(t, got, i, "arm", w[2])
	}
}

func checkRByArmOfOutputs(t *testing.T, dir string, got recipeResult) {
	row := 0
	for _, output := range []string{"paired-review", "paired-review-green"} {
		byArm := map[string][]tables.Run{}
		for _, r := range rcReadTable[tables.Run](t, filepath.Join(dir, "outputs", output), "runs.parquet") {
			byArm[r.Arm] = append(byArm[r.Arm], r)
		}
		arms := slices.Sorted(func(yield func(string) bool) {
			for a := range byArm {
				if !yield(a) {
					return
				}
			}
		})
		for _, arm := range arms {
			if row >= len(got.Rows) {
				t.Fatalf("%d rows, want more", len(got.Rows))
			}
			wantText(t, got, row, "output", output)
			wantText(t, got, row, "arm", arm)
			wantText(t, got, row, "runs", strconv.Itoa(len(byArm[arm])))
			wantNear(t, got, row, "mean_r", meanRat(runRs(byArm[arm])))
			row++
		}
	}
	wantRows(t, got, row)
}

func checkManifestsOfOutputs(t *testing.T, _ string, got recipeResult) {
	wantRows(t, got, 2)
	for i, example := range []string{"paired-review-green", "paired-review"} { // file name order
		src, _ := fixtures.Example(example)
		data, err := fs.ReadFile(src, "manifest.json")
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		wantText(t, got, i, "file_name", fmt.Sprintf("outputs/%s/runs.parquet", example))
		wantText(t, got, i, "manifest_sha256", hex.EncodeToString(sum[:]))
	}
}
