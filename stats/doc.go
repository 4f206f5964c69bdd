// Package stats is evalgate's pure computation for the gates: exact
// medians (the mean of the two middle values for an even count, never the
// lower middle value of gonum's stat.Quantile), exact means, sums and
// ratios of sums over big.Rat, exact decimal parsing and formatting, and
// the type-7 quantile and float median the bootstrap uses. No I/O, no wall
// clock, no randomness; functions copy their input and never mutate the
// caller's slice.
//
// Sums, means, ratios, medians and comparisons of rationals take checked
// int64 paths while every value fits and fall back to big.Rat arithmetic
// when one does not; every path is exact, so each result is the big.Rat
// the plain big.Rat computation gives, in lowest terms, and a returned
// big.Rat is never one of the inputs. Rounding to an integer, the nearest
// float64 and the digit count of a terminating expansion take the same
// kind of path (int64 or uint64 arithmetic, a division of two exact
// float64s) and give what the big.Int computation gives.
//
// The exploratory bootstrap is in the subpackage stats/boot, which the gate
// and decision code may not import.
package stats
