package main

import "flag"

// update rewrites golden files and script expectations instead of
// comparing against them.
var update = flag.Bool("update", false, "rewrite golden files")
