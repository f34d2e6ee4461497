import { config } from 'zod/mini'

// zod compiles object schemas with `new Function`, after probing at the first parse whether it
// may. The app's Content-Security-Policy forbids that (and reports even the caught probe), so
// schemas are interpreted instead. Imported first in main.tsx, before anything parses.
config({ jitless: true })
