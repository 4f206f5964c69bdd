// Package importers reads the records of other tools — Inspect AI logs
// (.json and .eval), Codex CLI rollouts and Harbor trial results — and
// turns them into receipts and answers appended to a campaign through an
// explicit mapping file (docs/import.md): it writes campaigns, the load
// stage reads them. It decodes a campaign's documents with the loader
// (stages/load: the mapping file, answer paths, the identifier grammar and
// the classification of JSON syntax errors); stages.Import runs it and
// checks every meter with the account stage.
package importers
