// Which names mean "this machine only": 127.0.0.0/8, localhost and ::1.
const loopbackName = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|localhost|::1|\[::1\])$/i

export const isLoopbackName = (name: string): boolean => loopbackName.test(name)

/** Whether a Host header ("127.0.0.1:54321", "[::1]:54321", "localhost") names this machine. */
export function isLoopbackHost(header: string | undefined): boolean {
  if (!header) return false
  const name = header.startsWith('[')
    ? header.slice(0, header.indexOf(']') + 1)
    : header.split(':')[0]!
  return isLoopbackName(name)
}
