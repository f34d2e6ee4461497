import { readFileSync } from 'node:fs'
import { readQuestions } from '/work/main/scripts/eval/library/questions.ts'
import { startLocalbase } from '/work/main/packages/localbase/src/index.ts'
const lb = await startLocalbase({ workdir: '/work/main', port: 0, dataDir: process.argv[2]!, env: { ...process.env } })
await lb.db.pg.exec(readFileSync(process.argv[3]!, 'utf8'))
const qs = readQuestions('/work/shared/data/financebench-dev/questions.jsonl')
const ws = (await lb.db.pg.query<{ id: string }>(`select id from public.workspaces where name='Library evaluation'`)).rows[0]!.id
const sums = new Map<string, number[]>()
for (let r = 0; r < 2; r++) for (const q of qs) {
  const marks: [string, number][] = []
  const s = performance.now()
  await lb.db.pg.query('select * from public.search_chunks_prof($1,$2)', [ws, q.question], {
    onNotice: (n: { message?: string }) => { const [k, v] = n.message!.split(' '); marks.push([k!, Number(v)]) },
  })
  const total = performance.now() - s
  if (r === 0) continue
  for (let i = 1; i < marks.length; i++) {
    const key = `${marks[i - 1]![0]}-${marks[i]![0]}`
    sums.set(key, [...(sums.get(key) ?? []), marks[i]![1] - marks[i - 1]![1]])
  }
  sums.set('total', [...(sums.get('total') ?? []), total])
}
for (const [k, v] of sums) { v.sort((a, b) => a - b); console.log(k, 'mean', (v.reduce((a, b) => a + b) / v.length).toFixed(1), 'p50', v[Math.floor(v.length/2)]!.toFixed(1), 'max', v[v.length - 1]!.toFixed(1)) }
await lb.stop()
