// markdown.mjs renders Markdown (a JSON string on stdin) to HTML with the
// npm marked package (GitHub-flavoured: tables, raw <details> blocks),
// printing {"html": "..."} on stdout. evalgate's browser test
// browser/compare_md_test.go loads the HTML of `evalgate compare --format
// md` in Chromium to read it as a pull-request comment is read.
//
// Usage: echo '"| a |\n|---|\n| 1 |"' | node interop/markdown.mjs
import { marked } from 'marked';

const md = JSON.parse(await new Promise((resolve) => {
  let data = '';
  process.stdin.on('data', (c) => { data += c; });
  process.stdin.on('end', () => resolve(data));
}));
process.stdout.write(JSON.stringify({ html: marked.parse(md, { gfm: true, async: false }) }));
