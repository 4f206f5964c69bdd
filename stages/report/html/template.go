package html

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
)

// pageCSS is report.html's one <style> element. It never contains '<'.
const pageCSS = `body { font-family: sans-serif; margin: 2em auto; padding: 0 0.5em; max-width: 72em; color: #1a1a1a; line-height: 1.4; }
h1, h2, h3, p, li, summary { overflow-wrap: anywhere; }
h1 { font-size: 1.5em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
.scroll { overflow-x: auto; max-width: 100%; margin: 1em 0; }
.scroll table, .scroll svg { margin: 0; }
details { margin: 0.4em 0; border: 1px solid #ddd; padding: 0.3em 0.6em; }
summary { cursor: pointer; }
summary strong { margin-right: 0.5em; }
.note { font-size: 0.9em; color: #444; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }
caption { text-align: left; font-style: italic; padding-bottom: 0.3em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.pass { color: #1b5e20; font-weight: bold; }
td.fail { color: #b71c1c; font-weight: bold; }
.synthetic { border: 3px solid #b71c1c; background: #fff3f3; padding: 0.8em; font-weight: bold; }
.decision { font-size: 1.3em; padding: 0.6em; border: 2px solid #555; }
.decision.advance { border-color: #1b5e20; }
.decision.hold { border-color: #b71c1c; }
.exploratory { border-left: 4px solid #888; padding-left: 1em; }
svg { display: block; margin: 1em 0; font-family: sans-serif; font-size: 11px; max-width: 100%; height: auto; }
svg .axis-title { font-weight: bold; fill: #333; }
svg .axis { stroke: #444; stroke-width: 1; }
svg .grid { stroke: #ddd; stroke-width: 1; }
svg .floor { stroke: #b71c1c; stroke-width: 1.5; stroke-dasharray: 6 3; }
svg .parity { stroke: #888; stroke-width: 1; stroke-dasharray: 2 2; }
svg .slope { stroke: #888; stroke-width: 1; }
svg .arm-0 { fill: #ffffff; stroke: #0072b2; stroke-width: 2; }
svg .arm-1 { fill: #e69f00; stroke: #e69f00; }
svg .arm-2 { fill: #009e73; stroke: #009e73; }
svg .arm-3 { fill: #cc79a7; stroke: #cc79a7; }
svg .arm-4 { fill: #56b4e9; stroke: #56b4e9; }
svg .arm-5 { fill: #d55e00; stroke: #d55e00; }
svg .arm-6 { fill: #000000; stroke: #000000; }
svg .thr { stroke: #b71c1c; stroke-width: 2; }
svg .obs-pass { fill: #1b5e20; }
svg .obs-fail { fill: #b71c1c; }
svg .ci { stroke: #333; stroke-width: 2; }
svg .est { fill: #333; }
svg .zero { stroke: #666; stroke-width: 1.5; }
svg .gate-ref { stroke: #b71c1c; stroke-width: 2; stroke-dasharray: 3 2; }
`

// contentSecurityPolicy allows the page nothing but pageCSS, by its hash:
// no script, image, font, frame, form or connection of any kind, so even
// markup that escaped escaping could not run or fetch anything.
var contentSecurityPolicy = "default-src 'none'; style-src '" + styleHash(pageCSS) + "'; base-uri 'none'; form-action 'none'"

// styleHash is the CSP source expression of an inline style's text.
func styleHash(css string) string {
	sum := sha256.Sum256([]byte(css))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// pageTemplate is report.html. It is well-formed XML as well as HTML
// (void elements are self-closed) so a test can check its structure with
// encoding/xml.
var pageTemplate = template.Must(template.New(File).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8"/>
<meta http-equiv="Content-Security-Policy" content="` + contentSecurityPolicy + `"/>
<meta name="viewport" content="width=device-width, initial-scale=1"/>
<title>evalgate report: {{.Title}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<h1>evalgate report: {{.Title}}</h1>
{{if .Synthetic}}<p class="synthetic">SYNTHETIC CAMPAIGN. The manifest marks this campaign as synthetic: no number below is evidence about a real model or workflow.</p>
{{end}}<ul>
{{range .Identity}}<li>{{.Text}}</li>
{{end}}</ul>
<h2 id="decision">Decision</h2>
<p class="decision {{if .DecisionPass}}advance{{else}}hold{{end}}" data-decision="{{.Decision}}"><strong>{{.Decision}}</strong>{{if .DecisionArm}} for arm {{.DecisionArm}}{{end}}.</p>
{{if .FailingGates}}<p>Failing gates ({{len .FailingGates}}):</p>
<ul>
{{range .FailingGates}}<li><strong>{{.Name}}</strong>{{.Rest}}</li>
{{end}}</ul>
{{else}}<p>Failing gates: none.</p>
{{end}}{{if .Policy}}<p>Policy: {{.Policy}}</p>
{{end}}<p>Reason: {{.Reason}}</p>
<h2 id="completion">Completion</h2>
<p>A complete run is not a success: the decision above is the verdict.</p>
<ul>
{{range .Completion}}<li data-count="{{.Count}}" data-value="{{.Value}}">{{.Text}}</li>
{{end}}</ul>
<h2 id="gates">Gates</h2>
{{if .Gates.Rows}}{{.Gates.HTML}}{{else}}<p>No gate was evaluated.</p>
{{end}}{{if .Benchmark}}{{template "benchmark" .Benchmark}}{{else}}{{if .TaskRPlot}}<h3>Paired task R</h3>
<div class="scroll">{{.TaskRPlot}}</div>
{{end}}{{if .RatioPlot}}<h3>Cost and time ratios against their thresholds</h3>
<div class="scroll">{{.RatioPlot}}</div>
{{end}}
<h2 id="scorecards">Scorecards</h2>
<h3>Source and protocol correctness</h3>
{{.Source.HTML}}<h3>Final evidence and plan correctness</h3>
{{.EvidenceArms.HTML}}{{.EvidenceTask.HTML}}<h3>Complete cost and time</h3>
<p>{{.CostSummary}}</p>
{{.CostArms.HTML}}{{if .CostRatios.Rows}}{{.CostRatios.HTML}}{{end}}<h2 id="runs">Runs per task</h2>
{{if .AnyRun}}<p class="note">Every planned run, none left out of its denominator; open a task for its runs.</p>
{{range .Tasks}}{{.}}{{end}}{{else}}<p>No run was planned or recorded.</p>
{{end}}{{end}}<h2 id="findings">Findings</h2>
{{if .Findings}}<ul>
{{range .Findings}}<li>{{.}}</li>
{{end}}{{if .MoreFindings}}<li>… {{.MoreFindings}} more in campaign_findings.parquet</li>
{{end}}</ul>
{{else}}<p>None.</p>
{{end}}<h2 id="intervals">Exploratory intervals (do not gate)</h2>
<div class="exploratory">
<p>Label: {{.Intervals.Label}}. Gate effect: {{.Intervals.GateEffect}}. These intervals never change a gate or the decision.</p>
{{if .IntervalIntro}}<p>{{.IntervalIntro}}</p>
{{end}}{{if .Intervals.Rows}}{{range .ForestPlots}}<div class="scroll">{{.}}</div>
{{end}}{{.IntervalRows.HTML}}{{else}}<p>No interval was computed.</p>
{{end}}</div>
</body>
</html>
`))
