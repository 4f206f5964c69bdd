package rules

// Codes of campaign file access (see campaign_fs.go) and of the findings
// cap (see finding_cap.go). A file code is emitted by whichever stage reads
// the file, answers included, since every stage reads through the same
// confined reader; they are documented with load, which reads most files.
const (
	CodeFileNotRegular Code = "file_not_regular"
	CodePathEscapes    Code = "path_escapes"
	CodeFindingsCapped Code = "findings_capped"
)

var fileCodes = []CodeDoc{
	{CodeFileNotRegular, "load", "L2", "A FIFO, device, socket or directory stands where a campaign file should be (or an import source, mapping, Harbor output file or Codex rollout); it is refused without being read."},
	{CodePathEscapes, "load", "L2", "A campaign path leaves the campaign directory through a symlink (or a path of an import's source tree, a Harbor trial or a Codex rollout, leaves its tree); it is not followed and its target is never read."},
	{CodeFindingsCapped, "load", "L2", "More findings of one code (or in all) than the report lists; this one finding counts the rest, with the most severe severity among them."},
}
