// Page side of runs-in-a-web-worker.test.ts: fetches the files, hands them to the worker, and
// leaves the worker's answer on window.results.
const names = new URLSearchParams(location.search).getAll('file')
const files = await Promise.all(
  names.map(async (name) => ({
    name,
    bytes: new Uint8Array(await (await fetch(`/data/${encodeURIComponent(name)}`)).arrayBuffer()),
  })),
)
const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
const page = window as unknown as { results?: unknown }
worker.onmessage = ({ data }) => {
  // pdf.js, loaded inside the worker, announces itself on the same channel: not our answer.
  if (data && 'results' in data) page.results = data.results
}
worker.onerror = (event) => {
  page.results = { workerError: event.message }
}
worker.postMessage(files)
