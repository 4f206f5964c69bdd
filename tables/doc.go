// Package tables defines every table evalgate reads or writes, once: the
// input documents of a campaign (manifest, packets, truth, receipts, answers,
// adjudications), the output row types with their Parquet schemas and the
// exact money type. Finding codes, rules, gates and presets are in package
// rules.
//
// Conventions of the output rows: each row type is one Parquet table; field
// comments are the data dictionary. Nullable columns are pointers and Parquet
// optional. Money columns are DECIMAL(18,12) (see [Money]); durations are
// int64 nanoseconds; counts are int64. Rows are sorted by their key columns
// before writing, so outputs are byte-identical for identical inputs.
//
// Input fields tagged `intern:"true"` hold values that repeat across a
// campaign's records (task IDs and hashes, prompt lists, roles, outcomes);
// the loader keeps one copy of each such value and the records share it,
// so no consumer may write into a loaded record's strings or slices.
package tables
