// Package evalgate is the root of the evalgate module. It holds no code;
// see cmd/evalgate for the command, stages for the pipeline, tables for the
// table definitions and stats for the pure computations. Its tests enforce
// the layering of the packages.
package evalgate
