// Package docs embeds the generated data dictionary of the output tables
// (tables.md, from tables.Registry and the row types' field comments), so
// that a user of the binary alone can read it: `evalgate tables`.
package docs

import _ "embed"

// Tables is tables.md.
//
//go:embed tables.md
var Tables string
