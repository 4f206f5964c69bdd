// Package confined is evalgate's file access: every campaign file is read
// through a [CampaignDir] (os.Root: no symlink or ".." leaves the campaign
// directory, only regular files are read, every read is capped), and so is
// every other directory a command reads (an import's campaign, a Codex
// sessions tree, a Harbor job or trial, an output directory that collect
// or compare reads, a collected dataset); a file named on the command line
// is read by [ReadFile] (non-blocking, regular files only, capped); file
// errors become finding codes ([FileErrorCode]), and every output is
// written atomically: one file ([WriteAtomic], [WriteFileAtomic]) and a
// whole output set swapped into place only when complete
// ([WriteOutputSet]), carrying its own manifest of the files it holds
// ([CheckOutputSet]), which alone makes a directory evalgate's to replace.
// Writers of one place are serialised by a lock ([LockRoot], [LockDir]),
// and several files of one campaign are committed together ([Commit],
// recovered after a kill by [RecoverCommit]). It imports only package
// rules; every package that touches a file goes through it.
package confined
