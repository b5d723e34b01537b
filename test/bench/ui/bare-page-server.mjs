// P4's floor: a bare Node HTTP server (no tsx, no framework) answering one small page that shows the
// same landmark the console's first screen is recognised by (the "Main" navigation). Prints {"url"} on
// stdout, serves until SIGTERM.
import { createServer } from 'node:http'

const page =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><nav aria-label="Main"><button type="button">Guide</button></nav><main><h1>Ready</h1></main></body></html>'
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(page) })
  res.end(page)
})
server.listen(0, '127.0.0.1', () =>
  process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}/` }) + '\n'),
)
process.once('SIGTERM', () => server.close(() => process.exit(0)))
